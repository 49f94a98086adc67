// Hostile MCP servers (test/fixtures/mcp/hostile-server.mjs and a missing command): each gets a clear,
// typed error and nothing else breaks — the other server keeps its tools, the built-in `bash` keeps its
// name, and a call that never answers ends on Stop or at the tool timeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ToolRegistry } from '../../../src/agent/tools/tool-registry';
import { defineTool, runTool, textOutput, type AgentTool, type ToolContext } from '../../../src/agent/tools/types';
import { z } from 'zod';
import { parseServers } from '../../../src/mcp/config';
import { McpServers, type ServerEntry, type ServerStatus } from '../../../src/mcp/servers';
import { settled } from './settled';

const root = join(__dirname, '..', '..', '..');
const hostile = join(root, 'test', 'fixtures', 'mcp', 'hostile-server.mjs');
const builtinBash = defineTool({ name: 'bash', description: 'built-in', argsSchema: z.object({}), effect: { kind: 'runs' }, execute: async () => textOutput('builtin bash') });

function start(servers: Record<string, unknown>) {
  const registry = new ToolRegistry([builtinBash]);
  const logs: string[] = [];
  const mcp = new McpServers({
    tools: registry,
    placeholders: { env: () => undefined, workspaceFolder: () => root, input: async () => undefined },
    log: (server, line) => logs.push(`${server}: ${line}`),
  });
  const parsed = parseServers(servers);
  assert.deepEqual(parsed.problems, []);
  mcp.configure(new Map([...parsed.servers].map(([name, config]) => [name, { config, source: 'user' } as ServerEntry])));
  return { registry, mcp, logs };
}

const ctx = (signal = new AbortController().signal): ToolContext => ({ workspace: { folders: [{ name: 'w', path: root }] }, signal });
const textOf = (o: { content: { type: string; text?: string }[] }) => o.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
function tool(registry: ToolRegistry, name: string): AgentTool {
  const found = registry.get(name);
  assert.ok(found, `${name} registered (have ${registry.list().map((t) => t.name).join(', ')})`);
  return found;
}

test('a server that never answers, one that exits at start, and a missing command each fail clearly without blocking the others', async () => {
  const { registry, mcp } = start({
    hang: { command: process.execPath, args: [hostile, 'hang'], startupTimeout: 1 },
    dies: { command: process.execPath, args: [hostile, 'exit'] },
    missing: { command: 'arbor-no-such-mcp-server-command' },
    bash: { command: process.execPath, args: [hostile, 'tools'] },
  });
  try {
    const good = await settled(mcp, 'bash');
    assert.equal(good.state, 'running', good.failureText);
    const dies = await settled(mcp, 'dies');
    assert.equal(dies.state, 'failed');
    assert.deepEqual(dies.failure && { kind: dies.failure.kind, code: (dies.failure as { code?: number }).code }, { kind: 'exited', code: 3 });
    assert.match(dies.failureText ?? '', /exited with code 3[\s\S]*HOSTILE_TOKEN is not set/);
    const missing = await settled(mcp, 'missing');
    assert.equal(missing.failure?.kind, 'commandNotFound');
    assert.match(missing.failureText ?? '', /"arbor-no-such-mcp-server-command" was not found/);
    const hang = await settled(mcp, 'hang');
    assert.equal(hang.failure?.kind, 'timeout');
    assert.match(hang.failureText ?? '', /did not answer within 1 s/);
    assert.equal(registry.list().filter((t) => t.origin.kind === 'mcp' && t.origin.server !== 'bash').length, 0, 'failed servers offer no tools');
    assert.equal((await runTool(tool(registry, 'bash'), {}, ctx())).content[0].type, 'text');
    assert.equal(textOf(await runTool(tool(registry, 'bash'), {}, ctx())), 'builtin bash', 'the built-in bash keeps its name');
  } finally {
    await mcp.dispose();
  }
});

test('names, descriptions and schemas from a hostile server: no shadowing, capped, and every tool asks', async () => {
  const { registry, mcp } = start({ bash: { command: process.execPath, args: [hostile, 'tools'] } });
  try {
    assert.equal((await settled(mcp, 'bash')).state, 'running');
    const names = registry.list().map((t) => t.name);
    assert.equal(names.filter((n) => n === 'bash').length, 1);
    assert.equal(registry.get('bash')?.origin.kind, 'builtin');
    assert.ok(names.includes('bash_bash') && names.includes('bash_x'), names.join(', '));
    for (const t of registry.list().filter((t) => t.origin.kind === 'mcp')) {
      assert.match(t.name, /^[A-Za-z0-9_-]{1,64}$/);
      assert.equal(t.effect.kind, 'runs', `${t.name}: a readOnlyHint is not trusted unless the user says so`);
      assert.ok(t.description.length <= 2200, `${t.name}: description capped (${t.description.length})`);
      assert.ok(t.description.startsWith('[MCP server "bash"'), 'the server is named before its own text');
    }
    const huge = tool(registry, 'bash_huge_schema');
    assert.ok(JSON.stringify(huge.parameters).length < 1000, 'an oversized schema is replaced by an open object');
    assert.match(huge.description, /schema was too large/);
  } finally {
    await mcp.dispose();
  }
});

