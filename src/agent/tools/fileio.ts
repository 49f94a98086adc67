// Small file helpers shared by write and edit.
import { lstat, type FileHandle } from 'node:fs/promises';
import { readAll } from './confined-open';
import { looksBinary } from './text';

/** Previous text of an opened file for the diff view: undefined if binary or too big. */
export async function previousTextOf(handle: FileHandle, size: number, maxBytes: number): Promise<string | undefined> {
  if (size > maxBytes) return undefined;
  const buf = await readAll(handle, size);
  return looksBinary(buf) ? undefined : buf.toString('utf8');
}

export async function existsAsDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}
