import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createTools, toolDefinitions } from '../../../src/agent/tools/index';
import { defineTool, runTool } from '../../../src/agent/tools/types';
import { ctxFor, makeSandbox, textOf, toolsByName } from './helpers';

test('createTools returns the seven pi-named tools with JSON schemas', () => {
  const tools = createTools();
  assert.deepEqual(tools.map((t) => t.name), ['read', 'write', 'edit', 'bash', 'ls', 'find', 'grep']);
  assert.deepEqual(tools.filter((t) => t.effect.kind !== 'readOnly').map((t) => t.name), ['write', 'edit', 'bash']);
  const defs = toolDefinitions(tools);
  const read = defs.find((d) => d.name === 'read')!;
  assert.deepEqual(read.parameters.required, ['path']);
  assert.deepEqual(Object.keys(read.parameters.properties as object), ['path', 'offset', 'limit']);
  assert.equal(read.parameters.$schema, undefined);
  assert.doesNotMatch(JSON.stringify(defs), /9007199254740991|\{\{/);
  const props = (name: string) => Object.keys(defs.find((d) => d.name === name)!.parameters.properties as object);
  assert.deepEqual(props('edit'), ['path', 'oldText', 'newText']);
  assert.deepEqual(props('bash'), ['command', 'timeout']);
  assert.deepEqual(props('grep'), ['pattern', 'path', 'glob', 'ignoreCase', 'literal', 'context', 'limit']);
  for (const d of defs) assert.ok(d.description.length > 40, d.name);
});

test('invalid arguments become an error result naming the problem', async () => {
  const { workspace } = await makeSandbox();
  const { read, edit } = toolsByName();
  const out = await runTool(read, { path: 42, offset: 'ten' }, ctxFor(workspace));
  assert.equal(out.isError, true);
  assert.match(textOf(out), /Invalid arguments for tool "read":\n- path: .*expected string.*\n- offset: .*expected number/);
  assert.match(textOf(out), /Expected arguments \(JSON Schema\)/);
  assert.match(textOf(await runTool(edit, { path: 'a', oldText: '', newText: 'x' }, ctxFor(workspace))), /oldText must not be empty/);
  assert.match(textOf(await runTool(read, null, ctxFor(workspace))), /path/);
  assert.match(textOf(await runTool(read, 'read a.txt', ctxFor(workspace))), /Invalid arguments/);
});

test('runTool turns thrown errors, bad results and aborts into error results', async () => {
  const { workspace } = await makeSandbox();
  const thrower = defineTool({ name: 'boom', description: 'd', argsSchema: z.object({}), effect: { kind: 'readOnly' }, execute: async () => { throw new Error('kaput'); } });
  assert.deepEqual(await runTool(thrower, {}, ctxFor(workspace)), { content: [{ type: 'text', text: 'The boom tool failed: kaput' }], isError: true });
  const liar = defineTool({ name: 'liar', description: 'd', argsSchema: z.object({}), effect: { kind: 'readOnly' }, execute: async () => 'nope' as never });
  assert.match(textOf(await runTool(liar, {}, ctxFor(workspace))), /returned no result/);
  const pre = new AbortController();
  pre.abort();
  let ran = false;
  const flag = defineTool({ name: 'flag', description: 'd', argsSchema: z.object({}), effect: { kind: 'readOnly' }, execute: async () => { ran = true; return { content: [], isError: false }; } });
  assert.match(textOf(await runTool(flag, {}, ctxFor(workspace, { signal: pre.signal }))), /aborted/);
  assert.equal(ran, false);
  const hang = defineTool({ name: 'hang', description: 'd', argsSchema: z.object({}), effect: { kind: 'readOnly' }, execute: () => new Promise(() => {}) });
  const c = new AbortController();
  const pending = runTool(hang, {}, ctxFor(workspace, { signal: c.signal }));
  setTimeout(() => c.abort(), 20);
  const out = await pending;
  assert.equal(out.isError, true);
  assert.match(textOf(out), /hang tool call was aborted/);
});
