import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createEditorTools } from '../../../src/agent/tools/editor/tools';
import { findSymbol } from '../../../src/agent/tools/editor/position';
import type { AgentTool } from '../../../src/agent/tools/types';
import { at, diag, FakeKnowledge } from './editor-fake';
import { call, ctxFor, makeSandbox, textOf } from './helpers';

const SOURCE = 'import { total } from "./lib";\n\nexport function report(items: number[]) {\n  const sum = total(items);\n  return `sum: ${sum} (subtotal ${sum})`;\n}\n';

async function setup() {
  const box = await makeSandbox({ 'src/app.ts': SOURCE, 'src/lib.ts': 'export function total(xs: number[]) {\n  return xs.reduce((a, b) => a + b, 0);\n}\n' });
  const knowledge = new FakeKnowledge();
  const tools = Object.fromEntries(createEditorTools(knowledge).map((t) => [t.name, t])) as Record<string, AgentTool>;
  return { ...box, knowledge, tools, ctx: ctxFor(box.workspace) };
}

test('the editor tools are read-only built-ins', async () => {
  const { tools } = await setup();
  assert.deepEqual(Object.keys(tools), ['diagnostics', 'definition', 'references', 'symbols']);
  for (const tool of Object.values(tools)) {
    assert.equal(tool.effect.kind, 'readOnly');
    assert.deepEqual(tool.origin, { kind: 'builtin' });
  }
});

test('diagnostics: errors first, workspace-relative, files outside the workspace left out, warnings by default', async () => {
  const { tools, knowledge, ctx, ws, outside } = await setup();
  knowledge.diagnosticsList = [
    diag(join(ws, 'src/lib.ts'), 1, 'Unused variable', 'warning'),
    diag(join(ws, 'src/app.ts'), 3, "Type 'string' is not assignable to type 'number'.", 'error', '2322'),
    diag(join(ws, 'src/app.ts'), 0, 'Could be shorter', 'hint'),
    diag(join(outside, 'secret.ts'), 0, 'SECRET PROBLEM'),
  ];
  const out = await call(tools.diagnostics!, {}, ctx);
  assert.equal(out.isError, false);
  assert.equal(
    textOf(out),
    "1 error, 1 warning in 2 files of the workspace:\nsrc/app.ts:4:3: error: Type 'string' is not assignable to type 'number'. [ts 2322]\nsrc/lib.ts:2:3: warning: Unused variable [ts]",
  );
  const hints = textOf(await call(tools.diagnostics!, { severity: 'hint' }, ctx));
  assert.match(hints, /src\/app\.ts:1:3: hint: Could be shorter/);
  assert.doesNotMatch(hints, /SECRET/);
});

test('diagnostics of one file asks the host for that file; a file with none says so', async () => {
  const { tools, knowledge, ctx, ws } = await setup();
  knowledge.diagnosticsList = [diag(join(ws, 'src/app.ts'), 3, 'Broken')];
  assert.match(textOf(await call(tools.diagnostics!, { path: 'src/app.ts' }, ctx)), /^1 error in 1 file:\nsrc\/app\.ts:4:3: error: Broken/);
  assert.deepEqual(knowledge.calls.at(-1), { method: 'diagnostics', path: join(ws, 'src/app.ts') });
  assert.match(textOf(await call(tools.diagnostics!, { path: 'src/lib.ts' }, ctx)), /^No problems reported in src\/lib\.ts/);
});

test('hostile input: a path outside the workspace never reaches the host', async () => {
  const { tools, knowledge, ctx, outside } = await setup();
  for (const [name, args] of [
    ['diagnostics', { path: '../outside/secret.txt' }],
    ['definition', { path: join(outside, 'secret.txt'), symbol: 'SECRET' }],
    ['references', { path: '../outside/secret.txt', line: 1, column: 1 }],
    ['symbols', { path: '/etc/passwd' }],
  ] as const) {
    const out = await call(tools[name]!, args, ctx);
    assert.equal(out.isError, true, name);
    assert.match(textOf(out), /outside the workspace/, name);
  }
  assert.deepEqual(knowledge.calls, []);
});

