// Opening a session parses only what the leaf context needs (entry-index.ts, line-head.ts): every other
// message-like line is indexed from its head and read when first asked for. These tests check that the
// context right after opening equals the context built with every body read (the eager loader: every line
// parsed, then pi's path rules over the whole path) on every fixture, files by pi 1.5 and omp 18 included,
// and on damaged files; and, by changing bytes on disk after opening, which bodies were read when.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, copyFileSync, openSync, readFileSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { contextFromPath } from '../../../src/session/context';
import type { SessionEntry } from '../../../src/session/entries';
import { DEFER_FROM_BYTES } from '../../../src/session/scan';
import { SessionStore } from '../../../src/session/store';
import { writeTreeSession } from '../../../bench/lib/session-fixture.mjs';
import { assistant, compaction, header, jsonl, msg, tempDir, user } from './helpers';

const fixtures = join(__dirname, '..', '..', 'fixtures');
const fixtureFiles = ['pi-1.5', 'omp-18'].flatMap((dir) =>
  readdirSync(join(fixtures, dir)).filter((name) => name.endsWith('.jsonl')).map((name) => join(fixtures, dir, name)),
);

/** The eager loader's context: every body read first, then the context from the whole path as an array. */
async function eagerContext(file: string, leaf: string) {
  const store = await SessionStore.open(file, { leafId: leaf });
  store.readAllEntries();
  return { context: contextFromPath(store.getBranch(leaf)), report: store.loadReport };
}

/** For every entry as the leaf: a fresh lazy open's first context equals the eager one, and so do reports once read. */
async function assertSameAsEager(file: string): Promise<number> {
  const ids = (await SessionStore.open(file)).getEntries().map((entry) => entry.id);
  for (const leaf of ids) {
    const lazy = await SessionStore.open(file, { leafId: leaf });
    const context = lazy.buildContext();
    const eager = await eagerContext(file, leaf);
    assert.deepEqual(context, eager.context, `${file} leaf ${leaf}`);
    lazy.readAllEntries();
    assert.deepEqual(sortedReport(lazy.loadReport), sortedReport(eager.report), `${file} leaf ${leaf}: load report`);
  }
  return ids.length;
}

function sortedReport(report: readonly { line: number; kind: string; message: string }[]) {
  return report.map((p) => `${p.line} ${p.kind} ${p.message}`).sort();
}

test('there are pi 1.5 and omp 18 fixtures', () => {
  assert.ok(fixtureFiles.some((f) => f.includes('pi-1.5')) && fixtureFiles.some((f) => f.includes('omp-18')), fixtureFiles.join(', '));
});

for (const file of fixtureFiles) {
  test(`lazy open: the first context for every leaf of ${file.slice(fixtures.length + 1)} equals the eager loader's`, async () => {
    assert.ok((await assertSameAsEager(file)) > 3);
  });
}

test('lazy open: a generated tree session with compactions, branch summaries and labels, every 7th leaf', async (t) => {
  const file = join(tempDir(t), 'tree.jsonl');
  await writeTreeSession(file, 700, { toolResultChars: 200 });
  const ids = (await SessionStore.open(file)).getEntries().map((entry) => entry.id);
  for (let i = 0; i < ids.length; i += 7) {
    const lazy = await SessionStore.open(file, { leafId: ids[i]! });
    assert.deepEqual(lazy.buildContext(), (await eagerContext(file, ids[i]!)).context, `leaf ${ids[i]}`);
  }
});

/** Message text long enough for its line to be deferred (shorter lines are parsed at once: scan.ts). */
const long = (text: string) => `${text} ${'lorem ipsum '.repeat(Math.ceil(DEFER_FROM_BYTES / 12))}`;

/** A session: an early thinking level, a compaction keeping `k2`, and an abandoned branch `x1`. */
function compactedSession(): unknown[] {
  return [
    header(),
    { type: 'thinking_level_change', id: 'tl', parentId: null, timestamp: '2025-01-01T00:00:01.000Z', thinkingLevel: 'high' },
    msg('m1', 'tl', user(long('OLD-ONE'))),
    msg('m2', 'm1', assistant(long('OLD-TWO'))),
    msg('x1', 'm2', user(long('SIDE-BRANCH'))),
    msg('k1', 'm2', user(long('KEPT-ONE'))),
    msg('k2', 'k1', assistant(long('KEPT-TWO'))),
    compaction('c1', 'k2', 'k1'),
    msg('n1', 'c1', user(long('NEW-ONE'))),
  ];
}

/** Overwrites `from` with `to` (same length) in the file, in place: same inode, as an on-demand read sees it. */
function patchInPlace(file: string, from: string, to: string): void {
  assert.equal(Buffer.byteLength(from), Buffer.byteLength(to));
  const at = readFileSync(file).indexOf(from);
  assert.ok(at >= 0, from);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.from(to), 0, Buffer.byteLength(to), at);
  closeSync(fd);
}

