// Issue #14 item 5: a second writer never loses an acknowledged entry. Another process holds the session
// lock (paused, for longer than any age threshold), a rewrite is paused while another writer appends, our
// lock is taken from under us, the lock path cannot be read: each must end without a lost line, a stolen
// lock or a busy loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../../src/session/lock';
import { SessionLockError } from '../../../src/session/errors';
import { SessionStore } from '../../../src/session/store';
import { bundledChild, fixturePath } from '../child-bundle';
import { reportFigures } from '../profile';
import { headerLine } from '../session-corpus';

interface RunningChild {
  process: ChildProcess;
  waitFor(line: string, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
  stderr(): string;
}

function startChild(bundle: string, args: string[]): RunningChild {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const seen: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (data: string) => {
    buffered += data;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      seen.push(line);
      for (const waiter of waiters.filter((w) => w.line === line)) waiter.resolve();
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (data: string) => (stderr += data));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = (line: string, timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      if (seen.includes(line)) return resolve();
      const timer = setTimeout(() => reject(new Error(`child never printed "${line}"; stderr: ${stderr}`)), timeoutMs);
      waiters.push({ line, resolve: () => (clearTimeout(timer), resolve()) });
    });
  return { process: child, waitFor, exited, stderr: () => stderr };
}

function stopChild(child: RunningChild): void {
  child.process.kill('SIGCONT');
  child.process.kill('SIGKILL');
}

/** Sets the lock's modification time `ms` into the past: a holder that refreshed nothing for that long. */
function backdate(path: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(path, then, then);
}

