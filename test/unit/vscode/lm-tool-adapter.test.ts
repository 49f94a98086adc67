// VS Code's language-model tools as Arbor tools (src/vscode/lm-tool-adapter.ts): opt-in by name or tag,
// provider-safe names, `runs` unless the user trusts them as read-only, JSON Schema checked, and result
// parts (text, JSON, images, prompt-tsx trees) mapped with caps against hostile output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTool } from '../../../src/agent/tools/types';
import { adaptLmTools, arborName, chosenList, offeredLmTools, offeredSignature, resultOutput, type LmInvoke, type LmToolInfo } from '../../../src/vscode/lm-tool-adapter';

const ctx = () => ({ workspace: { folders: [] }, signal: new AbortController().signal });
const info = (name: string, tags: string[] = [], inputSchema?: object): LmToolInfo => ({ name, description: `the ${name} tool`, tags, inputSchema });
const data = (mimeType: string, bytes: Uint8Array | string) => ({ mimeType, data: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes });

test('only the tools the user listed (by name or tag) are offered; listed as read-only they do not ask', () => {
  const infos = [info('search_web', ['net']), info('mcp_github_create_issue', ['mcp', 'github']), info('format.doc')];
  const none: LmInvoke = async () => ({ content: [] });
  assert.deepEqual(adaptLmTools(infos, { enabled: [], readOnly: [] }, none), []);
  const tools = adaptLmTools(infos, { enabled: ['github', 'format.doc'], readOnly: ['format.doc'] }, none);
  assert.deepEqual(tools.map((t) => [t.name, t.effect.kind, t.origin]), [
    ['mcp_github_create_issue', 'runs', { kind: 'vscode', tool: 'mcp_github_create_issue' }],
    ['format_doc', 'readOnly', { kind: 'vscode', tool: 'format.doc' }],
  ]);
  assert.equal(arborName('a'.repeat(100)).length, 64);
  assert.equal(arborName('ünï/cødé'), '_n__c_d_');
  assert.equal(arborName(''), 'vscode_tool');
});

test('arguments are checked against the tool\'s schema before it is invoked; the invoke gets the tool\'s own name and the signal', async () => {
  const calls: [string, Record<string, unknown>, AbortSignal][] = [];
  const invoke: LmInvoke = async (name, input, signal) => {
    calls.push([name, input, signal]);
    return { content: [{ value: 'ok' }] };
  };
  const [tool] = adaptLmTools([info('my.tool', [], { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] })], { enabled: ['my.tool'], readOnly: [] }, invoke);
  const bad = await runTool(tool!, { n: 'x' }, ctx());
  assert.equal(bad.isError, true);
  assert.equal(calls.length, 0);
  const context = ctx();
  const good = await runTool(tool!, { n: 2 }, context);
  assert.deepEqual(good.content, [{ type: 'text', text: 'ok' }]);
  assert.deepEqual(calls.map(([n, i]) => [n, i]), [['my.tool', { n: 2 }]]);
  assert.equal(calls[0]![2], context.signal);
});

test('a failing tool becomes an error result the model reads', async () => {
  const [tool] = adaptLmTools([info('boom')], { enabled: ['boom'], readOnly: [] }, async () => {
    throw new Error('extension crashed');
  });
  const out = await runTool(tool!, {}, ctx());
  assert.equal(out.isError, true);
  assert.match((out.content[0] as { text: string }).text, /extension crashed/);
});

test('result parts: text, JSON and text data, images, prompt-tsx trees; binary and oversized images are described, not sent', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const out = resultOutput(
    [
      { value: 'plain' },
      data('text/x-json', '{"a":1}'),
      data('image/png', png),
      data('application/octet-stream', new Uint8Array(10)),
      data('image/png', new Uint8Array(6 * 1024 * 1024)),
      { value: { node: { type: 1, children: [{ type: 2, text: 'from ' }, { type: 2, text: 'tsx' }] } } },
      null,
      42,
    ],
    ctx(),
  );
  assert.equal(out.content[0]!.type, 'text');
  assert.equal(
    (out.content[0] as { text: string }).text,
    'plain\n{"a":1}\n[binary data: application/octet-stream, 10 bytes, not shown]\n[image too large or of an unsupported type: image/png, 6291456 bytes, not shown]\nfrom tsx',
  );
  assert.deepEqual(out.content.slice(1), [{ type: 'image', mimeType: 'image/png', data: Buffer.from(png).toString('base64') }]);
  assert.deepEqual(resultOutput([], ctx()).content, [{ type: 'text', text: '(no output)' }]);
});

test('hostile output: megabytes of text are cut to the output cap, a deep or cyclic tsx tree does not hang', () => {
  const out = resultOutput([{ value: 'x'.repeat(5_000_000) }], ctx());
  const text = (out.content[0] as { text: string }).text;
  assert.ok(text.length < 60_000, `cut, got ${text.length}`);
  assert.match(text, /\[output cut: 5000000 bytes, the first 51200 shown\]$/);
  const cyclic: Record<string, unknown> = { text: undefined };
  cyclic.children = [cyclic];
  let deep: Record<string, unknown> = { text: 'bottom' };
  for (let i = 0; i < 10_000; i++) deep = { children: [deep] };
  assert.deepEqual(resultOutput([{ value: cyclic }, { value: deep }], ctx()).content, [{ type: 'text', text: '(no output)' }]);
});

test('the chooser keeps tags and tools not registered now, and sets the checked names', () => {
  const infos = [info('a'), info('b'), info('c')];
  assert.deepEqual(chosenList(['a', 'some-tag', 'gone_tool'], infos, ['b', 'c']), ['some-tag', 'gone_tool', 'b', 'c']);
  assert.deepEqual(chosenList(['a'], infos, []), []);
});

test('the poll\'s signature reads only the offered tools\' descriptions and schemas, and changes with them and the choice', () => {
  let reads = 0;
  const counted = (name: string, tags: string[] = []): LmToolInfo => ({
    name,
    tags,
    get description() {
      reads++;
      return `${name} tool`;
    },
    get inputSchema() {
      reads++;
      return { type: 'object' };
    },
  });
  const infos = [...Array.from({ length: 50 }, (_, i) => counted(`other_${i}`)), counted('wanted'), counted('tagged', ['mine'])];
  const choice = { enabled: ['wanted', 'mine'], readOnly: [] };
  const offered = offeredLmTools(infos, choice.enabled);
  assert.deepEqual(offered.map((i) => i.name), ['wanted', 'tagged']);
  const first = offeredSignature(offered, choice);
  assert.equal(reads, 4, 'description and schema of the two offered tools only');
  assert.equal(offeredSignature(offeredLmTools(infos, choice.enabled), choice), first, 'the same tools give the same signature');
  assert.notEqual(offeredSignature(offered, { ...choice, readOnly: ['wanted'] }), first, 'a changed choice changes it');
  const changed = [{ name: 'wanted', tags: [], description: 'new text', inputSchema: { type: 'object' } }, offered[1]!];
  assert.notEqual(offeredSignature(changed, choice), first, 'a changed description changes it');
});