test('a 50 MB result closes that connection with a clear error; markup stays literal text; a call that never answers ends', async () => {
  const { registry, mcp } = start({ h: { command: process.execPath, args: [hostile, 'tools'], toolTimeout: 1 }, b: { command: process.execPath, args: [hostile, 'tools'] } });
  try {
    assert.equal((await settled(mcp, 'h')).state, 'running');
    assert.equal((await settled(mcp, 'b')).state, 'running');
    const markup = await runTool(tool(registry, 'h_markup'), {}, ctx());
    const text = textOf(markup);
    assert.ok(text.includes('<script>window.pwned = 1</script><img src=x onerror="window.pwned=2">'), 'markup kept verbatim as text');
    assert.ok(text.length < 60 * 1024, `result capped (${text.length})`);
    assert.match(text, /cut by Arbor/, 'the embedded resource was cut');
    assert.ok(!markup.content.some((c) => c.type === 'image'), 'an SVG is not passed on as an image');
    assert.match(text, /image of type image\/svg\+xml/);
    assert.match(text, /\[Audio \(audio\/wav\)/);
    const many = textOf(await runTool(tool(registry, 'h_many'), {}, ctx()));
    assert.ok(many.length < 52 * 1024, `total capped (${many.length})`);
    const never = await runTool(tool(registry, 'h_never'), {}, ctx());
    assert.equal(never.isError, true);
    assert.match(textOf(never), /no answer within 1 s/);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const stopped = await runTool(tool(registry, 'h_never'), {}, ctx(stop.signal));
    assert.match(textOf(stopped), /cancelled|aborted/);
    const big = await runTool(tool(registry, 'b_big'), {}, ctx());
    assert.equal(big.isError, true);
    assert.match(textOf(big), /closed the connection \(ReadBuffer exceeded maximum size/);
    const status = await settled(mcp, 'b');
    assert.equal(status.state, 'failed', 'the server that flooded the connection is marked failed');
    assert.equal(registry.list().filter((t) => t.origin.kind === 'mcp' && t.origin.server === 'b').length, 0, 'its tools are withdrawn');
    assert.ok(registry.get('h_markup') && registry.get('bash')?.origin.kind === 'builtin', 'the other server and the built-in stay');
    const again = await mcp.restart('b');
    assert.equal(again?.state, 'running', 'restart brings it back');
  } finally {
    await mcp.dispose();
  }
});

test('over Streamable HTTP: a 50 MB answer is cut off by the byte cap with a clear error; the server keeps serving', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [hostile, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`the HTTP server exited (${code})`)));
    });
    const { registry, mcp } = start({ web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } });
    try {
      const status = await settled(mcp, 'web');
      assert.equal(status.state, 'running', status.failureText);
      const markup = await runTool(tool(registry, 'web_markup'), {}, ctx());
      assert.ok(textOf(markup).includes('<script>window.pwned = 1</script>'));
      const big = await runTool(tool(registry, 'web_big'), {}, ctx());
      assert.equal(big.isError, true);
      assert.match(textOf(big), /larger than 16 MB; Arbor stopped reading it/);
      const after = await runTool(tool(registry, 'web_markup'), {}, ctx());
      assert.equal(after.isError, false, 'the next call works');
    } finally {
      await mcp.dispose();
    }
  } finally {
    child.kill();
  }
});

test("a repository's server gets no tool named under a user's server, even one that is not running; its other tools stay", async () => {
  const registry = new ToolRegistry([builtinBash]);
  const logs: string[] = [];
  const mcp = new McpServers({ tools: registry, placeholders: { env: () => undefined, workspaceFolder: () => root, input: async () => undefined }, log: (server, line) => logs.push(`${server}: ${line}`) });
  const run = { command: process.execPath, args: [hostile, 'tools'] };
  mcp.configure(new Map<string, ServerEntry>([
    ['github', { config: { type: 'stdio', ...run, enabled: false }, source: 'user' }],
    ['github_create', { config: { type: 'stdio', ...run }, source: 'workspace', scope: 'k1' }],
    ['repo', { config: { type: 'stdio', ...run }, source: 'workspace', scope: 'k2' }],
  ]));
  try {
    assert.equal((await settled(mcp, 'github_create')).state, 'running');
    assert.equal((await settled(mcp, 'repo')).state, 'running');
    const names = registry.list().map((t) => t.name);
    assert.deepEqual(names.filter((n) => n.startsWith('github')), [], names.join(', '));
    assert.ok(names.includes('repo_x'), names.join(', '));
    assert.ok(logs.some((l) => /^github_create: tool github_create_x not offered: its name is under the user's server "github"/.test(l)), logs.join('\n'));
  } finally {
    await mcp.dispose();
  }
});
