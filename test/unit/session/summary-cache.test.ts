// The Sessions list's cache: unchanged files are not read, the growing session is read only where it
// grew, and whatever happens to the files the cached summary equals a fresh summarizeSession.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSessions, summarizeSession } from '../../../src/session/catalog';
import { SessionSummaryCache } from '../../../src/session/summary-cache';
import { seededRandom } from '../seeded-random';
import { header, jsonl, tempDir } from './helpers';

const HEADER = JSON.stringify(header()) + '\n';

function messageLine(id: string, parentId: string | null, text: string): string {
  return JSON.stringify({ type: 'message', id, parentId, timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: text, timestamp: 1 } }) + '\n';
}

/** Lines as pi, Arbor and damaged files have them: prefix-layout entries, other key orders, names, garbage, duplicates. */
function randomLine(rand: () => number, ids: string[], n: number): string {
  const id = `e${n}`;
  const parent = ids.length === 0 || rand() < 0.05 ? null : rand() < 0.8 ? ids[ids.length - 1]! : ids[Math.floor(rand() * ids.length)]!;
  const r = rand();
  if (r < 0.05) return 'not json at all\n';
  if (r < 0.1 && ids.length > 0) return messageLine(ids[Math.floor(rand() * ids.length)]!, parent, 'duplicate id');
  if (r < 0.15) return JSON.stringify({ type: 'session_info', id, parentId: parent, timestamp: 'x', name: `name ${n}` }) + '\n';
  if (r < 0.2) return JSON.stringify({ id, parentId: parent, type: 'message', timestamp: 'x', message: { role: 'user', content: `other order ${n}` } }) + '\n';
  if (r < 0.25) return JSON.stringify({ type: 'label', id, parentId: `e${n + 3}`, timestamp: 'x', targetId: parent }) + '\n'; // child before parent
  ids.push(id);
  return messageLine(id, parent, `message ${n} ünï`);
}

function comparable(summary: Awaited<ReturnType<typeof summarizeSession>>) {
  return { ...summary, modified: summary.modified.getTime() };
}

test('the growing session: each listing reads only the appended bytes, and agrees with a fresh summary', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  writeFileSync(file, HEADER);
  const cache = new SessionSummaryCache();
  const rand = seededRandom(20261121);
  const ids: string[] = [];
  for (let n = 0; n < 400; n++) {
    const line = randomLine(rand, ids, n);
    appendFileSync(file, line);
    cache.bytesRead = 0;
    const cached = await cache.summarize(file, true);
    assert.equal(cache.bytesRead, n === 0 ? Buffer.byteLength(HEADER + line) : Buffer.byteLength(line), `append ${n}: only the new line is read`);
    assert.deepEqual(comparable(cached), comparable(await summarizeSession(file)), `append ${n}`);
  }
  cache.bytesRead = 0;
  await cache.summarize(file, true);
  assert.equal(cache.bytesRead, 0, 'an unchanged file is not read');
});

test('a session that is not the growing one is read whole when it changes, not at all when it does not', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  writeFileSync(file, HEADER + messageLine('a', null, 'one'));
  const cache = new SessionSummaryCache();
  await cache.summarize(file);
  cache.bytesRead = 0;
  await cache.summarize(file);
  assert.equal(cache.bytesRead, 0);
  appendFileSync(file, messageLine('b', 'a', 'two'));
  const summary = await cache.summarize(file);
  assert.equal(summary.entryCount, 2);
  assert.ok(cache.bytesRead > Buffer.byteLength(messageLine('b', 'a', 'two')), 'no scan is kept for it, so it is read whole');
});

test('a rewrite (new inode), a shrink and a torn tail are read again in full and summarized right', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 's.jsonl');
  writeFileSync(file, HEADER + messageLine('a', null, 'one') + messageLine('b', 'a', 'two'));
  const cache = new SessionSummaryCache();
  assert.equal((await cache.summarize(file, true)).entryCount, 2);
  // rewrite through rename, as writeFileAtomic does: same size would fool a size check, not the inode
  const replacement = join(dir, 'tmp');
  writeFileSync(replacement, HEADER + messageLine('x', null, 'one') + messageLine('y', 'q', 'two'));
  renameSync(replacement, file);
  assert.equal((await cache.summarize(file, true)).branchCount, 2, 'y hangs from a missing parent: two tips');
  truncateSync(file, Buffer.byteLength(HEADER + messageLine('x', null, 'one')));
  assert.equal((await cache.summarize(file, true)).entryCount, 1);
  const torn = messageLine('z', 'x', 'torn');
  appendFileSync(file, torn.slice(0, 20));
  assert.deepEqual(comparable(await cache.summarize(file, true)), comparable(await summarizeSession(file)));
  appendFileSync(file, torn.slice(20));
  const healed = await cache.summarize(file, true);
  assert.equal(healed.entryCount, 2, 'the completed line counts once');
  assert.deepEqual(comparable(healed), comparable(await summarizeSession(file)));
});

test('listSessions with the cache: after a turn only the growing session is read, only where it grew; deleted files are forgotten', async (t) => {
  const dir = tempDir(t);
  const files = [0, 1, 2].map((i) => join(dir, `s${i}.jsonl`));
  for (const file of files) writeFileSync(file, jsonl([header()]) + messageLine('a', null, 'x'.repeat(100_000)));
  const cache = new SessionSummaryCache();
  const growing = files[0]!;
  await listSessions(dir, { cache, growing });
  const turn = messageLine('b', 'a', 'a new turn');
  appendFileSync(growing, turn);
  cache.bytesRead = 0;
  const { sessions } = await listSessions(dir, { cache, growing });
  assert.equal(cache.bytesRead, Buffer.byteLength(turn));
  assert.equal(sessions.find((s) => s.file === growing)!.entryCount, 2);
  rmSync(files[2]!);
  assert.equal((await listSessions(dir, { cache, growing })).sessions.length, 2);
  writeFileSync(files[2]!, jsonl([header()]));
  cache.bytesRead = 0;
  await listSessions(dir, { cache, growing });
  assert.ok(cache.bytesRead > 0, 'a file that came back is read, not served from a stale entry');
});
