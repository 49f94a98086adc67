// Fault tolerance: torn last lines at every byte offset, garbage and binary lines, duplicate ids,
// malformed known entries, and two processes appending to one file at the same time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { header, jsonl, tempDir, texts, user } from './helpers';

function entry(id: string, parentId: string | null, text: string) {
  return { type: 'message', id, parentId, timestamp: '2025-01-01T00:00:01.000Z', message: user(text) };
}

test('truncating the last line at every byte offset: earlier entries load, the torn line is reported, appends stay readable', async (t) => {
  const dir = tempDir(t);
  const base = jsonl([header(), entry('aaaaaaaa', null, 'one'), entry('bbbbbbbb', 'aaaaaaaa', 'two')]);
  const last = JSON.stringify(entry('cccccccc', 'bbbbbbbb', 'three ünïcødé')) + '\n';
  const lastBytes = Buffer.from(last);
  for (let cut = 0; cut <= lastBytes.length; cut++) {
    const file = join(dir, `cut-${cut}.jsonl`);
    writeFileSync(file, Buffer.concat([Buffer.from(base), lastBytes.subarray(0, cut)]));
    const s = await SessionStore.open(file);
    const complete = cut >= lastBytes.length - 1; // the full JSON, with or without its newline
    assert.equal(s.getEntries().length, complete ? 3 : 2, `cut ${cut}`);
    const torn = s.loadReport.filter((p) => p.kind === 'torn-final-line');
    assert.equal(torn.length, cut > 0 && !complete ? 1 : 0, `cut ${cut}: ${JSON.stringify(s.loadReport)}`);
    if (torn.length) assert.equal(torn[0]!.line, 4);
    const added = await s.appendMessage(user('after'));
    const r = await SessionStore.open(file);
    assert.ok(r.getEntry(added.id), `cut ${cut}: appended entry readable`);
    // Now followed by a line, the torn bytes are a damaged line in the middle of the file. When its head
    // (type, id, parent, time) is intact and it happens to end in "}", it is indexed from the head and kept
    // as an unreadable node once read (ignored in context, its bytes written back); else it is skipped.
    const readable = r.getEntries().filter((e) => !r.isInvalidEntry(e));
    assert.equal(readable.length, (complete ? 3 : 2) + 1);
    for (const kept of r.getEntries().filter((e) => r.isInvalidEntry(e))) {
      assert.equal(kept.id, 'cccccccc', `cut ${cut}`);
      assert.ok(r.loadReport.some((p) => p.line === 4 && p.kind === 'invalid-json'), `cut ${cut}: ${JSON.stringify(r.loadReport)}`);
    }
    assert.equal(r.loadReport.filter((p) => p.kind === 'torn-final-line').length, 0);
    assert.ok(readFileSync(file).includes(lastBytes.subarray(0, cut)), 'torn bytes are kept, not destroyed');
  }
});

test('garbage, binary and non-entry lines are skipped and reported with line numbers', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  const binary = Buffer.from([0x00, 0xff, 0xfe, 0x10, 0x80, 0x0d]);
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(JSON.stringify(header()) + '\n'),
      Buffer.from(JSON.stringify(entry('aaaaaaaa', null, 'one')) + '\n'),
      Buffer.from('this is not json\n'),
      binary,
      Buffer.from('\n\n   \n[1,2,3]\n{"no":"type"}\n'),
      Buffer.from(JSON.stringify(entry('bbbbbbbb', 'aaaaaaaa', 'two')) + '\r\n'),
    ]),
  );
  const s = await SessionStore.open(file);
  assert.deepEqual(texts(s.buildContext().messages), ['one', 'two']);
  assert.deepEqual(
    s.loadReport.map((p) => [p.line, p.kind]),
    [
      [3, 'invalid-json'],
      [4, 'invalid-json'],
      [7, 'invalid-entry'],
      [8, 'invalid-entry'],
    ],
  );
});

test('duplicate ids: the first wins, later lines are reported and ignored', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  writeFileSync(file, jsonl([header(), entry('aaaaaaaa', null, 'first'), entry('aaaaaaaa', null, 'second'), entry('bbbbbbbb', 'aaaaaaaa', 'child')]));
  const s = await SessionStore.open(file);
  assert.deepEqual(texts(s.buildContext().messages), ['first', 'child']);
  assert.deepEqual(s.loadReport.map((p) => [p.line, p.kind]), [[3, 'duplicate-id']]);
});

