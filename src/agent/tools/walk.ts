// Pure-Node recursive file listing used when ripgrep is not available: skips `.git` and
// `node_modules`, honours .gitignore files (from the workspace folder down), does not follow symlinks.
import type { Dirent } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { IgnoreFile, isIgnored } from './glob';
import { throwIfAborted } from './types';

export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

async function loadIgnore(dir: string, base: string): Promise<IgnoreFile | undefined> {
  try {
    return new IgnoreFile(base, await readFile(join(dir, '.gitignore'), 'utf8'));
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
