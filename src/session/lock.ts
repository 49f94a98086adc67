// Cross-process write lock for one session file: `<file>.lock` created with O_EXCL. Two VS Code windows
// (or the CLI) appending to the same session take turns, so lines never interleave. A lock left behind by
// a crashed process is detected (dead pid on this host, or older than STALE_MS) and removed.
import { hostname } from 'node:os';
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { SessionLockError } from './errors';

const STALE_MS = 30_000;
/** A live writer fills its lock within microseconds of creating it; an empty lock this old is a crash's. */
const EMPTY_STALE_MS = 2_000;
const TIMEOUT_MS = 20_000;

export interface HeldLock {
  release(): Promise<void>;
}

export async function acquireLock(file: string, timeoutMs = TIMEOUT_MS): Promise<HeldLock> {
  const lockPath = `${file}.lock`;
  const started = Date.now();
  let delay = 1;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(`${process.pid} ${hostname()} ${Date.now()}\n`);
      } finally {
        await handle.close();
      }
      return { release: () => unlink(lockPath).catch(() => undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await removeIfStale(lockPath)) continue;
    if (Date.now() - started > timeoutMs) throw new SessionLockError(file);
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 25);
  }
}

async function removeIfStale(lockPath: string): Promise<boolean> {
  let content: string;
  let mtimeMs: number;
  try {
    content = await readFile(lockPath, 'utf8');
    mtimeMs = (await stat(lockPath)).mtimeMs;
  } catch {
    return true; // vanished meanwhile: retry at once
  }
  const [pidText, host] = content.trim().split(' ');
  const pid = Number(pidText);
  const deadHere = host === hostname() && Number.isInteger(pid) && pid > 0 && !isAlive(pid);
  // An empty lock file can be a writer between create and write, but only for an instant: one that
  // stays empty was left by a writer killed in between (it would otherwise block the session for STALE_MS).
  const age = Date.now() - mtimeMs;
  const emptyAndOld = content.trim() === '' && age > EMPTY_STALE_MS;
  if (!deadHere && !emptyAndOld && age < STALE_MS) return false;
  // Rename first so that two processes clearing the same stale lock cannot delete a fresh one.
  const aside = `${lockPath}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(lockPath, aside);
    await unlink(aside);
  } catch {
    // someone else cleared it
  }
  return true;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
