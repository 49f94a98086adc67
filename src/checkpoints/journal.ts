// The restore journal (docs/reliability.md, "file checkpoints"): before a restore changes the first
// file, a journal listing every step (file, state before, state after) is written durably. Each step is
// idempotent (write = the blob's content written over the existing file in place, overwrite.ts, or for a
// new file or a hard link copied to a temp name beside it and renamed over; delete = unlink),
// so a restore that died half-way is finished at the next start by applying every step again, then the
// journal is removed. A step that cannot be applied (its blob is gone) makes the recovery roll every
// step back to its `before` state instead. Either way the workspace ends as the state before or after
// the restore, never a mix, and no temp file is left behind.
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDir, writeFileAtomic } from '../session/files';
import { removeStaleTemps } from '../session/stale-temps';
import type { BlobStore } from './blob-store';
import { parseFileState } from './manifest';
import { overwriteInPlace } from './overwrite';
import { forEachLimited, IO_WIDTH } from './parallel';
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

export function journalDir(storeDir: string): string {
  return join(storeDir, 'journals');
}

export function newJournal(fromId: string | null, toId: string | null, steps: JournalStep[]): Journal {
  return { version: 1, id: randomBytes(8).toString('hex'), fromId, toId, steps };
}

export async function writeJournal(storeDir: string, journal: Journal): Promise<string> {
  const dir = journalDir(storeDir);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${journal.id}.json`);
  await writeFileAtomic(file, [JSON.stringify(journal)]);
  return file;
}

export async function removeJournal(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
  await syncDir(dirname(file));
}

function tempNameOf(absolute: string, journalId: string): string {
  return `${absolute}.arbor-restore-${journalId}`;
}

/**
 * Puts `state` at `absolute`; applying it twice is the same as once. Returns the file's stat when the
 * write already read it (an in-place overwrite, overwrite.ts).
 */
export async function applyState(blobs: BlobStore, absolute: string, state: FileState, journalId: string): Promise<BigIntStats | undefined> {
  if (state.kind === 'absent') {
    await unlink(absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return undefined;
  }
  if (state.kind !== 'file') throw new Error('a file that was not checkpointed cannot be restored');
  const written = overwriteInPlace(blobs.pathOf(state.hash), state.size, absolute, Boolean(state.exec));
  if (written) return written;
  const temp = tempNameOf(absolute, journalId);
  await blobs.copyTo(state.hash, temp).catch(async (error: NodeJS.ErrnoException) => {
    // The folder is created only when missing (most restores write into existing folders).
    if (error.code !== 'ENOENT') throw error;
    await mkdir(dirname(absolute), { recursive: true });
    await blobs.copyTo(state.hash, temp);
  });
  // Blobs are stored 0644 (0666 less the umask) and a copy keeps that; only executables need a chmod.
  if (state.exec) await chmod(temp, 0o755);
  await rename(temp, absolute);
  return undefined;
}

/**
 * Applies every step's `to` (or `from`, rolling back), a few files at a time: deletions first (a file
 * may have to go before a folder of the same name is created), then writes. The files touched are
 * remembered. `resolved` are the steps' paths as the plan checked them (recovery resolves each key again).
 */
export async function applySteps(files: WorkspaceFiles, journal: Journal, direction: 'to' | 'from', resolved?: readonly string[]): Promise<void> {
  const indices = journal.steps.map((_, index) => index);
  const deletes = indices.filter((i) => journal.steps[i]![direction].kind === 'absent');
  const writes = indices.filter((i) => journal.steps[i]![direction].kind !== 'absent');
  for (const group of [deletes, writes]) {
    await forEachLimited(group, IO_WIDTH, async (index) => {
      const step = journal.steps[index]!;
      const absolute = resolved?.[index] ?? (await files.resolve(step.key));
      if (absolute === undefined) throw new Error(`${step.key} is not inside the workspace`);
      const written = await applyState(files.blobs, absolute, step[direction], journal.id);
      await files.remember(absolute, step[direction], written);
    });
  }
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

export type RecoveredJournal = { file: string; outcome: 'finished' | 'rolled-back' | 'unreadable'; journal?: Journal; error?: string };

/** Finishes (or rolls back) every restore a crash interrupted; call once at start, before any capture. */
export async function recoverRestores(files: WorkspaceFiles, storeDir: string): Promise<RecoveredJournal[]> {
  const dir = journalDir(storeDir);
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

async function recoverOne(files: WorkspaceFiles, file: string, journal: Journal): Promise<RecoveredJournal> {
  try {
    await applySteps(files, journal, 'to');
    await removeTemps(files, journal);
    await removeJournal(file);
    return { file, outcome: 'finished', journal };
  } catch (error) {
    try {
      await applySteps(files, journal, 'from');
      await removeTemps(files, journal);
      await removeJournal(file);
      return { file, outcome: 'rolled-back', journal, error: (error as Error).message };
    } catch (second) {
      return { file, outcome: 'unreadable', journal, error: `${(error as Error).message}; rollback: ${(second as Error).message}` };
    }
  }
}

async function removeTemps(files: WorkspaceFiles, journal: Journal): Promise<void> {
  for (const step of journal.steps) {
    const absolute = await files.resolve(step.key);
    if (absolute === undefined) continue;
    const temp = tempNameOf(absolute, journal.id);
    if (await stat(temp).then(() => true, () => false)) await unlink(temp).catch(() => undefined);
  }
}
