// A restore step that writes a file's content over the existing file in place (docs/reliability.md,
// "file checkpoints"). A temp file renamed over the target costs a new inode and the old one's release
// per file, which made a restore three times the cost of copying the same files; the journal already
// makes every step repeatable after a crash, so the temp file bought only that a reader never sees a
// half-written file (the agent's `write` and `edit` tools write in place too).
//  - Only a regular file with a single link is overwritten: the open does not follow a symbolic link and
//    does not wait on a FIFO, and a hard link (a second name, maybe outside the workspace) would be
//    changed through the other name, so those go through the temp file and rename as before.
//  - The content is written first and the file cut to its length after, so the file is never empty in
//    between (and ext4 does not force a write-back on close, as it does after a truncation to zero).
//  - The calls are synchronous: small files (up to IN_PLACE_MAX_BYTES), all page-cache work; six
//    round trips through the thread pool per file cost more than the writes themselves. The descriptor
//    is then handed to the caller, which syncs the file in the background before closing it (durable.ts).
import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, openSync, readFileSync, writeSync, type BigIntStats } from 'node:fs';

/** Larger contents take the asynchronous temp-file path. */
export const IN_PLACE_MAX_BYTES = 1 << 20;

const CAN_OVERWRITE = constants.O_NOFOLLOW !== undefined && constants.O_NONBLOCK !== undefined;

/** Takes the descriptor of a file just written (and must close it); `modeChanged`: its mode was set too. */
export type HandOver = (fd: number, modeChanged: boolean) => void;

/**
 * Writes the blob at `blobFile` over `absolute` when that is an existing regular file with one link;
 * returns its stat after the write (its descriptor went to `handOver`), or undefined when it was left
 * untouched (missing, a link, not a file).
 */
export function overwriteInPlace(blobFile: string, size: number, absolute: string, exec: boolean, handOver: HandOver): BigIntStats | undefined {
  if (!CAN_OVERWRITE || size > IN_PLACE_MAX_BYTES) return undefined;
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  let handed = false;
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.nlink !== 1) return undefined;
    const content = readFileSync(blobFile);
    for (let done = 0; done < content.length; ) {
      const written = writeSync(fd, content, done, content.length - done, done);
      if (written <= 0) throw new Error('the file system stored no bytes (disk full?)');
      done += written;
    }
    ftruncateSync(fd, content.length);
    // Only the executable bits follow the state (set where the file is readable); the rest of the mode stays.
    const modeChanged = ((info.mode & 0o111) !== 0) !== exec;
    if (modeChanged) fchmodSync(fd, exec ? info.mode | ((info.mode & 0o444) >> 2) : info.mode & ~0o111);
    const written = fstatSync(fd, { bigint: true });
    handed = true;
    handOver(fd, modeChanged);
    return written;
  } finally {
    if (!handed) closeSync(fd);
  }
}