function textOf(entry: SessionEntry | undefined): string {
  return JSON.stringify(entry);
}

test('opening reads the bodies the leaf context needs; the others are read when first asked for', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  writeFileSync(file, jsonl(compactedSession()));
  const store = await SessionStore.open(file);
  const context = store.buildContext();
  assert.equal(context.thinkingLevel, 'high');
  // changed on disk after opening: context entries were read already, the others are read now
  for (const [from, to] of [['KEPT-ONE', 'KEPT-111'], ['NEW-ONE', 'NEW-111'], ['OLD-ONE', 'OLD-111'], ['SIDE-BRANCH', 'SIDE-BRANCX']]) patchInPlace(file, from!, to!);
  assert.match(textOf(store.getEntry('k1')), /KEPT-ONE/);
  assert.match(textOf(store.getEntry('n1')), /NEW-ONE/);
  assert.match(textOf(store.getEntry('m1')), /OLD-111/, 'a message before the kept part was not parsed at open');
  assert.match(textOf(store.getEntry('x1')), /SIDE-BRANCX/, 'an abandoned branch was not parsed at open');
  assert.deepEqual(store.buildContext(), context);
  assert.deepEqual(store.loadReport, []);
});

test('short lines are parsed at open whatever their kind; long ones of message-like kinds are deferred', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  writeFileSync(file, jsonl([header(), msg('s1', null, user('SHORT-ONE')), msg('l1', 's1', user(long('LONG-ONE'))), compaction('c1', 'l1', 'l1')]));
  const store = await SessionStore.open(file);
  store.buildContext();
  patchInPlace(file, 'SHORT-ONE', 'SHORT-111');
  patchInPlace(file, 'LONG-ONE', 'LONG-111');
  assert.match(textOf(store.getEntry('s1')), /SHORT-ONE/);
  assert.match(textOf(store.getEntry('l1')), /LONG-ONE/, 'in the kept part: read at open');
  const fresh = await SessionStore.open(file, { leafId: 's1' });
  fresh.buildContext();
  patchInPlace(file, 'LONG-111', 'LONG-222');
  assert.match(textOf(fresh.getEntry('l1')), /LONG-222/, 'off the context: read on demand');
});

test('a damaged line off the context is reported once read (readAllEntries, the CLI) and kept as unreadable', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  const lines = jsonl(compactedSession()).split('\n');
  lines[2] = lines[2]!.replace('"content":"OLD-ONE', '"content":OLD-ONE');
  lines[4] = lines[4]!.replace('"message":{', '"message":"not a message","was":{');
  writeFileSync(file, lines.join('\n'));
  const store = await SessionStore.open(file);
  const context = store.buildContext();
  assert.equal(store.loadReport.length, 0, 'nothing off the context was read');
  store.readAllEntries();
  assert.deepEqual(store.loadReport.map((p) => [p.line, p.kind]), [[3, 'invalid-json'], [5, 'invalid-entry']]);
  assert.ok(store.isInvalidEntry(store.getEntry('m1')!));
  assert.ok(store.isInvalidEntry(store.getEntry('x1')!));
  assert.deepEqual(store.buildContext(), context);
  assert.deepEqual(store.getBranch().map((e) => e.id), ['tl', 'm1', 'm2', 'k1', 'k2', 'c1', 'n1']);
});

test('a damaged line in the context is reported at open and left out of the context, as the eager loader does', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 's.jsonl');
  const lines = jsonl(compactedSession()).split('\n');
  lines[8] = lines[8]!.replace('"content":"NEW-ONE', '"content":NEW-ONE');
  writeFileSync(file, lines.join('\n'));
  const store = await SessionStore.open(file);
  assert.deepEqual(store.buildContext(), (await eagerContext(file, 'n1')).context);
  assert.deepEqual(store.loadReport.map((p) => [p.line, p.kind]), [[9, 'invalid-json']]);
  copyFileSync(file, join(dir, 'copy.jsonl'));
  assert.ok((await assertSameAsEager(join(dir, 'copy.jsonl'))) === 8);
});

test('a file replaced by another writer after opening: unread bodies become unreadable entries, never wrong ones', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 's.jsonl');
  writeFileSync(file, jsonl(compactedSession()));
  const store = await SessionStore.open(file);
  store.buildContext();
  writeFileSync(join(dir, 'other.jsonl'), jsonl(compactedSession()).replace('OLD-ONE', 'XXX-ONE'));
  copyFileSync(join(dir, 'other.jsonl'), file + '.tmp');
  const { renameSync } = await import('node:fs');
  renameSync(file + '.tmp', file);
  const old = store.getEntry('m1')!;
  assert.ok(store.isInvalidEntry(old));
  assert.doesNotMatch(textOf(old), /XXX/);
  assert.match(store.loadReport.map((p) => p.message).join('\n'), /replaced by another writer/);
  const reopened = await SessionStore.open(file);
  assert.match(textOf(reopened.getEntry('m1')), /XXX-ONE/);
});
