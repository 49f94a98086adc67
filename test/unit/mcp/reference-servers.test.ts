// Arbor's MCP client against two servers nobody here wrote, from npm: the reference "everything" server
// (echo, sum, an image, progress, cancellation, resource links, structured content, list_changed, logs)
// and the reference filesystem server on a temp folder (read and write), both over stdio, through the
// same McpServers → ToolRegistry → runTool path the agent uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '../../../src/agent/tools/tool-registry';
import { runTool, type AgentTool, type ToolContext } from '../../../src/agent/tools/types';
import { parseServers } from '../../../src/mcp/config';
import { McpServers, type ServerEntry, type ServerStatus } from '../../../src/mcp/servers';
import type { McpResultDetails } from '../../../src/mcp/results';
import { settled } from './settled';

const root = join(__dirname, '..', '..', '..');
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const filesystem = join(root, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

function harness(servers: Record<string, unknown>) {
  const registry = new ToolRegistry([]);
  const logs: string[] = [];
  const mcp = new McpServers({
    tools: registry,
    placeholders: { env: (n) => process.env[n], workspaceFolder: () => root, input: async () => undefined },
    log: (server, line) => logs.push(`${server}: ${line}`),
  });
  const parsed = parseServers(servers);
  assert.deepEqual(parsed.problems, []);
  mcp.configure(new Map([...parsed.servers].map(([name, config]) => [name, { config, source: 'user' } as ServerEntry])));
  return { registry, mcp, logs };
}

function ctx(signal = new AbortController().signal, updates: string[] = []): ToolContext {
  return { workspace: { folders: [{ name: 'w', path: root }] }, signal, onUpdate: (t) => updates.push(t) };
}

function tool(registry: ToolRegistry, name: string): AgentTool {
  const found = registry.get(name);
  assert.ok(found, `${name} is registered (have: ${registry.list().map((t) => t.name).join(', ')})`);
  return found;
}

function text(output: { content: { type: string; text?: string }[] }): string {
  return output.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

test('server-everything over stdio: tools registered with prefix, origin and runs effect; echo, sum, image, links, structured', async () => {
  const { registry, mcp, logs } = harness({ ev: { command: process.execPath, args: [everything, 'stdio'] } });
  try {
    const status = await settled(mcp, 'ev');
    assert.equal(status.state, 'running', status.failureText);
    const echo = tool(registry, 'ev_echo');
    assert.deepEqual(echo.origin, { kind: 'mcp', server: 'ev', tool: 'echo' });
    assert.equal(echo.effect.kind, 'runs', 'readOnlyHint does not lower the approval unless the user trusts it');
    assert.match(echo.description, /^\[MCP server "ev", tool "echo"\]/);
    const echoed = await runTool(echo, { message: 'hello <script>alert(1)</script>' }, ctx());
    assert.equal(echoed.isError, false);
    assert.match(text(echoed), /hello <script>alert\(1\)<\/script>/, 'markup stays text, verbatim');
    const sum = await runTool(tool(registry, 'ev_get-sum'), { a: 2, b: 40 }, ctx());
    assert.match(text(sum), /42/);
    const bad = await runTool(tool(registry, 'ev_get-sum'), { a: 'two' }, ctx());
    assert.equal(bad.isError, true, 'bad arguments are reported to the model before the server sees them');
    const image = await runTool(tool(registry, 'ev_get-tiny-image'), {}, ctx());
    assert.ok(image.content.some((c) => c.type === 'image' && c.mimeType === 'image/png' && c.data.length > 100), 'the image comes back as ImageContent');
    const links = await runTool(tool(registry, 'ev_get-resource-links'), { count: 2 }, ctx());
    assert.equal((links.details as McpResultDetails).mcp.links.length, 2);
    assert.match(text(links), /Resource link: \S+/);
    const structured = await runTool(tool(registry, 'ev_get-structured-content'), { location: 'Chicago' }, ctx());
    assert.equal(structured.isError, false);
    assert.match(text(structured), /temperature|weather|conditions/i);
    assert.ok(logs.some((l) => l.includes('stderr: Starting default (STDIO) server')), 'stderr lines reach the log');
  } finally {
    await mcp.dispose();
  }
  assert.equal(registry.list().length, 0, 'disposing removes the server\'s tools');
});

test('server-everything: notifications/tools/list_changed re-lists; progress reaches onUpdate; Stop cancels the call', async () => {
  const { registry, mcp } = harness({ ev: { command: process.execPath, args: [everything, 'stdio'], readOnlyTools: ['echo'] } });
  try {
    await settled(mcp, 'ev');
    for (let i = 0; i < 100 && !registry.get('ev_simulate-research-query'); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(registry.get('ev_simulate-research-query'), 'the tool the server adds after initialize appears (list_changed)');
    assert.equal(tool(registry, 'ev_echo').effect.kind, 'readOnly', 'the user listed echo as read-only');
    const updates: string[] = [];
    const done = await runTool(tool(registry, 'ev_trigger-long-running-operation'), { duration: 1, steps: 3 }, ctx(undefined, updates));
    assert.equal(done.isError, false, text(done));
    assert.ok(updates.some((u) => /3\/3|2\/3/.test(u)), `progress updates: ${updates.join(' | ')}`);
    const stop = new AbortController();
    const started = Date.now();
    const cancelled = runTool(tool(registry, 'ev_trigger-long-running-operation'), { duration: 30, steps: 30 }, ctx(stop.signal));
    setTimeout(() => stop.abort(), 300);
    const result = await cancelled;
    assert.equal(result.isError, true);
    assert.match(text(result), /cancelled|aborted/);
    assert.ok(Date.now() - started < 20_000, 'the 30 s call ended on Stop');
    const after = await runTool(tool(registry, 'ev_echo'), { message: 'still alive' }, ctx());
    assert.match(text(after), /still alive/, 'the server keeps serving after a cancelled call');
  } finally {
    await mcp.dispose();
  }
});

test('server-filesystem on a temp folder: read and write through its tools; disabledTools hides one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-mcp-fs-'));
  writeFileSync(join(dir, 'note.txt'), 'written by the test\n');
  const { registry, mcp } = harness({ fs: { command: process.execPath, args: [filesystem, dir], disabledTools: ['move_file'] } });
  try {
    const status = await settled(mcp, 'fs');
    assert.equal(status.state, 'running', status.failureText);
    assert.equal(registry.get('fs_move_file'), undefined, 'a disabled tool is not offered');
    const read = await runTool(tool(registry, 'fs_read_text_file'), { path: join(dir, 'note.txt') }, ctx());
    assert.match(text(read), /written by the test/);
    const write = await runTool(tool(registry, 'fs_write_file'), { path: join(dir, 'new.txt'), content: 'from arbor' }, ctx());
    assert.equal(write.isError, false, text(write));
    assert.equal(readFileSync(join(dir, 'new.txt'), 'utf8'), 'from arbor');
    const outside = await runTool(tool(registry, 'fs_read_text_file'), { path: '/etc/hostname' }, ctx());
    assert.equal(outside.isError, true, 'the server\'s own refusal comes back as an error result');
  } finally {
    await mcp.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('server-everything over the older HTTP+SSE transport: an http server falls back to SSE (the SDK\'s documented fallback); type sse connects directly', async () => {
  const { spawn } = await import('node:child_process');
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [everything, 'sse'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => d.toString().includes('running on port') && resolve());
      child.once('exit', (code) => reject(new Error(`server-everything sse exited (${code})`)));
    });
    const { registry, mcp, logs } = harness({
      fallback: { type: 'http', url: `http://127.0.0.1:${port}/sse` },
      direct: { type: 'sse', url: `http://127.0.0.1:${port}/sse` },
    });
    try {
      for (const name of ['fallback', 'direct']) {
        const status = await settled(mcp, name);
        assert.equal(status.state, 'running', `${name}: ${status.failureText}`);
        const echoed = await runTool(tool(registry, `${name}_echo`), { message: `via ${name}` }, ctx());
        assert.match(text(echoed), new RegExp(`Echo: via ${name}`));
      }
      assert.ok(logs.some((l) => l.startsWith('fallback: Streamable HTTP refused') && l.includes('trying the older SSE transport')), logs.join('\n'));
    } finally {
      await mcp.dispose();
    }
  } finally {
    child.kill();
  }
});
