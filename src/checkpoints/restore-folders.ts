// The folders one application of a restore journal writes into, opened without following links
// (docs/reliability.md, "another local process"). The plan checked every path once; a local process could
// then swap a folder on the way for a symbolic link to an outside folder, and a write, a deletion or a
// temp file named by path would land there. So each folder is opened from its workspace root down, one
// component at a time through its parent's descriptor, refusing a link (src/agent/tools/confined-folders.ts,
// the tools' confinement), and every file operation of the restore names `/proc/self/fd/N/name`: looked up
// in the folder that was opened, whatever is renamed since. A folder is opened once per application (its
// descriptor kept, at most KEEP_OPEN idle ones) and synced through that same descriptor.
// Without /proc (macOS, Windows) the folder's real path is checked just before each use instead: the
// window between the check and the use stays, as the threat model says.
import { mkdir, realpath, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { codeOf, inFolder, LinkOnPath, openChildFolder, openRootFolder, VIA_PROC } from '../agent/tools/confined-folders';
import { isInside } from '../agent/tools/paths';
import { syncDir } from '../session/files';

/** Idle folder descriptors kept open for later steps; older idle ones are closed past this. */
export const KEEP_OPEN = 128;

/** A folder of the restore, open: `child(name)` is the path to hand to a file operation. */
export interface OpenFolder {
  /** the folder's real path as the plan saw it (for messages and the sync list) */
  path: string;
  child(name: string): string;
  /** syncs the folder's entries (through its descriptor) */
  sync(): Promise<void>;
}

interface Entry {
  handle: Promise<FileHandle>;
  users: number;
}

export class RestoreFolders {
  private readonly entries = new Map<string, Entry>();

  /** `roots`: the workspace folders' real paths; `created(parent)`: a folder was made in `parent`. */
  constructor(
    private readonly roots: readonly string[],
    private readonly created: (parent: string) => void,
  ) {}

  /** Runs `use` with the folder `folder` (a real path inside a root) open; `create`: make missing folders. */
  async within<T>(folder: string, create: boolean, use: (dir: OpenFolder) => Promise<T> | T): Promise<T> {
    if (!VIA_PROC) return use(await this.checkedByPath(folder, create));
    const entry = await this.acquire(folder, create);
    try {
      const handle = await entry.handle;
      return await use({ path: folder, child: (name) => inFolder(handle.fd, name), sync: () => handle.sync() });
    } finally {
      entry.users--;
      this.release();
    }
  }

  /** Syncs the folder's entries to disk through its descriptor (a folder gone since is skipped). */
  async sync(folder: string): Promise<void> {
    await this.within(folder, false, (dir) => dir.sync()).catch(() => undefined);
  }

  /** Closes every descriptor; call once no step runs any more. */
  async close(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((entry) => entry.handle.then((handle) => handle.close(), () => undefined)));
  }

  private rootOf(folder: string): string {
    const roots = this.roots.filter((root) => isInside(root, folder)).sort((a, b) => b.length - a.length);
    if (roots[0] === undefined) throw new Error(`${folder} is not inside the workspace`);
    return roots[0];
  }

  private async acquire(folder: string, create: boolean): Promise<Entry> {
    let entry = this.entries.get(folder);
    if (entry) this.entries.delete(folder);
    else entry = { handle: this.openFolder(folder, create), users: 0 };
    // Re-inserted: the map's order is the order of last use, the oldest first.
    this.entries.set(folder, entry);
    entry.users++;
    const opened = entry;
    await opened.handle.catch((error: unknown) => {
      opened.users--;
      if (this.entries.get(folder) === opened) this.entries.delete(folder);
      throw error;
    });
    return opened;
  }

  private async openFolder(folder: string, create: boolean): Promise<FileHandle> {
    const root = this.rootOf(folder);
    if (folder === root) return openRootFolder(root);
    const parent = await this.acquire(dirname(folder), create);
    try {
      const { handle, created } = await openChildFolder(await parent.handle, basename(folder), create);
      if (created) this.created(dirname(folder));
      return handle;
    } finally {
      parent.users--;
      this.release();
    }
  }

  /** Closes the oldest idle descriptors beyond KEEP_OPEN. */
  private release(): void {
    for (const [folder, entry] of this.entries) {
      if (this.entries.size <= KEEP_OPEN) return;
      if (entry.users > 0) continue;
      this.entries.delete(folder);
      void entry.handle.then((handle) => handle.close(), () => undefined);
    }
  }

  /** Without /proc: missing folders made, then the folder's real path must still be the one planned. */
  private async checkedByPath(folder: string, create: boolean): Promise<OpenFolder> {
    this.rootOf(folder);
    if (create) this.reportCreated(folder, await mkdir(folder, { recursive: true }));
    const real = await realpath(folder).catch((error: unknown) => (codeOf(error) === 'ENOENT' ? Promise.reject(error) : folder));
    if (real !== folder) throw new LinkOnPath(folder);
    return { path: folder, child: (name) => join(folder, name), sync: () => syncDir(folder) };
  }

  /** `first`: the first folder mkdir made on the way to `folder` (none: undefined); each one's parent changed. */
  private reportCreated(folder: string, first: string | undefined): void {
    if (first === undefined) return;
    for (let made = folder; ; made = dirname(made)) {
      this.created(dirname(made));
      if (made === first || dirname(made) === made) return;
    }
  }
}
