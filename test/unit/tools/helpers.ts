import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import { createTools } from '../../../src/agent/tools/index';
import { runTool, type AgentTool, type ToolContext, type ToolOutput, type WorkspaceRoots } from '../../../src/agent/tools/types';

const cleanup: string[] = [];
after(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

/** A fresh temp dir (real path) holding `ws/` (the workspace) and `outside/`. */
export async function makeSandbox(files: Record<string, string | Buffer> = {}): Promise<{ base: string; ws: string; outside: string; workspace: WorkspaceRoots }> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'arbor-tools-')));
  cleanup.push(base);
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'TOP SECRET\n');
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(ws, rel)), { recursive: true });
    await writeFile(join(ws, rel), content);
  }
  return { base, ws, outside, workspace: { folders: [{ name: 'ws', path: ws }] } };
}

export function ctxFor(workspace: WorkspaceRoots, extra: Partial<ToolContext> = {}): ToolContext {
  return { workspace, signal: new AbortController().signal, ...extra };
}

export function toolsByName(ripgrep?: string | false): Record<string, AgentTool> {
  return Object.fromEntries(createTools({ ripgrep }).map((t) => [t.name, t]));
}

export function textOf(output: ToolOutput): string {
  return output.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mimeType}]`)).join('\n');
}

export async function call(tool: AgentTool, args: unknown, ctx: ToolContext): Promise<ToolOutput> {
  return runTool(tool, args, ctx);
}
