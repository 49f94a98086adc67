// Leftovers of killed rewrites: `writeFileAtomic` writes `<session>.tmp-<pid>-<hex>` and renames it over the
// session; a writer killed before the rename leaves the temp behind. It never holds anything the session
// lacks (the rename is what commits), so it is only clutter, but it can be as large as the session.
import { readdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isAlive } from './lock';

/** A temp this old is abandoned even if its pid was reused by a live process. */
const ABANDONED_MS = 10 * 60_000;

const TEMP_NAME = /^\.tmp-(\d+)-[0-9a-f]+$/;

/**
 * Removes the temps of `file` whose writer is gone. Call only while holding the session's write lock:
 * rewrites happen under it, so no live rewrite of this file can own a temp then, except one whose lock
 * was judged stale; the pid check keeps those.
 */
export async function removeStaleTemps(file: string, now = Date.now()): Promise<string[]> {
  const dir = dirname(file);
  const prefix = basename(file);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = TEMP_NAME.exec(name.slice(prefix.length));
    if (!match) continue;
    const path = join(dir, name);
    if (await isAbandoned(path, Number(match[1]), now)) {
      await unlink(path).then(() => removed.push(path), () => undefined);
    }
  }
  return removed;
}

async function isAbandoned(path: string, pid: number, now: number): Promise<boolean> {
  if (pid !== process.pid && !isAlive(pid)) return true;
  try {
    return now - (await stat(path)).mtimeMs > ABANDONED_MS;
  } catch {
    return false;
  }
}
