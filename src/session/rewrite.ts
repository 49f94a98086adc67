// Pieces of the atomic rewrite (pruning, migration; SessionStore.rewriteEntries): validating the new entry
// list, and noticing that the file changed between reading it and renaming the new one over it. A rewrite
// that would rename over a line another writer appended meanwhile is redone instead (docs/reliability.md).
import { readFile, stat } from 'node:fs/promises';
import type { SessionEntry, SessionHeader } from './entries';
import type { EntryIndex } from './entry-index';
import { SessionLockError } from './errors';
import type { FileTail } from './file-tail';
import { backupFile, writeFileAtomic } from './files';
import type { HeldLock } from './lock';
import { hasEntryBase } from './schema';

/** How often a rewrite is redone on fresh content before it gives up with SessionChangedError. */
export const MAX_REWRITE_ATTEMPTS = 3;

/** What identifies one version of the file cheaply: replaced (ino), appended to (size), edited (mtime). */
export interface FileFingerprint {
  ino: number;
  size: number;
  mtimeMs: number;
}

export async function fingerprint(file: string): Promise<FileFingerprint> {
  const info = await stat(file);
  return { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
}

export function sameFingerprint(a: FileFingerprint, b: FileFingerprint): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

export function checkRewrite(entries: readonly SessionEntry[]): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!hasEntryBase(entry)) throw new Error('rewriteEntries: every entry needs type, id, parentId and timestamp');
    if (seen.has(entry.id)) throw new Error(`rewriteEntries: duplicate entry id ${entry.id}`);
    seen.add(entry.id);
  }
}

export function* interleaveNewlines(lines: readonly Buffer[]): Generator<Buffer | string> {
  for (const line of lines) {
    yield line;
    yield '\n';
  }
}

/**
 * An entry's line in the rewritten file: its bytes as read (`raw`) when unchanged since load, else fresh
 * JSON. A malformed line (`opaque`: the value read from the file) goes back exactly as it was.
 */
export function serializeEntry(entry: SessionEntry, raw: Buffer | undefined, opaque: { value: unknown } | undefined): Buffer {
  if (raw !== undefined) {
    if (opaque) return raw;
    if (JSON.stringify(JSON.parse(raw.toString('utf8'))) === JSON.stringify(entry)) return raw;
  }
  return Buffer.from(JSON.stringify(opaque ? opaque.value : entry));
}

/** What one rewrite attempt wrote: the new entry list and every line of the new file (lead lines first). */
export interface RewriteWritten {
  backupPath: string;
  result: SessionEntry[];
  lines: Buffer[];
}

/** The store's parts one rewrite attempt reads: the file as last seen and the indexed entries. */
export interface RewriteSource {
  file: string;
  header: SessionHeader;
  tail: FileTail;
  index: EntryIndex;
}

/**
 * One rewrite attempt (caller holds `lock`): backs the file up, then renames `mutate(entries)` over it only if
 * the file is still the one read. Undefined when the file changed under it (nothing was replaced).
 */
export async function attemptRewrite(
  source: RewriteSource,
  mutate: (entries: SessionEntry[]) => SessionEntry[] | void,
  backupSuffix: string,
  lock: HeldLock,
): Promise<RewriteWritten | undefined> {
  const { file, tail, index } = source;
  const read = await fingerprint(file);
  if (!tail.isAsRead(read)) return undefined;
  const original = index.entries.slice();
  const result = mutate(original) ?? original;
  checkRewrite(result);
  const rawFile = await readFile(file);
  if (rawFile.length !== read.size) return undefined;
  const backupPath = await backupFile(file, backupSuffix);
  const lines = [...tail.leadLines(rawFile, source.header), ...index.serializeAll(result, rawFile)];
  const committed = await writeFileAtomic(file, interleaveNewlines(lines), () => stillAsRead(file, read, lock));
  return committed ? { backupPath, result, lines } : undefined;
}

/** Right before the rename: our lock is still ours and nobody touched the file since `read`. */
async function stillAsRead(file: string, read: FileFingerprint, lock: HeldLock): Promise<boolean> {
  if (!(await lock.stillOwned())) {
    throw new SessionLockError(file, 'another writer took the lock over during the rewrite; nothing was rewritten');
  }
  return sameFingerprint(read, await fingerprint(file));
}
