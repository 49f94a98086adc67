// Opens a file the workspace check (paths.ts) approved without resolving its path again: a symlink
// swapped in between the check and the open must not lead a read or a write outside the workspace
// (docs/reliability.md, "another local process"). On Linux every folder from the workspace root down is
// opened with O_NOFOLLOW through the previous folder's descriptor (confined-folders.ts), so no component
// is looked up by name twice. Elsewhere the file is opened with O_NOFOLLOW and its descriptor compared
// (device, inode) with the checked path. Only regular files are opened:
// FIFOs, sockets and devices are refused without blocking (O_NONBLOCK), so no libuv thread waits forever.
import { constants, type Stats } from 'node:fs';
import { mkdir, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, relative, sep } from 'node:path';
import { codeOf, inFolder, NOFOLLOW, openFolderChain, VIA_PROC } from './confined-folders';
import { isInside } from './paths';
import { ToolError } from './types';

const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Where a file is: the real workspace root it was checked against, its real path, how it is shown. */
export interface ConfinedPath {
  root: string;
  absolute: string;
  display: string;
}

export type OpenMode = 'read' | 'update';

export interface OpenedFile {
  handle: FileHandle;
  stats: Stats;
  /** the file did not exist and was created empty (writes only) */
  created: boolean;
}

function changedUnderUs(target: ConfinedPath): ToolError {
  return new ToolError(
    `${target.display} changed while it was being opened (a symbolic link appeared on its path); nothing was read or written. Try again.`,
  );
}

function notRegular(target: ConfinedPath, stats?: Stats): ToolError {
  if (stats?.isDirectory()) return new ToolError(`${target.display} is a folder, not a file.`);
  return new ToolError(`${target.display} is not a regular file (a FIFO, socket or device); tools only read and change regular files.`);
}

/** Maps errno codes of the open itself to clear errors; others go up unchanged. */
function openError(target: ConfinedPath, error: unknown): unknown {
  const code = codeOf(error);
  if (code === 'ELOOP' || code === 'EMLINK') return changedUnderUs(target);
  if (code === 'ENXIO' || code === 'EOPNOTSUPP') return notRegular(target);
  if (code === 'EISDIR') return notRegular(target, { isDirectory: () => true } as Stats);
  if (code === 'ENOTDIR') return new ToolError(`Cannot open ${target.display}: a parent of it is a file, not a folder.`);
  return error;
}

function partsBelowRoot(root: string, folder: string): string[] {
  const rel = relative(root, folder);
  return rel === '' ? [] : rel.split(sep);
}

/** Opens each folder from `root` down through `parts` without following symlinks (Linux). */
async function openChain(target: ConfinedPath, parts: readonly string[], createFolders: boolean): Promise<FileHandle> {
  try {
    return await openFolderChain(target.root, parts, createFolders);
  } catch (error) {
    throw openError(target, error);
  }
}

async function openNamed(target: ConfinedPath, flags: number, createFolders: boolean): Promise<FileHandle> {
  if (!VIA_PROC) {
    if (createFolders) await mkdir(dirname(target.absolute), { recursive: true });
    return open(target.absolute, flags | NOFOLLOW | NONBLOCK, 0o666);
  }
  const dir = await openChain(target, partsBelowRoot(target.root, dirname(target.absolute)), createFolders);
  try {
    return await open(inFolder(dir.fd, basename(target.absolute)), flags | NOFOLLOW | NONBLOCK, 0o666);
  } finally {
    await dir.close();
  }
}

/** Without /proc: the opened descriptor must be the file the checked path names now, inside the root. */
async function verifyByIdentity(target: ConfinedPath, stats: Stats): Promise<boolean> {
  if (VIA_PROC) return true;
  const real = await realpath(target.absolute).catch(() => undefined);
  if (real === undefined || !isInside(target.root, real)) return false;
  const named = await stat(real).catch(() => undefined);
  return named !== undefined && named.dev === stats.dev && named.ino === stats.ino;
}

async function finish(target: ConfinedPath, handle: FileHandle, created: boolean): Promise<OpenedFile> {
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(target, stats);
    if (!(await verifyByIdentity(target, stats))) throw changedUnderUs(target);
    return { handle, stats, created };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Opens an existing regular file for reading, or for reading and writing in place (`update`). */
export async function openConfined(target: ConfinedPath, mode: OpenMode): Promise<OpenedFile> {
  const flags = mode === 'read' ? constants.O_RDONLY : constants.O_RDWR;
  let handle: FileHandle;
  try {
    handle = await openNamed(target, flags, false);
  } catch (error) {
    throw openError(target, error);
  }
  return finish(target, handle, false);
}

/** Opens a regular file for a whole-file write, creating it (and missing folders) when absent. */
export async function openConfinedForWrite(target: ConfinedPath): Promise<OpenedFile> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await finish(target, await openNamed(target, constants.O_RDWR, true), false);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw openError(target, error);
    }
    try {
      return await finish(target, await openNamed(target, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, true), true);
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw openError(target, error);
    }
  }
  throw changedUnderUs(target);
}

/** Reads the whole file through the handle (positional, so the handle's offset does not matter). */
export async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  const buf = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const { bytesRead } = await handle.read(buf, done, size - done, done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buf.subarray(0, done);
}

/** Replaces the whole content of the file behind `handle`. */
export async function replaceContent(handle: FileHandle, data: Buffer): Promise<void> {
  await handle.truncate(0);
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, done);
    done += bytesWritten;
  }
}

export interface HeldFolder {
  /** path a child process can start in: it names the folder that was opened, whatever is renamed since */
  cwd: string;
  close(): Promise<void>;
}

/**
 * Holds a workspace folder open for a child process (ripgrep) to start in. On Linux the child's cwd is
 * the parent's descriptor (/proc/<pid>/fd/N), so a folder swapped for a symlink after the workspace
 * check cannot send the search outside; elsewhere it is the checked path.
 */
export async function holdFolder(target: ConfinedPath): Promise<HeldFolder> {
  if (!VIA_PROC) return { cwd: target.absolute, close: async () => undefined };
  const dir = await openChain(target, partsBelowRoot(target.root, target.absolute), false);
  return { cwd: `/proc/${process.pid}/fd/${dir.fd}`, close: () => dir.close() };
}