test('a known entry type with an invalid shape is reported, kept in the tree as opaque, ignored in context, written back unchanged', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  const bad = '{"type":"compaction","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z","summary":42}';
  const content = [JSON.stringify(header()), JSON.stringify(entry('aaaaaaaa', null, 'one')), bad, JSON.stringify(entry('cccccccc', 'bbbbbbbb', 'three'))].join('\n') + '\n';
  writeFileSync(file, content);
  const s = await SessionStore.open(file);
  assert.deepEqual(s.loadReport.map((p) => [p.line, p.kind]), [[3, 'invalid-entry']]);
  assert.match(s.loadReport[0]!.message, /summary/);
  const opaque = s.getEntry('bbbbbbbb')!;
  assert.equal(opaque.type, 'invalid_entry');
  assert.ok(s.isInvalidEntry(opaque));
  assert.deepEqual(texts(s.buildContext().messages), ['one', 'three'], 'children stay connected');
  await s.rewriteEntries(() => undefined);
  assert.equal(readFileSync(file, 'utf8'), content);
});

const CHILD = `
const { SessionStore } = require(${JSON.stringify(join(__dirname, '../../../src/session/store.ts'))});
(async () => {
  const [file, tag, count] = process.argv.slice(-3);
  const s = await SessionStore.open(file);
  for (let i = 0; i < Number(count); i++) {
    await s.appendMessage({ role: 'user', content: tag + '-' + i + '-' + 'x'.repeat(3000), timestamp: i });
  }
})().catch((e) => { console.error(e); process.exit(1); });
`;

function runChild(script: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, '--', ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

test('two processes appending concurrently to one file: no interleaving, no loss', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  writeFileSync(file, jsonl([header(), entry('aaaaaaaa', null, 'root')]));
  const count = 40;
  const codes = await Promise.all([runChild(CHILD, [file, 'A', String(count)]), runChild(CHILD, [file, 'B', String(count)])]);
  assert.deepEqual(codes, [0, 0]);
  const s = await SessionStore.open(file);
  assert.deepEqual(s.loadReport, []);
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, 2 + 2 * count);
  for (const line of lines) JSON.parse(line);
  const bodies = s.getEntries().map((e) => texts([(e as unknown as { message: never }).message])[0]!.split('-').slice(0, 2).join('-'));
  for (const tag of ['A', 'B']) {
    const mine = bodies.filter((b) => b.startsWith(`${tag}-`));
    assert.deepEqual(mine, Array.from({ length: count }, (_, i) => `${tag}-${i}`), `${tag} entries all present, in order`);
  }
  // Each process's entries form its own chain under its own leaf.
  const a = s.getEntries().filter((e) => texts([(e as unknown as { message: never }).message])[0]!.startsWith('A-'));
  for (let i = 1; i < a.length; i++) assert.equal(a[i]!.parentId, a[i - 1]!.id);
});

test('an in-process store sees foreign appends on refresh and before its own append', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  writeFileSync(file, jsonl([header(), entry('aaaaaaaa', null, 'root')]));
  const one = await SessionStore.open(file);
  const two = await SessionStore.open(file);
  const seen: string[] = [];
  one.onDidAppend((e) => seen.push(e.id));
  const foreign = await two.appendMessage(user('from two'));
  const pulled = await one.refresh();
  assert.deepEqual(pulled.map((e) => e.id), [foreign.id]);
  const mine = await one.appendMessage(user('from one'));
  assert.deepEqual(seen, [foreign.id, mine.id]);
  assert.equal(mine.parentId, 'aaaaaaaa', 'own leaf unchanged by foreign appends');
  await two.rewriteEntries(() => undefined); // replaces the file (new inode)
  const last = await one.appendMessage(user('after foreign rewrite'));
  const r = await SessionStore.open(file);
  assert.deepEqual(r.getEntries().map((e) => e.id), ['aaaaaaaa', foreign.id, mine.id, last.id]);
});
