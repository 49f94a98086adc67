// Watches the file-system calls of a restore in this process (the fs and fs/promises module objects are
// patched, as the crash test's child does) and keeps what each mutation still owes the disk: a written
// file owes a sync of its data (an fsync, not an fdatasync, once its mode changed), a folder whose
// entries changed (a rename, a creation, a deletion, a new folder in it) owes a folder sync. A sync pays
// only for what came before it; a rename carries the file's debt to its new name. When a journal is
// unlinked, the debts of the workspace's paths at that moment are recorded (docs/reliability.md). Paths
// named through a folder's descriptor (/proc/self/fd/N/name) are mapped to the folder's real path.
import { existsSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';

/**
 * The real path a call named: a restore names files as /proc/self/fd/N/name, inside the folder open at
 * descriptor N (src/checkpoints/restore-folders.ts), so that prefix is replaced by the folder's path.
 */
function resolve(p: string): string {
  const viaFd = /^\/proc\/self\/fd\/(\d+)(?:\/(.*))?$/.exec(p);
  if (!viaFd) return resolvePath(p);
  const folder = readlinkSync(`/proc/self/fd/${viaFd[1]}`);
  return viaFd[2] === undefined ? folder : join(folder, viaFd[2]);
}

type AnyFn = (...args: any[]) => any;
type Module = Record<string, AnyFn>;

export interface JournalRemoval {
  journal: string;
  /** workspace paths that still owed a sync when the journal went: path → what is owed */
  unpaid: Record<string, 'data' | 'data+metadata' | 'folder'>;
}

export interface SyncRecorder {
  removals: JournalRemoval[];
  /** how many file and folder syncs were seen */
  syncs: number;
  restore(): void;
}

export function recordSyncs(workspace: string, journals: string): SyncRecorder {
  const fs = require('node:fs') as Module;
  const fsp = require('node:fs/promises') as Module;
  const owed = new Map<string, 'data' | 'data+metadata' | 'folder'>();
  const fdPath = new Map<number, string>();
  const out: SyncRecorder = { removals: [], syncs: 0, restore: () => undefined };
  const undo: (() => void)[] = [];
  const inside = (p: string) => resolve(p).startsWith(workspace);
  const owe = (p: string, what: 'data' | 'data+metadata' | 'folder') => {
    if (!inside(p)) return;
    if (what === 'data' && owed.get(p) === 'data+metadata') return;
    owed.set(p, what);
  };
  const folderChanged = (p: string) => owe(dirname(resolve(p)), 'folder');
  const synced = (fd: number, full: boolean) => {
    out.syncs++;
    const p = fdPath.get(fd);
    if (p !== undefined && (full || owed.get(p) !== 'data+metadata')) owed.delete(p);
  };
  const patch = (module: Module, name: string, around: (original: AnyFn, args: any[]) => any) => {
    const original = module[name]!;
    module[name] = (...args: any[]) => around(original, args);
    undo.push(() => (module[name] = original));
  };
  const remember = (p: unknown, fd: number) => fdPath.set(fd, resolve(String(p)));

  patch(fs, 'openSync', (o, args) => {
    const fd = o(...args);
    remember(args[0], fd);
    return fd;
  });
  patch(fs, 'open', (o, args) => {
    const callback = args[args.length - 1] as AnyFn;
    return o(...args.slice(0, -1), (error: unknown, fd: number) => {
      if (!error) remember(args[0], fd);
      callback(error, fd);
    });
  });
  patch(fsp, 'open', async (o, args) => {
    const handle = await o(...args);
    remember(args[0], handle.fd);
    const { sync, datasync } = handle;
    handle.sync = () => sync.call(handle).then(() => synced(handle.fd, true));
    handle.datasync = () => datasync.call(handle).then(() => synced(handle.fd, false));
    return handle;
  });
  for (const [name, full] of [['fsync', true], ['fdatasync', false]] as const) {
    patch(fs, name, (o, [fd, callback]) => o(fd, (error: unknown) => {
      if (!error) synced(fd, full);
      callback(error);
    }));
    patch(fs, `${name}Sync`, (o, [fd]) => {
      o(fd);
      synced(fd, full);
    });
  }
  for (const name of ['writeSync', 'ftruncateSync']) {
    patch(fs, name, (o, args) => {
      const p = fdPath.get(args[0]);
      if (p !== undefined) owe(p, 'data');
      return o(...args);
    });
  }
  patch(fs, 'fchmodSync', (o, args) => {
    const p = fdPath.get(args[0]);
    if (p !== undefined) owe(p, 'data+metadata');
    return o(...args);
  });
  patch(fsp, 'chmod', async (o, args) => {
    await o(...args);
    owe(resolve(args[0]), 'data+metadata');
  });
  patch(fsp, 'copyFile', async (o, args) => {
    const created = !existsSync(args[1]);
    await o(...args);
    owe(resolve(args[1]), 'data');
    if (created) folderChanged(args[1]);
  });
  patch(fsp, 'mkdir', async (o, args) => {
    let first = resolve(String(args[0]));
    while (!existsSync(dirname(first))) first = dirname(first);
    const missing = !existsSync(first);
    const result = await o(...args);
    if (missing) for (let d = resolve(args[0]); d !== dirname(first); d = dirname(d)) folderChanged(d);
    return result;
  });
  patch(fsp, 'rename', async (o, [from, to]) => {
    await o(from, to);
    const [a, b] = [resolve(from), resolve(to)];
    const debt = owed.get(a);
    owed.delete(a);
    if (debt) owe(b, debt);
    for (const [fd, p] of fdPath) if (p === a) fdPath.set(fd, b);
    folderChanged(a);
    folderChanged(b);
  });
  patch(fsp, 'unlink', async (o, args) => {
    const p = resolve(args[0]);
    if (p.startsWith(journals)) out.removals.push({ journal: p, unpaid: Object.fromEntries([...owed].sort()) });
    await o(...args);
    owed.delete(p);
    folderChanged(p);
  });
  out.restore = () => undo.reverse().forEach((u) => u());
  return out;
}
