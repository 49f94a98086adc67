// Small durable-write helpers: atomic replace (temp + fsync + rename + dir fsync) and never-overwriting backups.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Replaces `file` with `chunks` so that readers see either the old or the new file, never a mix.
 * `commitIf`, asked right before the rename, can call it off (the temp is removed): returns whether the
 * file was replaced.
 */
export async function writeFileAtomic(
  file: string,
  chunks: Iterable<string | Buffer>,
  commitIf: () => Promise<boolean> = async () => true,
): Promise<boolean> {
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await open(temp, 'wx');
  try {
    let batch: (string | Buffer)[] = [];
    let batchBytes = 0;
    for (const chunk of chunks) {
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= 1 << 20) {
        await writeAll(handle, joinChunks(batch));
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length > 0) await writeAll(handle, joinChunks(batch));
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  let commit: boolean;
  try {
    commit = await commitIf();
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (!commit) {
    await unlink(temp).catch(() => undefined);
    return false;
  }
  await rename(temp, file);
  await syncDir(dirname(file));
  return true;
}

/**
 * Writes all of `data` at the handle's position (the end, for append handles). A single write may store
 * only part of its bytes (full disk, file-size limit); the rest is retried, so a failure surfaces as an
 * error instead of a silently short line that was reported as written.
 */
export async function writeAll(handle: FileHandle, data: string | Buffer): Promise<void> {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, done, buffer.length - done);
    if (bytesWritten <= 0) throw new Error('the file system stored no bytes (disk full?)');
    done += bytesWritten;
  }
}

function joinChunks(chunks: (string | Buffer)[]): Buffer {
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)));
}

export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is still atomic.
  }
}

/** Copies `file` to `<file><suffix>` (or `<file><suffix>.1`, … if taken); never overwrites. */
export async function backupFile(file: string, suffix: string): Promise<string> {
  for (let n = 0; n < 1000; n++) {
    const target = n === 0 ? `${file}${suffix}` : `${file}${suffix}.${n}`;
    try {
      await copyFile(file, target, constants.COPYFILE_EXCL);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`could not find a free backup name for ${file}`);
}

export function timestampForFileName(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}
