// SessionStore: tree operations, labels, names, leaf memory, persistence, round-trip, rewrite, migration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { SessionFileError, UnknownEntryError } from '../../../src/session/errors';
import { InMemoryLeafMemory } from '../../../src/session/leaf-memory';
import { assistant, header, jsonl, tempDir, texts, user } from './helpers';

async function newStore(dir: string) {
  return SessionStore.create({ dir, cwd: '/work' });
}

test('appends chain under the leaf, ids are 8 hex chars, reload gives the same tree', async (t) => {
  const dir = tempDir(t);
  const s = await newStore(dir);
  assert.equal(existsSync(s.file), false, 'nothing written before the first append');
  const a = await s.appendMessage(user('a'));
  const b = await s.appendMessage(assistant('b'));
  const c = await s.appendThinkingLevelChange('high');
  const d = await s.appendModelChange('openai', 'gpt-x');
  assert.equal(a.parentId, null);
  assert.equal(b.parentId, a.id);
  assert.equal(d.parentId, c.id);
  for (const e of [a, b, c, d]) assert.match(e.id, /^[0-9a-f]{8}$/);
  assert.equal(s.getLeafId(), d.id);
  const lines = readFileSync(s.file, 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, 5);
  assert.deepEqual(JSON.parse(lines[0]!).type, 'session');
  assert.deepEqual(Object.keys(JSON.parse(lines[1]!)).slice(0, 4), ['type', 'id', 'parentId', 'timestamp']);
  const r = await SessionStore.open(s.file);
  assert.deepEqual(r.getEntries(), s.getEntries());
  assert.equal(r.getLeafId(), d.id);
  assert.deepEqual(r.buildContext(), s.buildContext());
  assert.deepEqual(r.buildContext().model, { provider: 'openai', modelId: 'gpt-x' });
  assert.deepEqual(r.loadReport, []);
});

test('branch, resetLeaf, getChildren (timestamp order), getBranch, getTree', async (t) => {
  const s = await newStore(tempDir(t));
  const a = await s.appendMessage(user('a'));
  const b = await s.appendMessage(assistant('b'));
  const c1 = await s.appendMessage(user('c1'));
  s.branch(b.id);
  const c2 = await s.appendMessage(user('c2'));
  assert.equal(c2.parentId, b.id);
  assert.deepEqual(s.getChildren(b.id).map((e) => e.id), [c1.id, c2.id]);
  assert.deepEqual(s.getBranch().map((e) => e.id), [a.id, b.id, c2.id]);
  assert.deepEqual(s.getBranch(c1.id).map((e) => e.id), [a.id, b.id, c1.id]);
  assert.deepEqual(texts(s.buildContext(c1.id).messages), ['a', 'b', 'c1']);
  assert.throws(() => s.branch('nope'), UnknownEntryError);
  s.resetLeaf();
  assert.equal(s.getLeafId(), null);
  assert.deepEqual(s.buildContext().messages, []);
  const root2 = await s.appendMessage(user('again'));
  assert.equal(root2.parentId, null);
  const tree = s.getTree();
  assert.deepEqual(tree.map((n) => n.entry.id), [a.id, root2.id]);
  assert.deepEqual(tree[0]!.children[0]!.children.map((n) => n.entry.id), [c1.id, c2.id]);
  assert.equal(s.getLeafEntry()?.id, root2.id);
});

test('branchWithSummary attaches under the target (fromId = target or "root") and becomes the leaf', async (t) => {
  const s = await newStore(tempDir(t));
  const a = await s.appendMessage(user('a'));
  await s.appendMessage(assistant('abandoned'));
  const sum = await s.branchWithSummary(a.id, 'learned', { readFiles: [], modifiedFiles: [] });
  assert.equal(sum.parentId, a.id);
  assert.equal(sum.fromId, a.id);
  assert.equal(s.getLeafId(), sum.id);
  assert.deepEqual(texts(s.buildContext().messages), ['a', '[B:learned]']);
  const rootSum = await s.branchWithSummary(null, 'from root', undefined, true);
  assert.equal(rootSum.parentId, null);
  assert.equal(rootSum.fromId, 'root');
  assert.equal(rootSum.fromHook, true);
  await assert.rejects(s.branchWithSummary('zzz', 'x'), UnknownEntryError);
});

