// Pieces of the atomic rewrite (pruning, migration; SessionStore.rewriteEntries): validating the new entry
// list, and noticing that the file changed between reading it and renaming the new one over it. A rewrite
// that would rename over a line another writer appended meanwhile is redone instead (docs/reliability.md).
import { stat } from 'node:fs/promises';
import type { SessionEntry } from './entries';
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
