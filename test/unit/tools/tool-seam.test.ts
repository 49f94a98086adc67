import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTools } from '../../../src/agent/tools/index';
import { defineJsonTool } from '../../../src/agent/tools/json-tool';
import { historyTraits, ToolRegistry } from '../../../src/agent/tools/tool-registry';
import { addFileOpsFromMessage, computeFileLists, createFileOps } from '../../../src/compaction/file-ops';
import { DEFAULT_PRUNE_CONFIG } from '../../../src/compaction/pruning';
import { BUILTIN_HISTORY_TRAITS } from '../../../src/core/tool-history';
import { runTool, textOutput, type AgentTool } from '../../../src/agent/tools/types';

const ctx = () => ({ workspace: { folders: [] }, signal: new AbortController().signal });

function outside(name: string, inputSchema: Record<string, unknown> = { type: 'object' }): AgentTool {
  return defineJsonTool({
    name,
    description: 'from outside',
    inputSchema,
    effect: { kind: 'runs' },
    origin: { kind: 'mcp', server: 's', tool: name },
    execute: async (args) => textOutput(JSON.stringify(args)),
  });
}

test('built-in tools describe their effect', () => {
  const effects = Object.fromEntries(createTools().map((t) => [t.name, t.effect.kind]));
  assert.deepEqual(effects, { read: 'readOnly', write: 'writesFiles', edit: 'writesFiles', bash: 'runs', ls: 'readOnly', find: 'readOnly', grep: 'readOnly' });
  const write = createTools().find((t) => t.name === 'write')!;
  assert.deepEqual(write.effect.kind === 'writesFiles' && write.effect.targets({ path: 'a.txt', content: 'x' }), ['a.txt']);
});

test('a JSON-Schema tool rejects bad arguments with what was wrong, and runs good ones', async () => {
  const tool = outside('add', { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], $schema: 'x' });
  assert.equal('$schema' in tool.parameters, false);
  const bad = await runTool(tool, { a: 'one' }, ctx());
  assert.equal(bad.isError, true);
  assert.match((bad.content[0] as { text: string }).text, /a: must be number/);
  const missing = await runTool(tool, {}, ctx());
  assert.match((missing.content[0] as { text: string }).text, /missing required property "a"/);
  const good = await runTool(tool, { a: 2 }, ctx());
  assert.deepEqual(good, { content: [{ type: 'text', text: '{"a":2}' }], isError: false });
});

test('a schema that is not an object schema, or does not compile, still takes only an object', async () => {
  const odd = outside('odd', { type: 'string' });
  assert.deepEqual(odd.parameters, { type: 'object', properties: {} });
  const broken = outside('broken', { type: 'object', properties: { a: { $ref: '#/nowhere' } } });
  assert.equal((await runTool(broken, { a: 1 }, ctx())).isError, false);
  assert.equal((await runTool(broken, [1] as unknown, ctx())).isError, true);
});

test('the registry is live, keeps built-ins first, and never lets a source take a name', () => {
  const registry = new ToolRegistry(createTools());
  let changes = 0;
  registry.onDidChange(() => changes++);
  registry.set('mcp:a', [outside('bash'), outside('lookup')]);
  registry.set('mcp:b', [outside('lookup')]);
  const names = registry.list().map((t) => t.name);
  assert.deepEqual(names.slice(7), ['bash_2', 'lookup', 'lookup_2']);
  assert.equal(registry.get('bash')!.origin.kind, 'builtin');
  registry.remove('mcp:a');
  assert.deepEqual(registry.list().map((t) => t.name).slice(7), ['lookup']);
  assert.equal(changes, 3);
});

test('history defaults agree with the built-in tools, and a tool gone from the list still counts as it did', () => {
  for (const tool of createTools()) {
    const fromTool = historyTraits(tool);
    const fallback = BUILTIN_HISTORY_TRAITS[tool.name] ?? {};
    assert.equal(Boolean(fromTool.keepOutput), Boolean(fallback.keepOutput), `${tool.name}: keepOutput`);
    const args = { path: 'a.txt', content: 'x', oldText: 'a', newText: 'b', command: 'ls' };
    assert.deepEqual(fromTool.reads?.(args) ?? [], fallback.reads?.(args) ?? [], `${tool.name}: reads`);
    assert.deepEqual(fromTool.writes?.(args) ?? [], fallback.writes?.(args) ?? [], `${tool.name}: writes`);
  }
  const registry = new ToolRegistry(createTools());
  const put = defineJsonTool({
    name: 'seam_put', description: 'x', inputSchema: { type: 'object' }, keepOutput: true,
    effect: { kind: 'writesFiles', targets: (args) => [String(args.file)] },
    origin: { kind: 'mcp', server: 's', tool: 'put' }, execute: async () => textOutput('ok'),
  });
  registry.set('mcp:s', [put]);
  registry.list();
  registry.remove('mcp:s');
  assert.equal(registry.get('seam_put'), undefined);
  assert.equal(registry.wasRemoved('seam_put'), true);
  assert.equal(registry.wasRemoved('never_there'), false);
  const ops = createFileOps();
  const call = (name: string, args: Record<string, unknown>) => ({ type: 'toolCall' as const, id: name, name, arguments: args });
  addFileOpsFromMessage(ops, {
    role: 'assistant', content: [call('seam_put', { file: 'out.txt' }), call('read', { path: 'in.txt' }), call('edit', { path: 'e.txt' }), call('never_there', { path: 'n.txt' })],
    api: 'x', provider: 'x', model: 'x', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'toolUse', timestamp: 0,
  } as never);
  assert.deepEqual(computeFileLists(ops), { readFiles: ['in.txt'], modifiedFiles: ['e.txt', 'out.txt'] });
  assert.equal(DEFAULT_PRUNE_CONFIG.keepsOutput('seam_put'), true, 'its output is kept after it went away');
  assert.equal(DEFAULT_PRUNE_CONFIG.keepsOutput('read'), true);
  assert.equal(DEFAULT_PRUNE_CONFIG.keepsOutput('skill'), true, 'a skill tool from a session written before is kept too');
  assert.equal(DEFAULT_PRUNE_CONFIG.keepsOutput('bash'), false);
  assert.equal(DEFAULT_PRUNE_CONFIG.keepsOutput('never_there'), false);
});
