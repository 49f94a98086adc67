// The session lock's staleness rules: a dead or reused pid on this host is stale at once; a live process
// is never stale; a lock from another host (or an unidentifiable one) is stale only once its heartbeat
// lapsed; a holder keeps its heartbeat fresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../../src/session/lock';
import { formatOwner, judgeLock, parseOwner, processStartTime } from '../../../src/session/lock-owner';
import { SessionLockError } from '../../../src/session/errors';
import { tempDir } from './helpers';

const rules = { staleMs: 1_000, emptyStaleMs: 500, unverifiedPidMs: 60_000 };
const linux = process.platform === 'linux';

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

test('a lock records pid, host, start time and token, and reads back', async () => {
  const start = await processStartTime(process.pid);
  const owner = parseOwner(formatOwner({ pid: 42, host: 'box', start: '777', token: 'abc' }));
  assert.deepEqual(owner, { pid: 42, host: 'box', start: '777', token: 'abc' });
  assert.deepEqual(parseOwner('42 box 1700000000000\n'), { pid: 42, host: 'box' }, 'the format earlier versions wrote');
  assert.equal(parseOwner('garbage'), undefined);
  if (linux) assert.match(start ?? '', /^\d+$/);
});

test('same host: a live process is never stale, whatever the age; a dead or reused pid is stale at once', async () => {
  const start = await processStartTime(process.ppid);
  const live = formatOwner({ pid: process.ppid, host: hostname(), ...(start ? { start } : {}), token: 't' });
  // Linux proves the owner by its start time; elsewhere a live pid is trusted for `unverifiedPidMs` only.
  assert.equal((await judgeLock(live, 86_400_000, rules)).stale, !linux);
  assert.equal((await judgeLock(live, 0, rules)).stale, false);
  const dead = formatOwner({ pid: deadPid(), host: hostname(), token: 't' });
  assert.equal((await judgeLock(dead, 0, rules)).stale, true);
  if (linux) {
    const reused = formatOwner({ pid: process.ppid, host: hostname(), start: `${Number(start) + 1}`, token: 't' });
    assert.deepEqual(await judgeLock(reused, 0, rules), { stale: true, why: `process ${process.ppid} ended and its pid was reused` });
  }
});

test('another host, or an unreadable owner: stale only when the heartbeat is older than the threshold', async () => {
  const remote = formatOwner({ pid: process.pid, host: `not-${hostname()}`, start: '1', token: 't' });
  assert.equal((await judgeLock(remote, 900, rules)).stale, false);
  assert.equal((await judgeLock(remote, 1_100, rules)).stale, true);
  assert.equal((await judgeLock('what is this', 900, rules)).stale, false);
  assert.equal((await judgeLock('what is this', 1_100, rules)).stale, true);
  assert.equal((await judgeLock('', 400, rules)).stale, false, 'a writer between create and write');
  assert.equal((await judgeLock('', 600, rules)).stale, true, 'left empty by a crash');
});

test('a holder refreshes its heartbeat, so another host does not take a live lock', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  const lock = await acquireLock(file, { heartbeatMs: 50 });
  const lockPath = `${file}.lock`;
  const old = new Date(Date.now() - 60_000);
  utimesSync(lockPath, old, old);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(Date.now() - statSync(lockPath).mtimeMs < 1_000, 'the heartbeat did not refresh the lock');
  await lock.release();
});

test('a lock of another host whose heartbeat lapsed is taken; a fresh one is waited for', async (t) => {
  const file = join(tempDir(t), 's.jsonl');
  const lockPath = `${file}.lock`;
  writeFileSync(lockPath, formatOwner({ pid: 1, host: `not-${hostname()}`, token: 'remote' }));
  const refused = await acquireLock(file, { timeoutMs: 300, staleMs: 5_000 }).then(() => 'taken', (error: unknown) => error);
  assert.ok(refused instanceof SessionLockError, String(refused));
  assert.match(refused.message, /process 1 on not-/);
  const old = new Date(Date.now() - 10_000);
  utimesSync(lockPath, old, old);
  const lock = await acquireLock(file, { timeoutMs: 1_000, staleMs: 5_000 });
  assert.equal(parseOwner(readFileSync(lockPath, 'utf8'))?.pid, process.pid);
  assert.equal(await lock.release(), 'released');
});