test('labels: set, last wins, clear, in tree nodes, move the leaf, unknown target rejected', async (t) => {
  const s = await newStore(tempDir(t));
  const a = await s.appendMessage(user('a'));
  const l1 = await s.appendLabelChange(a.id, 'first');
  assert.equal(s.getLeafId(), l1.id, 'a label entry moves the leaf');
  await s.appendLabelChange(a.id, 'second');
  assert.equal(s.getLabel(a.id), 'second');
  assert.equal(s.getTree()[0]!.label, 'second');
  await s.appendLabelChange(a.id, undefined);
  assert.equal(s.getLabel(a.id), undefined);
  await s.appendLabelChange(a.id, 'third');
  const r = await SessionStore.open(s.file);
  assert.equal(r.getLabel(a.id), 'third');
  assert.deepEqual(texts(r.buildContext().messages), ['a'], 'labels never reach the context');
  await assert.rejects(s.appendLabelChange('missing', 'x'), UnknownEntryError);
});

test('session name: latest session_info in file order, trimmed, empty clears', async (t) => {
  const s = await newStore(tempDir(t));
  await s.appendMessage(user('a'));
  await s.appendSessionInfo('  My session ');
  assert.equal(s.getSessionName(), 'My session');
  await s.appendSessionInfo('Renamed');
  assert.equal((await SessionStore.open(s.file)).getSessionName(), 'Renamed');
  await s.appendSessionInfo('   ');
  assert.equal((await SessionStore.open(s.file)).getSessionName(), undefined);
});

test('custom entries, custom messages and compaction fields persist; undefined fields are not written', async (t) => {
  const s = await newStore(tempDir(t));
  const a = await s.appendMessage(user('a'));
  await s.appendCustomEntry('ext-state', { n: 1 });
  await s.appendCustomMessage('note', 'hello', true, { k: 2 });
  const comp = await s.appendCompaction({ summary: 'S', firstKeptEntryId: a.id, tokensBefore: 42, shortSummary: 'short', preserveData: { x: 1 } });
  assert.equal('details' in comp, false);
  assert.equal('fromHook' in comp, false);
  const r = await SessionStore.open(s.file);
  assert.deepEqual(r.getEntry(comp.id), comp);
  assert.deepEqual(texts(r.buildContext().messages), ['[C:S]', 'a', 'hello']);
  await assert.rejects(s.appendMessage({ role: 'compactionSummary', summary: 'x', tokensBefore: 1, timestamp: 1 }));
});

test('the leaf survives a restart through LeafMemory; missing remembered leaf falls back to pi rule', async (t) => {
  const memory = new InMemoryLeafMemory();
  const dir = tempDir(t);
  const s = await SessionStore.create({ dir, cwd: '/w', leafMemory: memory });
  const a = await s.appendMessage(user('a'));
  await s.appendMessage(assistant('b'));
  s.branch(a.id);
  await new Promise((r) => setImmediate(r));
  assert.equal(memory.get(s.file), a.id);
  assert.equal((await SessionStore.open(s.file, { leafMemory: memory })).getLeafId(), a.id);
  assert.notEqual((await SessionStore.open(s.file)).getLeafId(), a.id, 'pi rule: last line');
  assert.equal((await SessionStore.open(s.file, { leafId: 'gone' })).getLeafId(), s.getEntries().at(-1)!.id);
  assert.equal((await SessionStore.open(s.file, { leafId: null })).getLeafId(), null);
});

