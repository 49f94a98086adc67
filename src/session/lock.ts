// Cross-process write lock for one session file: `<file>.lock` created with O_EXCL. Two VS Code windows
// (or the CLI) appending to the same session take turns, so lines never interleave. A lock is taken from
// another writer only when that writer is provably gone (lock-owner.ts); a live holder, even one paused
// for minutes, is waited for until the timeout. The holder refreshes the lock's mtime (a heartbeat) so
// writers on another host can tell a live lock from an abandoned one. See docs/reliability.md.
import { open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import { SessionLockError } from './errors';
import { formatOwner, judgeLock, ownerForThisProcess, parseOwner, type LockOwner, type StalenessRules } from './lock-owner';

export { isAlive } from './lock-owner';

export interface LockOptions {
  /** give up with SessionLockError after waiting this long (default 20 s) */
  timeoutMs?: number;
  /** a heartbeat older than this marks the holder gone where its pid cannot be checked (default 30 s) */
  staleMs?: number;
  /** how often a holder refreshes its lock (default 5 s) */
  heartbeatMs?: number;
}

/** `released`: our lock removed; `not-ours`: someone else holds the path now, left alone; `missing`: already gone. */
export type ReleaseOutcome = 'released' | 'not-ours' | 'missing';

export interface HeldLock {
  release(): Promise<ReleaseOutcome>;
  /** whether the lock file still records this holder (checked before a rewrite commits) */
  stillOwned(): Promise<boolean>;
}

const DEFAULTS = { timeoutMs: 20_000, staleMs: 30_000, heartbeatMs: 5_000 };
const EMPTY_STALE_MS = 2_000;
const UNVERIFIED_PID_MS = 10 * 60_000;
const MAX_POLL_MS = 50;

export async function acquireLock(file: string, options: LockOptions = {}): Promise<HeldLock> {
  const settings = { ...DEFAULTS, ...options };
  const rules: StalenessRules = { staleMs: settings.staleMs, emptyStaleMs: Math.min(EMPTY_STALE_MS, settings.staleMs), unverifiedPidMs: Math.max(UNVERIFIED_PID_MS, settings.staleMs) };
  const lockPath = `${file}.lock`;
  const owner = ownerForThisProcess();
  const deadline = Date.now() + settings.timeoutMs;
  let delay = 1;
  let quickRetries = 0;
  for (;;) {
    if (await tryCreate(lockPath, owner)) return holdLock(lockPath, owner, settings.heartbeatMs);
    const obstacle = await clearIfStale(lockPath, rules);
    // Cleared or vanished: retry at once, but a lock that keeps changing hands must not spin forever.
    if (obstacle === undefined && quickRetries++ < 100) continue;
    if (Date.now() >= deadline) throw new SessionLockError(file, obstacle ?? 'the lock kept changing hands');
    await sleep(Math.min(delay + Math.random() * delay, Math.max(1, deadline - Date.now())));
    delay = Math.min(delay * 2, MAX_POLL_MS);
  }
}

/** true when we created the lock; false when the path exists. Other failures are thrown. */
async function tryCreate(lockPath: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(formatOwner(owner));
  } finally {
    await handle.close();
  }
  return true;
}

/** Removes the lock when its holder is gone. Returns why it was left in place, or undefined if it is gone now. */
async function clearIfStale(lockPath: string, rules: StalenessRules): Promise<string | undefined> {
  let content: string;
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(lockPath)).mtimeMs;
    content = await readFile(lockPath, 'utf8');
  } catch (error) {
    return describeUnreadable(error as NodeJS.ErrnoException);
  }
  const verdict = await judgeLock(content, Date.now() - mtimeMs, rules);
  if (!verdict.stale) return verdict.why;
  // Rename first so that two processes clearing the same stale lock cannot delete a fresh one.
  const aside = `${lockPath}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : `the stale lock cannot be removed (${(error as NodeJS.ErrnoException).code})`;
  }
  await unlink(aside).catch(() => undefined);
  return undefined;
}

function describeUnreadable(error: NodeJS.ErrnoException): string | undefined {
  if (error.code === 'ENOENT') return undefined; // released meanwhile
  if (error.code === 'EISDIR') return 'the lock path is a directory, not a lock file; remove it to unlock the session';
  return `the lock file cannot be read (${error.code ?? error.message}); remove it if no other window is writing`;
}

function holdLock(lockPath: string, owner: LockOwner, heartbeatMs: number): HeldLock {
  const stillOwned = async () => {
    const content = await readFile(lockPath, 'utf8').catch(() => '');
    return parseOwner(content)?.token === owner.token;
  };
  const heartbeat = setInterval(() => {
    void refresh(lockPath, stillOwned);
  }, heartbeatMs);
  heartbeat.unref();
  let released = false;
  const release = async (): Promise<ReleaseOutcome> => {
    clearInterval(heartbeat);
    if (released) return 'missing';
    released = true;
    return releaseIfOurs(lockPath, owner);
  };
  return { release, stillOwned };
}

async function refresh(lockPath: string, stillOwned: () => Promise<boolean>): Promise<void> {
  if (!(await stillOwned())) return;
  const now = new Date();
  await utimes(lockPath, now, now).catch(() => undefined);
}

async function releaseIfOurs(lockPath: string, owner: LockOwner): Promise<ReleaseOutcome> {
  let content: string;
  try {
    content = await readFile(lockPath, 'utf8');
  } catch {
    return 'missing';
  }
  if (parseOwner(content)?.token !== owner.token) return 'not-ours';
  await unlink(lockPath).catch(() => undefined);
  return 'released';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
