// Small file helpers shared by write and edit.
import { lstat, readFile, stat } from 'node:fs/promises';
import { looksBinary } from './text';

/** Previous text of a file for the diff view: null if it did not exist, undefined if binary or too big. */
export async function previousText(path: string, maxBytes: number): Promise<string | null | undefined> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    size = info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (size > maxBytes) return undefined;
  const buf = await readFile(path);
  return looksBinary(buf) ? undefined : buf.toString('utf8');
}

export async function existsAsDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}
