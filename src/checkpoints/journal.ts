// The restore journal (docs/reliability.md, "file checkpoints"): before a restore changes the first
// file, a journal listing every step (file, state before, state after) is written durably. Each step is
// idempotent (write = the blob's content written over the existing file in place, overwrite.ts, or for a
// new file or a hard link copied to a temp name beside it and renamed over; delete = unlink; every one
// through its folder opened without following links, restore-folders.ts),
// so a restore that died half-way is finished at the next start by applying every step again, then the
// journal is removed. A step that cannot be applied (its blob is gone) makes the recovery roll every
// step back to its `before` state instead. Either way the workspace ends as the state before or after
// the restore, never a mix, and no temp file is left behind. Journals live in Arbor's own storage (the
// caller's `stateDir`), never in the sessions folder, which a repository may have committed; recovery
// leaves every step on a protected path (src/agent/tools/write-policy.ts) alone and names it, and a blob
// from a store it cannot trust is checked against its hash just before it is written (blob-store.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, type BigIntStats } from 'node:fs';
import { mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDir, writeFileAtomic } from '../session/files';
import { removeStaleTemps } from '../session/stale-temps';
import type { BlobStore } from './blob-store';
import { openForSync, RestoreSync } from './durable';
import { parseFileState } from './manifest';
import { overwriteInPlace } from './overwrite';
import { forEachLimited, IO_WIDTH } from './parallel';
import { RestoreFolders, type OpenFolder } from './restore-folders';
import type { FileKey, FileState } from './types';
import type { WorkspaceFiles } from './workspace-files';

export interface JournalStep {
  key: FileKey;
  from: FileState;
  to: FileState;
}

export interface Journal {
  version: 1;
  id: string;
  fromId: string | null;
  toId: string | null;
  steps: JournalStep[];
}

/** The journals' folder below `stateDir` (Arbor's own storage for this workspace and store). */
export function journalDir(stateDir: string): string {
  return join(stateDir, 'journals');
}

export function newJournal(fromId: string | null, toId: string | null, steps: JournalStep[]): Journal {
  return { version: 1, id: randomBytes(8).toString('hex'), fromId, toId, steps };
}

