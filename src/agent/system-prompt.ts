// Builds the system prompt from prompts/system/*.md: role, tools, working guidelines, and facts about
// the workspace (folders, OS, date, restricted mode, Plan mode, the project's AGENTS.md).
import { readFile, stat } from 'node:fs/promises';
import { release, type as osType } from 'node:os';
import { join } from 'node:path';
import { renderPrompt } from '../core/prompts';
import { resolveInWorkspace } from './tools/paths';
import type { WorkspaceFolder, WorkspaceRoots } from './tools/types';

export interface SystemPromptInput {
  workspaceFolders: readonly WorkspaceFolder[];
  /** e.g. `describeOs()` */
  os: string;
  /** the current date; a string is used as is */
  date: Date | string;
  /** contents of the project's AGENTS.md (see readAgentsMd) */
  agentsMd?: string;
  /** untrusted workspace: tools that change things are off */
  restricted: boolean;
  /** Plan mode: only tools that read are offered; the agent investigates and writes a plan */
  plan?: boolean;
  /** the tools offered to the model (name and description) */
  tools: readonly { name: string; description: string }[];
}

export const AGENTS_MD_MAX_BYTES = 32 * 1024;

export function describeOs(): string {
  const names: Record<string, string> = { Linux: 'Linux', Darwin: 'macOS', Windows_NT: 'Windows' };
  return `${names[osType()] ?? osType()} ${release()} (${process.platform}, ${process.arch})`;
}

/** YYYY-MM-DD in local time. */
export function formatDate(date: Date | string): string {
  if (typeof date === 'string') return date;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** First sentence of a tool description: the system prompt lists tools briefly; details are in the schema. */
export function summarizeTool(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end >= 0 ? flat.slice(0, end + 1) : flat;
}

function toolsSection(tools: SystemPromptInput['tools']): string {
  if (tools.length === 0) return 'No tools are available in this session; answer from the conversation alone.';
  return tools.map((tool) => `- \`${tool.name}\`: ${summarizeTool(tool.description)}`).join('\n');
}

function workspaceSection(folders: readonly WorkspaceFolder[]): string {
  if (folders.length === 0) return '- No folder is open, so there are no files to work with.';
  if (folders.length === 1) return renderPrompt('system/workspace-single', { folder: folders[0].path }).trimEnd();
  return renderPrompt('system/workspace-multi', {
    folders: folders.map((f) => `  - \`${f.name}\`: ${f.path}`).join('\n'),
    example: folders[1].name,
  }).trimEnd();
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const agentsMd = input.agentsMd?.trim();
  return `${renderPrompt('system/main', {
    tools: toolsSection(input.tools),
    workspace: workspaceSection(input.workspaceFolders),
    os: input.os,
    date: formatDate(input.date),
    restricted: input.restricted ? renderPrompt('system/restricted') : '',
    plan: input.plan ? renderPrompt('system/plan-mode', { template: renderPrompt('plan/template').trimEnd() }) : '',
    agentsMd: agentsMd ? renderPrompt('system/agents-md', { content: agentsMd }) : '',
  }).trimEnd()}\n`;
}

/**
 * Reads AGENTS.md from each workspace folder (confined like any tool path, so a symlink out of the
 * workspace is not followed), capped at `maxBytes` in total. Undefined when no folder has one.
 */
export async function readAgentsMd(roots: WorkspaceRoots, maxBytes = AGENTS_MD_MAX_BYTES): Promise<string | undefined> {
  const parts: string[] = [];
  let budget = maxBytes;
  const multi = roots.folders.length > 1;
  for (const folder of roots.folders) {
    if (budget <= 0) break;
    let text: string;
    try {
      const target = await resolveInWorkspace(roots, join(folder.path, 'AGENTS.md'));
      if (!(await stat(target.absolute)).isFile()) continue;
      text = await readFile(target.absolute, 'utf8');
    } catch {
      continue;
    }
    text = text.replace(/^\uFEFF/, '').trim();
    if (text === '') continue;
    if (Buffer.byteLength(text) > budget) {
      text = `${Buffer.from(text).subarray(0, budget).toString('utf8').replace(/\uFFFD+$/, '')}\n\n[AGENTS.md cut: only the first ${Math.round(maxBytes / 1024)} KB are included.]`;
      budget = 0;
    } else budget -= Buffer.byteLength(text);
    parts.push(multi ? `From ${folder.name}/AGENTS.md:\n\n${text}` : text);
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