test('unknown entry types, unknown fields and odd spacing round-trip byte-for-byte through a rewrite', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 's.jsonl');
  const lines = [
    JSON.stringify({ ...header(), extraHeader: { z: 1 } }),
    '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1,"omp":true},"zz":[1, 2]}',
    '{ "type" : "ttsr_injection", "id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z","injectedRules":["r"] }',
    '{"type":"message","id":"cccccccc","parentId":"bbbbbbbb","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"fileMention","files":[]}}',
  ];
  writeFileSync(file, lines.join('\n') + '\n');
  const s = await SessionStore.open(file);
  assert.deepEqual(s.loadReport, []);
  assert.equal(s.getEntries().length, 3);
  assert.deepEqual(texts(s.buildContext().messages), ['hi', '[fileMention]']);
  await s.appendMessage(user('new'));
  const { backupPath } = await s.rewriteEntries(() => undefined);
  const after = readFileSync(file, 'utf8').split('\n');
  assert.deepEqual(after.slice(0, 4), lines, 'untouched lines are byte-identical');
  assert.ok(existsSync(backupPath));
  const again = await SessionStore.open(file);
  assert.equal(again.getEntries().length, 4);
});

test('rewriteEntries replaces changed entries, keeps a backup, validates before touching the file', async (t) => {
  const s = await newStore(tempDir(t));
  await s.appendMessage(user('a'));
  const tool = await s.appendMessage({
    role: 'toolResult', toolCallId: 't1', toolName: 'bash', content: [{ type: 'text', text: 'x'.repeat(1000) }], isError: false, timestamp: 3,
  });
  const before = readFileSync(s.file, 'utf8');
  const { backupPath } = await s.rewriteEntries((entries) =>
    entries.map((e) => (e.id === tool.id && e.type === 'message' ? { ...e, message: { ...e.message, content: [{ type: 'text', text: '[pruned]' }], prunedAt: 5 } } : e)) as never,
  );
  assert.equal(readFileSync(backupPath, 'utf8'), before);
  const r = await SessionStore.open(s.file);
  assert.deepEqual((r.getEntry(tool.id) as { message: { content: unknown } }).message.content, [{ type: 'text', text: '[pruned]' }]);
  const snapshot = readFileSync(s.file, 'utf8');
  await assert.rejects(s.rewriteEntries((entries) => [...entries, entries[0]!]), /duplicate/);
  assert.equal(readFileSync(s.file, 'utf8'), snapshot, 'failed rewrite leaves the file alone');
  await s.appendMessage(user('after rewrite'));
  assert.equal((await SessionStore.open(s.file)).getEntries().length, 3);
});

test('invalid header: clear SessionFileError, file untouched', async (t) => {
  const dir = tempDir(t);
  const cases: Record<string, string> = {
    empty: '',
    garbage: 'not json\n{"type":"message"}\n',
    'no-session': '{"type":"message","id":"a","parentId":null,"timestamp":"x"}\n',
    'no-id': '{"type":"session"}\n',
  };
  for (const [name, content] of Object.entries(cases)) {
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(file, content);
    await assert.rejects(SessionStore.open(file), (e: unknown) => e instanceof SessionFileError && e.file === file, name);
    assert.equal(readFileSync(file, 'utf8'), content);
  }
  await assert.rejects(SessionStore.open(join(dir, 'missing.jsonl')), /file not found/);
  assert.deepEqual(readdirSync(dir).sort(), Object.keys(cases).map((n) => `${n}.jsonl`).sort());
});

test('orphans and self-parented entries are roots; cycles appear once and never hang', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 's.jsonl');
  const e = (id: string, parentId: string | null) => ({ type: 'message', id, parentId, timestamp: `2025-01-01T00:00:0${id.length}.000Z`, message: user(id) });
  writeFileSync(file, jsonl([header(), e('r', null), e('o', 'missing'), e('s', 's'), e('x', 'y'), e('y', 'x'), e('k', 'x')]));
  const s = await SessionStore.open(file);
  const tree = s.getTree();
  const seen: string[] = [];
  const stack = [...tree];
  while (stack.length) {
    const n = stack.pop()!;
    seen.push(n.entry.id);
    stack.push(...n.children);
  }
  assert.deepEqual(seen.sort(), ['k', 'o', 'r', 's', 'x', 'y']);
  assert.ok(tree.some((n) => n.entry.id === 'o') && tree.some((n) => n.entry.id === 's'));
  assert.deepEqual(texts(s.buildContext('k').messages), ['y', 'x', 'k']);
  assert.deepEqual(s.getBranch('s').map((x) => x.id), ['s']);
  assert.deepEqual(s.getChildren('s'), []);
});

