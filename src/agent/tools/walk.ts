// Pure-Node recursive file listing used when ripgrep is not available: skips `.git` and
// `node_modules`, honours .gitignore files (from the workspace folder down), does not follow symlinks.
// A .gitignore is the repository's own input: only a regular file is read (a FIFO would block a libuv
// thread for good), at most MAX_IGNORE_BYTES of it, and its patterns are matched in linear time.
import { constants, type Dirent } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { IgnoreFile, isIgnored } from './glob';
import { throwIfAborted } from './types';

export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

const MAX_IGNORE_BYTES = 1024 * 1024;

/** Text of a regular file, opened without following a symlink and without blocking on a FIFO. */
async function readRegularFile(path: string, maxBytes: number): Promise<string | undefined> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const buf = Buffer.alloc(Math.min(stats.size, maxBytes));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

async function loadIgnore(dir: string, base: string): Promise<IgnoreFile | undefined> {
  try {
    const text = await readRegularFile(join(dir, '.gitignore'), MAX_IGNORE_BYTES);
    return text === undefined ? undefined : new IgnoreFile(base, text);
  } catch {
    return undefined;
  }
}

function toSlash(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

export interface WalkOptions {
  /** Folder whose .gitignore rules apply at the top (the workspace folder); defaults to `start`. */
  root?: string;
  signal: AbortSignal;
}

/** Yields files under `start` as paths relative to `start`, in sorted order. */
export async function* walkFiles(start: string, options: WalkOptions): AsyncGenerator<string> {
  const root = options.root ?? start;
  const stack: IgnoreFile[] = [];
  // .gitignore files between the workspace folder and the start folder apply as well.
  const between = relative(root, start);
  if (!between.startsWith('..')) {
    let dir = root;
    const parts = between === '' ? [] : between.split(sep);
    const top = await loadIgnore(root, '');
    if (top) stack.push(top);
    for (let i = 0; i < parts.length; i++) {
      dir = join(dir, parts[i]);
      const file = await loadIgnore(dir, toSlash(parts.slice(0, i + 1).join('/')));
      if (file) stack.push(file);
    }
  }
  const prefix = between === '' || between.startsWith('..') ? '' : toSlash(between);
  yield* walkDir(start, '', prefix, stack, options.signal);
}

async function* walkDir(dir: string, rel: string, prefix: string, stack: IgnoreFile[], signal: AbortSignal): AsyncGenerator<string> {
  throwIfAborted(signal);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const fromRoot = (name: string) => [prefix, rel, name].filter((s) => s !== '').join('/');
  const own = rel === '' ? undefined : await loadIgnore(dir, [prefix, rel].filter((s) => s !== '').join('/'));
  const rules = own ? [...stack, own] : stack;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (ALWAYS_SKIPPED.has(entry.name) || isIgnored(rules, fromRoot(entry.name), true)) continue;
      yield* walkDir(join(dir, entry.name), childRel, prefix, rules, signal);
    } else if (entry.isFile()) {
      if (isIgnored(rules, fromRoot(entry.name), false)) continue;
      yield childRel;
    }
  }
}
