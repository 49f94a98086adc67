// Making a restore durable before its journal goes (docs/reliability.md, "file checkpoints"). The journal
// is what repairs a restore cut short; once it is unlinked nothing can, so every file a restore wrote and
// every folder whose entries it changed (a rename, a creation, a deletion, a new folder) must be on disk
// first. A power cut then leaves either the journal (the next start applies every step again) or the
// whole restore on disk, never a half-written file with no journal.
//  - The order: apply every step → sync the files and folders → unlink the journal. Syncing a file
//    before its step is applied would be useless, and unlinking the journal before a sync returns would
//    leave that file unprotected; between the apply and the unlink the journal still covers everything.
//  - The cost: a sync waits for the disk, so one after another they would cost a disk round trip per
//    file. A file's sync starts as soon as its step wrote it, on the descriptor the write used (no second
//    open), and runs in the thread pool while the next files are written; only the journal's removal
//    waits for all of them. Data only (fdatasync: the content and the size) unless the step changed the
//    file's mode or made a new file. Each changed folder is synced once, after the last step, in parallel.
import { close, constants, fdatasync, fsync, open } from 'node:fs';
import { syncDir } from '../session/files';
import { forEachLimited, IO_WIDTH } from './parallel';

/** At most this many files wait for their sync at once (each keeps its descriptor open until then). */
export const SYNC_WIDTH = 64;

function syncFd(fd: number, withMetadata: boolean): Promise<void> {
  return new Promise((resolve, reject) => (withMetadata ? fsync : fdatasync)(fd, (error) => (error ? reject(error) : resolve())));
}

function closeFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => close(fd, (error) => (error ? reject(error) : resolve())));
}

/** The syncs one application of a journal's steps owes before the journal may be removed. */
export class RestoreSync {
  /** `syncFolder`: how a changed folder is synced (restore-folders.ts: through its confined descriptor). */
  constructor(private readonly syncFolder: (folder: string) => Promise<void> = syncDir) {}

  private readonly inFlight = new Set<Promise<void>>();
  private readonly folders = new Set<string>();
  private failure: { error: unknown } | undefined;

  /** Resolves once a descriptor more may be kept open for a sync (call before opening the file). */
  async room(): Promise<void> {
    while (this.inFlight.size >= SYNC_WIDTH) await Promise.race(this.inFlight);
  }

  /** Starts syncing the file open at `fd` (its mode and times too when `withMetadata`); then closes it. */
  syncAndClose(fd: number, withMetadata: boolean): void {
    const done = syncFd(fd, withMetadata)
      .finally(() => closeFd(fd))
      .catch((error: unknown) => void (this.failure ??= { error }))
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  /** Remembers a folder whose entries changed. */
  folderChanged(folder: string): void {
    this.folders.add(folder);
  }

  /** Waits for every file's sync and syncs every changed folder; rejects when a file could not be synced. */
  async settle(): Promise<void> {
    await Promise.all([Promise.all(this.inFlight), forEachLimited([...this.folders], IO_WIDTH, this.syncFolder)]);
    if (this.failure) throw this.failure.error;
  }
}

/**
 * Opens `file` for a later `syncAndClose` (read-write: some platforms sync only what is open for
 * writing); a symbolic link at its name is not followed.
 */
export function openForSync(file: string): Promise<number> {
  return new Promise((resolve, reject) => open(file, constants.O_RDWR | (constants.O_NOFOLLOW ?? 0), (error, fd) => (error ? reject(error) : resolve(fd))));
}