test('migration v1 → v3: ids, linear chain, firstKeptEntryIndex (header = 0) → id, hookMessage → custom, backup before write', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'v1.jsonl');
  const v1 = [
    { type: 'session', id: 'old', timestamp: '2024-01-01T00:00:00.000Z', cwd: '/w', provider: 'p', modelId: 'm', thinkingLevel: 'off' },
    { type: 'message', timestamp: '2024-01-01T00:00:01.000Z', message: user('one') },
    { type: 'message', timestamp: '2024-01-01T00:00:02.000Z', message: assistant('two') },
    { type: 'message', timestamp: '2024-01-01T00:00:03.000Z', message: user('three') },
    { type: 'compaction', timestamp: '2024-01-01T00:00:04.000Z', summary: 'S', firstKeptEntryIndex: 2, tokensBefore: 9 },
    { type: 'message', timestamp: '2024-01-01T00:00:05.000Z', message: { role: 'hookMessage', customType: 'h', content: 'hooked', display: true, timestamp: 5 } },
  ];
  const original = jsonl(v1);
  writeFileSync(file, original);
  const s = await SessionStore.open(file);
  assert.equal(s.migratedFrom, 1);
  assert.equal(s.header.version, 3);
  const entries = s.getEntries();
  assert.equal(entries.length, 5);
  entries.forEach((e, i) => {
    assert.match(e.id, /^[0-9a-f]{8}$/);
    assert.equal(e.parentId, i === 0 ? null : entries[i - 1]!.id);
  });
  const comp = entries[3] as { firstKeptEntryId: string; firstKeptEntryIndex?: number };
  assert.equal(comp.firstKeptEntryId, entries[1]!.id, 'index 2 = second entry line (header is 0)');
  assert.equal('firstKeptEntryIndex' in comp, false);
  assert.deepEqual(texts(s.buildContext().messages), ['[C:S]', 'two', 'three', 'hooked']);
  assert.equal(readFileSync(file, 'utf8'), original, 'opening never writes');
  await s.appendMessage(user('four'));
  assert.equal(readFileSync(`${file}.v1.bak`, 'utf8'), original, 'original kept as backup');
  const r = await SessionStore.open(file);
  assert.equal(r.migratedFrom, undefined);
  assert.equal(r.header.version, 3);
  assert.deepEqual(r.getEntries().map((e) => e.id), [...entries.map((e) => e.id), s.getLeafId()]);
  assert.deepEqual(texts(r.buildContext().messages), ['[C:S]', 'two', 'three', 'hooked', 'four']);
});

test('migration v2 → v3 keeps ids and renames hookMessage; v3 files are untouched (idempotent)', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'v2.jsonl');
  writeFileSync(file, jsonl([
    header(2),
    { type: 'message', id: 'a1', parentId: null, timestamp: '2024-01-01T00:00:01.000Z', message: { role: 'hookMessage', customType: 'h', content: 'x', display: false, timestamp: 1 } },
  ]));
  const s = await SessionStore.open(file);
  assert.equal(s.migratedFrom, 2);
  assert.equal((s.getEntry('a1') as { message: { role: string } }).message.role, 'custom');
  const { backupPath } = await s.rewriteEntries(() => undefined);
  assert.ok(backupPath.endsWith('.v2.bak'));
  const again = await SessionStore.open(file);
  assert.equal(again.migratedFrom, undefined);
  assert.deepEqual(again.loadReport, []);
});