function sessionWithEntries(dir: string, count: number): string {
  const file = join(dir, 's.jsonl');
  const lines = [headerLine()];
  for (let i = 0; i < count; i++) {
    const parentId = i === 0 ? null : `e${i - 1}`;
    lines.push(JSON.stringify({ type: 'message', id: `e${i}`, parentId, timestamp: new Date(1_700_000_000_000 + i).toISOString(), message: { role: 'user', content: `m${i}`, timestamp: i } }));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function tempDir(t: { after(fn: () => void): void }, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `arbor-${name}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("a live owner's lock is never taken, however long it has been held (paused owner)", async (t) => {
  const file = sessionWithEntries(tempDir(t, 'second-writer-live'), 1);
  const holder = startChild(await bundledChild(fixturePath('lock-holder.ts')), [file]);
  t.after(() => stopChild(holder));
  await holder.waitFor('locked');
  holder.process.kill('SIGSTOP');
  const lockPath = `${file}.lock`;
  const ownerRecord = readFileSync(lockPath, 'utf8');
  backdate(lockPath, 120_000); // frozen for two minutes: four times the old 30 s age limit
  const started = Date.now();
  const outcome = await acquireLock(file, { timeoutMs: 1_500, staleMs: 300 }).then(
    async (lock) => (await lock.release(), 'taken'),
    (error: unknown) => error,
  );
  const waited = Date.now() - started;
  assert.ok(outcome instanceof SessionLockError, `the lock of a live (paused) owner was ${outcome === 'taken' ? 'taken' : `not refused cleanly: ${String(outcome)}`}`);
  assert.equal(readFileSync(lockPath, 'utf8'), ownerRecord, "the owner's lock file must be untouched");
  assert.ok(waited >= 1_400 && waited < 5_000, `waited ${waited} ms for a 1.5 s timeout`);
  // Once the owner is really gone, its lock is free at once (a dead pid is stale without waiting).
  stopChild(holder);
  await holder.exited;
  const freed = Date.now();
  const lock = await acquireLock(file, { timeoutMs: 5_000 });
  await lock.release();
  reportFigures('second-writer-live-owner', { refusedAfterMs: waited, deadOwnerFreedMs: Date.now() - freed });
  assert.ok(Date.now() - freed < 2_000, 'the lock of a dead owner must be cleared quickly');
});

test('a paused rewrite and another window appending: the acknowledged entry survives the rewrite', async (t) => {
  const dir = tempDir(t, 'second-writer-rewrite');
  const file = sessionWithEntries(dir, 5);
  const go = join(dir, 'go');
  const rewriter = startChild(await bundledChild(fixturePath('paused-rewriter.ts')), [file, go]);
  t.after(() => stopChild(rewriter));
  await rewriter.waitFor('rewriting'); // inside the rewrite, holding the lock
  rewriter.process.kill('SIGSTOP');
  backdate(`${file}.lock`, 120_000);
  writeFileSync(go, '');
  const other = await SessionStore.open(file);
  const appending = other.appendMessage({ role: 'user', content: 'acknowledged while the rewrite was paused', timestamp: 1 });
  const earlyAck = await Promise.race([appending.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 1_000))]);
  rewriter.process.kill('SIGCONT');
  const entry = await appending;
  assert.equal(await rewriter.exited, 0, `the rewrite failed: ${rewriter.stderr()}`);
  const after = await SessionStore.open(file);
  assert.ok(after.getEntry(entry.id), `the acknowledged entry ${entry.id} was lost (acknowledged ${earlyAck ? 'while the rewrite held the lock' : 'after the rewrite'})`);
  assert.equal(after.getEntry('e0'), undefined, 'the rewrite itself must have happened');
  assert.equal(earlyAck, false, 'the append must wait for the paused rewrite, not take its lock');
});

test('a rewrite notices a line appended without the lock (e.g. by pi) and keeps it', async (t) => {
  const dir = tempDir(t, 'second-writer-foreign');
  const file = sessionWithEntries(dir, 5);
  const go = join(dir, 'go');
  const rewriter = startChild(await bundledChild(fixturePath('paused-rewriter.ts')), [file, go]);
  t.after(() => stopChild(rewriter));
  await rewriter.waitFor('rewriting');
  const foreign = { type: 'message', id: 'foreign1', parentId: 'e4', timestamp: new Date().toISOString(), message: { role: 'user', content: 'from pi', timestamp: 2 } };
  appendFileSync(file, JSON.stringify(foreign) + '\n');
  writeFileSync(go, '');
  assert.equal(await rewriter.exited, 0, `the rewrite failed: ${rewriter.stderr()}`);
  const after = await SessionStore.open(file);
  assert.ok(after.getEntry('foreign1'), 'the line appended during the rewrite was renamed over');
  assert.equal(after.getEntry('e0'), undefined, 'the rewrite itself must have happened (redone on the new content)');
});

test('release() after our lock was taken over does not delete the new owner\'s lock', async (t) => {
  const file = sessionWithEntries(tempDir(t, 'second-writer-release'), 1);
  const lockPath = `${file}.lock`;
  const ours = await acquireLock(file, { timeoutMs: 2_000 });
  rmSync(lockPath); // someone judged it stale and cleared it …
  const theirs = await acquireLock(file, { timeoutMs: 2_000 }); // … and took the session
  const theirRecord = readFileSync(lockPath, 'utf8');
  await ours.release();
  let still: string | undefined;
  try {
    still = readFileSync(lockPath, 'utf8');
  } catch {
    still = undefined;
  }
  assert.deepEqual(still, theirRecord, "release() deleted a lock it no longer owned");
  await theirs.release();
  assert.throws(() => readFileSync(lockPath), /ENOENT/, 'the owner releases its own lock');
});

test('an unreadable lock path (a directory) gives a clear error within the timeout, without a busy loop', async (t) => {
  const file = sessionWithEntries(tempDir(t, 'second-writer-unreadable'), 1);
  const lockPath = `${file}.lock`;
  mkdirSync(lockPath);
  t.after(() => rmSync(lockPath, { recursive: true, force: true })); // lets a looping acquire finish
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  const limit = new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 5_000));
  const outcome = await Promise.race([acquireLock(file, { timeoutMs: 1_500 }).then(() => 'taken', (error: unknown) => error), limit]);
  const wallMs = Date.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  reportFigures('second-writer-unreadable-lock', { wallMs, cpuMs: cpuMs.toFixed(0) });
  assert.ok(outcome instanceof SessionLockError, `expected a SessionLockError, got ${String(outcome)} after ${wallMs} ms (${cpuMs.toFixed(0)} ms CPU)`);
  assert.match(outcome.message, /lock/);
  assert.match(outcome.message, /director|cannot be read|EISDIR/i, 'the error says why the lock cannot be used');
  assert.ok(wallMs < 4_000, `took ${wallMs} ms for a 1.5 s timeout`);
  assert.ok(cpuMs < wallMs * 0.25, `busy loop: ${cpuMs.toFixed(0)} ms CPU over ${wallMs} ms`);
});
