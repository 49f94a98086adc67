// Opening a workspace folder one component at a time without following symbolic links: the one home of
// the confinement every writer of the workspace uses (the tools' confined-open.ts, the restore's
// src/checkpoints/restore-folders.ts; docs/reliability.md, "another local process"). Node has no `openat`:
// on Linux a folder's descriptor is reached again as /proc/self/fd/N, so `/proc/self/fd/N/name` is looked
// up inside the very folder that descriptor holds, whatever was renamed or swapped since, and with
// O_NOFOLLOW|O_DIRECTORY a symbolic link found there is refused instead of followed.
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, type FileHandle } from 'node:fs/promises';

export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

/** True where folders can be opened through their parent's descriptor (Linux with /proc). */
export const VIA_PROC = process.platform === 'linux' && existsSync('/proc/self/fd');

/** A symbolic link (or a file) sat where a folder of the path was expected: nothing was opened. */
export class LinkOnPath extends Error {
  readonly code = 'ELOOP';
  constructor(readonly path: string) {
    super(`${path} is a symbolic link, not a folder: it changed while it was being opened`);
  }
}

export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? '';
}

/** The path naming `name` inside the folder open at descriptor `fd`, looked up there and nowhere else. */
export function inFolder(fd: number, name: string): string {
  return `/proc/self/fd/${fd}/${name}`;
}

/** Opens a root folder the caller checked (its own path is followed: it is the workspace's real path). */
export function openRootFolder(root: string): Promise<FileHandle> {
  return open(root, constants.O_RDONLY | DIRECTORY);
}

/**
 * Opens the folder `name` inside the folder open as `dir`, refusing a symbolic link (LinkOnPath); with
 * `create`, makes it when missing. `created`: this call made it (its parent's entries changed).
 */
export async function openChildFolder(dir: FileHandle, name: string, create: boolean): Promise<{ handle: FileHandle; created: boolean }> {
  const path = inFolder(dir.fd, name);
  try {
    return { handle: await openNoFollow(path, name), created: false };
  } catch (error) {
    if (!create || codeOf(error) !== 'ENOENT') throw error;
  }
  const created = await mkdir(path).then(() => true, (error: unknown) => (codeOf(error) === 'EEXIST' ? false : Promise.reject(error)));
  return { handle: await openNoFollow(path, name), created };
}

async function openNoFollow(path: string, name: string): Promise<FileHandle> {
  try {
    return await open(path, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (error) {
    // O_DIRECTORY|O_NOFOLLOW on a symlink says ENOTDIR, like a file would: tell the two apart.
    if (codeOf(error) === 'ELOOP' || (codeOf(error) === 'ENOTDIR' && (await lstat(path).catch(() => undefined))?.isSymbolicLink())) throw new LinkOnPath(name);
    throw error;
  }
}

/** Opens `root`, then each folder of `parts` below it through the previous one's descriptor (Linux). */
export async function openFolderChain(root: string, parts: readonly string[], create: boolean): Promise<FileHandle> {
  let dir = await openRootFolder(root);
  try {
    for (const part of parts) {
      const { handle } = await openChildFolder(dir, part, create);
      await dir.close();
      dir = handle;
    }
    return dir;
  } catch (error) {
    await dir.close();
    throw error;
  }
}