test('a huge result list is capped at the limit and says how many were left out; a hostile message is cut', async () => {
  const { tools, knowledge, ctx, ws } = await setup();
  const file = join(ws, 'src/app.ts');
  knowledge.diagnosticsList = Array.from({ length: 50_000 }, (_, i) => diag(file, i % 6, `problem ${i} ${'x'.repeat(i === 0 ? 100_000 : 0)}`));
  const out = textOf(await call(tools.diagnostics!, {}, ctx));
  const lines = out.split('\n');
  assert.equal(lines.length, 1 + 100 + 1);
  assert.equal(lines.at(-1), '… 49900 more not shown (raise `limit` to see more).');
  assert.ok(out.length < 20_000, `capped output, got ${out.length} characters`);
  knowledge.referenceList = Array.from({ length: 20_000 }, (_, i) => ({ path: file, range: at(i, 0) }));
  const refs = textOf(await call(tools.references!, { path: 'src/app.ts', symbol: 'sum', limit: 1_000_000 }, ctx));
  assert.equal(refs.split('\n').at(-1), '… 15000 more not shown (raise `limit` to see more).', 'a requested limit is capped by maxResultLimit');
  assert.ok(Buffer.byteLength(refs) <= 50 * 1024 + 200, `and the text by the 50 KB output cap, got ${refs.length} characters`);
  assert.match(refs, /\[Output cut at 51200 bytes after \d+ of 5000 results/);
});

test('definition: a symbol on a line is found by name; the result shows the line', async () => {
  const { tools, knowledge, ctx, ws } = await setup();
  knowledge.definitions = [{ path: join(ws, 'src/lib.ts'), range: at(0, 16, 5) }, { path: join(ws, 'src/lib.ts'), range: at(0, 16, 5) }];
  const out = await call(tools.definition!, { path: 'src/app.ts', line: 4, symbol: 'total' }, ctx);
  assert.deepEqual(knowledge.calls.at(-1), { method: 'definition', path: join(ws, 'src/app.ts'), position: { line: 3, character: 14 } });
  assert.equal(textOf(out), 'Definition of `total` (src/app.ts:4:15):\nsrc/lib.ts:1:17: export function total(xs: number[]) {');
});

test('positions: symbol alone, line and column, whole words before substrings, clear errors', async () => {
  const { tools, knowledge, ctx, ws } = await setup();
  await call(tools.references!, { path: 'src/app.ts', symbol: 'sum' }, ctx);
  assert.deepEqual(knowledge.calls.at(-1)!.position, { line: 3, character: 8 }, 'first whole-word `sum`, not the one inside `subtotal`');
  await call(tools.references!, { path: 'src/app.ts', line: 3, column: 17 }, ctx);
  assert.deepEqual(knowledge.calls.at(-1)!.position, { line: 2, character: 16 });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ path: 'src/app.ts', line: 2, symbol: 'total' }, /"total" does not occur on line 2 of src\/app\.ts/],
    [{ path: 'src/app.ts', symbol: 'nowhere' }, /"nowhere" does not occur in src\/app\.ts/],
    [{ path: 'src/app.ts', line: 99, symbol: 'total' }, /Line 99 is past the end of src\/app\.ts \(7 lines\)/],
    [{ path: 'src/app.ts', line: 1, column: 500 }, /Column 500 is past the end of line 1/],
    [{ path: 'src/app.ts', line: 1 }, /give `symbol`/],
    [{ path: 'src/missing.ts', symbol: 'x' }, /File not found or not readable: src\/missing\.ts/],
  ];
  const before = knowledge.calls.length;
  for (const [args, message] of cases) {
    const out = await call(tools.definition!, args, ctx);
    assert.equal(out.isError, true, JSON.stringify(args));
    assert.match(textOf(out), message);
  }
  assert.equal(knowledge.calls.length, before, 'no bad position reaches the host');
  assert.equal(findSymbol('a$b $b', '$b'), 4);
  assert.equal(findSymbol('naïveté', 'té', true), undefined);
  void ws;
});

test('references list each place with its line; none says so', async () => {
  const { tools, knowledge, ctx, ws } = await setup();
  const app = join(ws, 'src/app.ts');
  knowledge.referenceList = [{ path: app, range: at(3, 8, 3) }, { path: app, range: at(4, 17, 3) }];
  assert.equal(
    textOf(await call(tools.references!, { path: 'src/app.ts', symbol: 'sum' }, ctx)),
    '2 references to `sum` (src/app.ts:4:9):\nsrc/app.ts:4:9: const sum = total(items);\nsrc/app.ts:5:18: return `sum: ${sum} (subtotal ${sum})`;',
  );
  knowledge.referenceList = [];
  assert.equal(textOf(await call(tools.references!, { path: 'src/app.ts', symbol: 'sum' }, ctx)), 'No references found for `sum` (src/app.ts:4:9).');
});

test('symbols: a file outline nested, a workspace query, and one of the two required', async () => {
  const { tools, knowledge, ctx, ws } = await setup();
  const app = join(ws, 'src/app.ts');
  knowledge.outline = [{ name: 'report', kind: 'Function', path: app, range: { start: { line: 2, character: 0 }, end: { line: 5, character: 1 } }, children: [{ name: 'sum', kind: 'Variable', path: app, range: at(3, 8, 3) }] }];
  assert.equal(textOf(await call(tools.symbols!, { path: 'src/app.ts' }, ctx)), 'Symbols in src/app.ts:\nFunction report (lines 3-6)\n  Variable sum (line 4)');
  knowledge.workspaceSymbolList = [{ name: 'total', kind: 'Function', path: join(ws, 'src/lib.ts'), range: at(0, 16, 5), containerName: 'lib' }];
  assert.equal(textOf(await call(tools.symbols!, { query: 'tot' }, ctx)), 'Symbols matching "tot":\nFunction total (line 1) — src/lib.ts:1:17 (in lib)');
  const neither = await call(tools.symbols!, {}, ctx);
  assert.equal(neither.isError, true);
  assert.match(textOf(neither), /give `path`/);
  assert.match(textOf(await call(tools.symbols!, { path: 'src/none.ts' }, ctx)), /File not found/);
});

test('a location outside the workspace is shown by its absolute path, its text never quoted (also through a symlink)', async () => {
  const { tools, knowledge, ctx, ws, outside } = await setup();
  const { symlink } = await import('node:fs/promises');
  await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  knowledge.definitions = [{ path: join(outside, 'secret.txt'), range: at(0, 0) }, { path: join(ws, 'link.txt'), range: at(0, 0) }];
  const out = textOf(await call(tools.definition!, { path: 'src/app.ts', symbol: 'total' }, ctx));
  assert.equal(out, `Definition of \`total\` (src/app.ts:1:10):\n${join(outside, 'secret.txt')}:1:1\nlink.txt:1:1`);
  assert.doesNotMatch(out, /TOP SECRET/);
});