export async function writeJournal(stateDir: string, journal: Journal): Promise<string> {
  const dir = journalDir(stateDir);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${journal.id}.json`);
  await writeFileAtomic(file, [JSON.stringify(journal)]);
  return file;
}

export async function removeJournal(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
  await syncDir(dirname(file));
}

function tempNameOf(name: string, journalId: string): string {
  return `${name}.arbor-restore-${journalId}`;
}

/**
 * Puts `state` at `absolute`; applying it twice is the same as once. Returns the file's stat when the
 * write already read it (an in-place overwrite, overwrite.ts). Every operation goes through the file's
 * folder opened without following links (restore-folders.ts); what must reach the disk goes to `sync`.
 */
export async function applyState(blobs: BlobStore, folders: RestoreFolders, absolute: string, state: FileState, journalId: string, sync: RestoreSync, inPlace = true): Promise<BigIntStats | undefined> {
  const name = basename(absolute);
  if (state.kind === 'absent') {
    const removed = await folders.within(dirname(absolute), false, (dir) => unlink(dir.child(name))).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      return false;
    });
    if (removed) sync.folderChanged(dirname(absolute));
    return undefined;
  }
  if (state.kind !== 'file') throw new Error('a file that was not checkpointed cannot be restored');
  if (!(await blobs.verified(state.hash))) throw new Error(`the stored content ${state.hash.slice(0, 12)}… does not match its hash`);
  await sync.room();
  return folders.within(dirname(absolute), true, async (dir) => {
    const written = inPlace && overwriteInPlace(blobs.pathOf(state.hash), state.size, dir.child(name), Boolean(state.exec), (fd, modeChanged) => sync.syncAndClose(fd, modeChanged));
    if (written) return written;
    await replaceThroughTemp(blobs, dir, name, state, tempNameOf(name, journalId), sync);
    return undefined;
  });
}

/** A new file, a hard link or a large content: copied to a temp name in the same folder and renamed over it. */
async function replaceThroughTemp(blobs: BlobStore, dir: OpenFolder, name: string, state: FileState & { kind: 'file' }, temp: string, sync: RestoreSync): Promise<void> {
  // A temp file a cut restore left (same journal) is replaced; nothing at that name is followed.
  await blobs.copyTo(state.hash, dir.child(temp)).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
    await unlink(dir.child(temp));
    await blobs.copyTo(state.hash, dir.child(temp));
  });
  // Opened before the rename, so the sync reaches the very file renamed (a new inode: with its metadata).
  const fd = await openForSync(dir.child(temp));
  try {
    // Blobs are stored 0644 (0666 less the umask) and a copy keeps that; only executables need a chmod.
    if (state.exec) fchmodSync(fd, 0o755);
    await rename(dir.child(temp), dir.child(name));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  sync.syncAndClose(fd, true);
  sync.folderChanged(dir.path);
}

/**
 * Applies every step's `to` (or `from`, rolling back), a few files at a time: deletions first (a file
 * may have to go before a folder of the same name is created), then writes. The files touched are
 * remembered. `resolved` are the steps' paths as the plan checked them (recovery resolves each key again).
 * Resolves once all of it is on disk (durable.ts): only then may the journal be removed. `whole`: keys
 * never overwritten in place (protected files: a cut write leaves them old or new, never torn).
 */
export async function applySteps(files: WorkspaceFiles, journal: Journal, direction: 'to' | 'from', resolved?: readonly string[], whole?: ReadonlySet<FileKey>): Promise<void> {
  const indices = journal.steps.map((_, index) => index);
  const deletes = indices.filter((i) => journal.steps[i]![direction].kind === 'absent');
  const writes = indices.filter((i) => journal.steps[i]![direction].kind !== 'absent');
  const { folders, sync } = restoreIo(files);
  try {
    for (const group of [deletes, writes]) {
      await forEachLimited(group, IO_WIDTH, async (index) => {
        const step = journal.steps[index]!;
        const absolute = resolved?.[index] ?? (await files.resolve(step.key));
        if (absolute === undefined) throw new Error(`${step.key} is not inside the workspace`);
        const written = await applyState(files.blobs, folders, absolute, step[direction], journal.id, sync, !whole?.has(step.key));
        await files.remember(absolute, step[direction], written);
      });
    }
  } catch (error) {
    // The descriptors still syncing are closed before the caller rolls back or gives up.
    await sync.settle().catch(() => undefined);
    await folders.close();
    throw error;
  }
  await sync.settle().finally(() => folders.close());
}

/** The confined folders and the pending syncs of one application of a journal. */
function restoreIo(files: WorkspaceFiles): { folders: RestoreFolders; sync: RestoreSync } {
  let sync: RestoreSync | undefined;
  const folders = new RestoreFolders(files.roots.map((root) => root.real), (parent) => sync!.folderChanged(parent));
  sync = new RestoreSync((folder) => folders.sync(folder));
  return { folders, sync };
}

function parseJournal(text: string): Journal | undefined {
  try {
    const value = JSON.parse(text) as Journal;
    if (value?.version !== 1 || typeof value.id !== 'string' || !/^[0-9a-f]{16}$/.test(value.id) || !Array.isArray(value.steps)) return undefined;
    const steps: JournalStep[] = [];
    for (const step of value.steps) {
      const from = parseFileState(step?.from);
      const to = parseFileState(step?.to);
      if (typeof step?.key !== 'string' || !from || !to) return undefined;
      steps.push({ key: step.key, from, to });
    }
    return { version: 1, id: value.id, fromId: value.fromId ?? null, toId: value.toId ?? null, steps };
  } catch {
    return undefined;
  }
}

export type RecoveredJournal = {
  file: string;
  outcome: 'finished' | 'rolled-back' | 'unreadable';
  journal?: Journal;
  error?: string;
  /** keys of protected files the recovery left as they were (never written at start) */
  leftAlone?: FileKey[];
};

/**
 * Finishes (or rolls back) every restore a crash interrupted; call once at start, before any capture.
 * `stateDir`: Arbor's own storage, where applyRestore wrote the journals (never the sessions folder).
 */
export async function recoverRestores(files: WorkspaceFiles, stateDir: string): Promise<RecoveredJournal[]> {
  const dir = journalDir(stateDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: RecoveredJournal[] = [];
  // A journal whose write was cut before its rename was never in place: no restore step ran after it.
  for (const name of names) {
    const temp = /^([0-9a-f]{16}\.json)\.tmp-/.exec(name);
    if (temp) await removeStaleTemps(join(dir, temp[1]!));
  }
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = join(dir, name);
    const journal = parseJournal(await readFile(file, 'utf8').catch(() => ''));
    if (!journal) {
      out.push({ file, outcome: 'unreadable' });
      continue;
    }
    out.push(await recoverOne(files, file, journal));
  }
  return out;
}

/** The journal without its steps on protected paths (and those keys): recovery never writes them. */
async function withoutProtected(files: WorkspaceFiles, journal: Journal): Promise<{ journal: Journal; leftAlone: FileKey[] }> {
  const resolved = await Promise.all(journal.steps.map((step) => files.resolve(step.key)));
  // Judged together, as the restore that wrote the journal was: files that would make a git folder count.
  const policy = files.writePolicy(resolved.filter((p, i): p is string => p !== undefined && journal.steps[i]!.to.kind === 'file'));
  const leftAlone: FileKey[] = [];
  for (const [index, step] of journal.steps.entries()) {
    const absolute = resolved[index];
    const match = absolute === undefined ? undefined : await policy.protectedMatch(absolute, files.locate(step.key)?.rel).catch(() => ({ kind: 'agent' as const, rule: 'unchecked' }));
    if (match) leftAlone.push(step.key);
  }
  return { journal: { ...journal, steps: journal.steps.filter((step) => !leftAlone.includes(step.key)) }, leftAlone };
}

async function recoverOne(files: WorkspaceFiles, file: string, original: Journal): Promise<RecoveredJournal> {
  const { journal, leftAlone } = await withoutProtected(files, original);
  const named = leftAlone.length > 0 ? { leftAlone } : {};
  try {
    await applySteps(files, journal, 'to');
    await removeTemps(files, original);
    await removeJournal(file);
    return { file, outcome: 'finished', journal: original, ...named };
  } catch (error) {
    try {
      await applySteps(files, journal, 'from');
      await removeTemps(files, original);
      await removeJournal(file);
      return { file, outcome: 'rolled-back', journal: original, error: (error as Error).message, ...named };
    } catch (second) {
      return { file, outcome: 'unreadable', journal: original, error: `${(error as Error).message}; rollback: ${(second as Error).message}`, ...named };
    }
  }
}

/** Removes the temp files a cut restore left; their folders are synced, as the journal goes next. */
async function removeTemps(files: WorkspaceFiles, journal: Journal): Promise<void> {
  const folders = new RestoreFolders(files.roots.map((root) => root.real), () => undefined);
  const changed = new Set<string>();
  try {
    for (const step of journal.steps) {
      const absolute = await files.resolve(step.key);
      if (absolute === undefined) continue;
      const temp = tempNameOf(basename(absolute), journal.id);
      const removed = await folders.within(dirname(absolute), false, (dir) => unlink(dir.child(temp))).then(() => true, () => false);
      if (removed) changed.add(dirname(absolute));
    }
    await forEachLimited([...changed], IO_WIDTH, (folder) => folders.sync(folder));
  } finally {
    await folders.close();
  }
}
