// Housekeeping of the blob store (docs/architecture.md, "file checkpoints"): a blob stays while any live
// session names it in an `arbor.files` manifest or an unfinished restore journal needs it. Blobs newer
// than a grace period are kept too: a turn stores its blobs before its manifest is appended, so a blob
// can be unreferenced for a moment while another window is capturing. If a live session cannot be
// read, nothing is collected (a blob is never deleted on a guess).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionEntry } from '../session/entries';
import type { BlobStore, StoreSize } from './blob-store';
import { journalDir } from './journal';
import { parseFileState, readManifest } from './manifest';
import { FILES_CUSTOM_TYPE, type FileState } from './types';

export const DEFAULT_GC_GRACE_MS = 10 * 60_000;

export type GcResult =
  | { kind: 'collected'; removed: number; freedBytes: number; kept: StoreSize }
  | { kind: 'skipped'; reason: string };

function addState(into: Set<string>, state: FileState | undefined): void {
  if (state?.kind === 'file') into.add(state.hash);
}

/** Every blob hash the manifests of one session file name. */
export async function referencedBlobs(sessionFile: string, into = new Set<string>()): Promise<Set<string>> {
  const text = await readFile(sessionFile, 'utf8');
  for (const line of text.split('\n')) {
    if (!line.includes(FILES_CUSTOM_TYPE)) continue;
    let entry: SessionEntry;
    try {
      entry = JSON.parse(line) as SessionEntry;
    } catch {
      continue;
    }
    const read = readManifest(entry);
    if (read.kind !== 'manifest') continue;
    for (const state of [...Object.values(read.manifest.before), ...Object.values(read.manifest.after)]) addState(into, state);
  }
  return into;
}

async function journalBlobs(storeDir: string, into: Set<string>): Promise<void> {
  const dir = journalDir(storeDir);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    try {
      const journal = JSON.parse(text) as { steps?: { from?: unknown; to?: unknown }[] };
      for (const step of journal.steps ?? []) {
        addState(into, parseFileState(step.from));
        addState(into, parseFileState(step.to));
      }
    } catch {
      // An unreadable journal names nothing that recovery could use.
    }
  }
}

/** Removes blobs no live session and no journal names; `liveSessions` are session file paths. */
export async function collectGarbage(blobs: BlobStore, liveSessions: readonly string[], options: { graceMs?: number; now?: number } = {}): Promise<GcResult> {
  const live = new Set<string>();
  for (const file of liveSessions) {
    try {
      await referencedBlobs(file, live);
    } catch (error) {
      return { kind: 'skipped', reason: `could not read ${file}: ${(error as Error).message}` };
    }
  }
  await journalBlobs(blobs.dir, live);
  const cutoff = (options.now ?? Date.now()) - (options.graceMs ?? DEFAULT_GC_GRACE_MS);
  let removed = 0;
  let freedBytes = 0;
  for (const blob of await blobs.list()) {
    if (live.has(blob.hash) || blob.mtimeMs > cutoff) continue;
    await blobs.remove(blob.hash);
    removed++;
    freedBytes += blob.bytes;
  }
  return { kind: 'collected', removed, freedBytes, kept: await blobs.size() };
}
