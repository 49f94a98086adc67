// Files of the workspace as checkpoints see them: every path is keyed by its workspace folder
// (`<folder name>/<relative path>`, multi-root safe), and a file's state is read through a stat cache
// (size, mtime, ctime, inode: an unchanged file is not read or hashed again), so the cost of a capture
// follows the files that changed, not the size of the tree.
import type { BigIntStats } from 'node:fs';
import { lstat, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { compileGlob, type GlobMatcher } from '../agent/tools/glob';
import { isInside, resolveInWorkspace } from '../agent/tools/paths';
import { WritePolicy } from '../agent/tools/write-policy';
import type { WorkspaceFolder, WorkspaceRoots } from '../agent/tools/types';
import type { BlobStore } from './blob-store';
import type { GitRepo } from './git';
import { GitScanIndexes } from './git-index';
import { RootWatchers } from './root-watchers';
import type { CheckpointOptions, FileKey, FileState } from './types';

export interface CheckpointRoot {
  folder: WorkspaceFolder;
  /** real path of the folder (symlinks resolved) */
  real: string;
}

interface CachedStat {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
  state: FileState;
}

function toSlash(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

export class WorkspaceFiles {
  private readonly cache = new Map<string, CachedStat>();
  private readonly excluded: GlobMatcher[];
  /** every path whose state Arbor read or wrote (whatever it held): the files a partial scan re-checks */
  private readonly known = new Set<string>();
  /** each folder's git work tree (undefined: not in one), looked up once */
  readonly gitRepos = new Map<string, Promise<GitRepo | undefined>>();
  /** real paths of the git roots a full `git status` has scanned (change-scan.ts) */
  readonly gitScanned = new Set<string>();
  /** the private git indexes the scans run on (git-index.ts) */
  readonly gitIndexes: GitScanIndexes;
  /** the folder watchers that narrow those scans (root-watchers.ts) */
  readonly watchers: RootWatchers;

  private constructor(
    readonly workspace: WorkspaceRoots,
    readonly roots: readonly CheckpointRoot[],
    readonly blobs: BlobStore,
    readonly options: CheckpointOptions,
  ) {
    this.excluded = options.exclude.map((glob) => compileGlob(glob));
    this.gitIndexes = new GitScanIndexes(blobs.dir);
    this.watchers = new RootWatchers(options.watchFolders, blobs.dir);
  }

  /**
   * The shared file-write policy for one restore plan or recovery (its own folders and Arbor's store
   * protected); `planned`: real paths of the files the operation creates or replaces.
   */
  writePolicy(planned: readonly string[] = []): WritePolicy {
    return new WritePolicy(this.workspace, { protectedDirectories: [this.blobs.dir, ...this.options.protectedDirectories], planned });
  }

  /** Stops the folder watchers (the store is being replaced or the extension stops). */
  close(): void {
    this.watchers.close();
  }

  static async create(workspace: WorkspaceRoots, blobs: BlobStore, options: CheckpointOptions): Promise<WorkspaceFiles> {
    const roots = await Promise.all(
      workspace.folders.map(async (folder) => ({ folder, real: await realpath(folder.path).catch(() => folder.path) })),
    );
    return new WorkspaceFiles(workspace, roots, blobs, options);
  }

  /** The key of an absolute path inside a folder, or undefined when it is outside every folder. */
  keyOf(absolute: string): FileKey | undefined {
    if (isInside(resolvePath(this.blobs.dir), absolute)) return undefined;
    for (const root of this.roots) {
      for (const base of [root.real, root.folder.path]) {
        if (isInside(base, absolute) && absolute !== base) return `${root.folder.name}/${toSlash(relative(base, absolute))}`;
      }
    }
    return undefined;
  }

  /** Splits a key into its folder and relative path; undefined for keys naming no folder of this workspace. */
  locate(key: FileKey): { root: CheckpointRoot; rel: string } | undefined {
    for (const root of this.roots) {
      const prefix = `${root.folder.name}/`;
      if (key.startsWith(prefix) && key.length > prefix.length) return { root, rel: key.slice(prefix.length) };
    }
    return undefined;
  }

  /**
   * The real path a key names, checked like a tool's path (no `..`, no symlink leading outside):
   * keys come from session files, which are input like any other.
   */
  async resolve(key: FileKey): Promise<string | undefined> {
    const lexical = this.lexicalPath(key);
    if (lexical === undefined) return undefined;
    // Fast path: an existing file whose real path lies inside a folder (the same check as a tool's path).
    const real = await realpath(lexical).catch(() => undefined);
    if (real !== undefined) return this.roots.some((root) => isInside(root.real, real)) ? real : undefined;
    try {
      const resolved = await resolveInWorkspace(this.workspace, lexical);
      return resolved.absolute;
    } catch {
      return undefined;
    }
  }

  /**
   * resolve() for the many keys of one plan: each folder's real path is looked up once (kept in
   * `folders`) and the key's own name is joined to it, not followed, so the caller's lstat (readState)
   * sees a symbolic link there and resolves that key fully. Undefined also when the folder is missing
   * or lies outside the workspace: resolve() then decides.
   */
  async resolveInFolder(key: FileKey, folders: Map<string, Promise<string | undefined>>): Promise<string | undefined> {
    const lexical = this.lexicalPath(key);
    if (lexical === undefined) return undefined;
    const parent = dirname(lexical);
    let real = folders.get(parent);
    if (!real) folders.set(parent, (real = realpath(parent).catch(() => undefined)));
    const folder = await real;
    const path = folder === undefined ? undefined : join(folder, basename(lexical));
    return path !== undefined && this.roots.some((root) => isInside(root.real, path)) ? path : undefined;
  }

  /** The key's path below its folder's real path; undefined for a key naming no folder, or with `..`. */
  private lexicalPath(key: FileKey): string | undefined {
    const where = this.locate(key);
    if (!where || isAbsolute(where.rel) || where.rel.split('/').includes('..') || where.rel.includes('\0')) return undefined;
    return join(where.root.real, where.rel);
  }

  /** True for a key outside every folder, or whose path or one of its folders an exclude glob matches (as `files.exclude` hides a folder's files). */
  isExcluded(key: FileKey): boolean {
    const rel = this.locate(key)?.rel;
    if (rel === undefined) return true;
    if (this.excluded.length === 0) return false;
    for (let end = rel.indexOf('/'); end !== -1; end = rel.indexOf('/', end + 1)) {
      const folder = rel.slice(0, end);
      if (this.excluded.some((matches) => matches(folder))) return true;
    }
    return this.excluded.some((matches) => matches(rel));
  }

  /** The state of the file at `absolute` now; its content is stored as a blob. */
  async readState(absolute: string): Promise<FileState> {
    return (await this.readStateOf(absolute, true))!;
  }

  /** readState, except for a symbolic link: undefined (and the path is not remembered). */
  async readUnlessLink(absolute: string): Promise<FileState | undefined> {
    return this.readStateOf(absolute, false);
  }

  private async readStateOf(absolute: string, links: boolean): Promise<FileState | undefined> {
    let info: BigIntStats;
    try {
      info = await lstat(absolute, { bigint: true });
    } catch {
      this.known.add(absolute);
      this.cache.delete(absolute);
      return { kind: 'absent' };
    }
    if (!links && info.isSymbolicLink()) return undefined;
    this.known.add(absolute);
    if (!info.isFile()) return { kind: 'skipped', reason: 'not-a-file', size: Number(info.size) };
    if (info.size > BigInt(this.options.maxFileBytes)) return { kind: 'skipped', reason: 'too-large', size: Number(info.size) };
    const cached = this.cache.get(absolute);
    if (cached && sameStat(cached, info)) return cached.state;
    return this.hashFile(absolute, info);
  }

  private async hashFile(absolute: string, info: BigIntStats): Promise<FileState> {
    let content: Buffer;
    try {
      content = await readFile(absolute);
    } catch {
      return { kind: 'absent' };
    }
    const hash = await this.blobs.put(content);
    const exec = (Number(info.mode) & 0o111) !== 0;
    const state: FileState = { kind: 'file', hash, size: content.length, ...(exec ? { exec: true } : {}) };
    this.cache.set(absolute, { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino, state });
    return state;
  }

  /**
   * Remembers that `absolute` now holds `state` (after a restore wrote it), so it is not hashed again;
   * `written`: its stat, when the write already read it.
   */
  async remember(absolute: string, state: FileState, written?: BigIntStats): Promise<void> {
    this.known.add(absolute);
    const info = written ?? (await lstat(absolute, { bigint: true }).catch(() => undefined));
    if (!info || state.kind !== 'file') {
      this.cache.delete(absolute);
      return;
    }
    this.cache.set(absolute, { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, ino: info.ino, state });
  }

  /** True when the cache says `absolute` is unchanged since it was last read (no read needed). */
  async unchangedSinceRead(absolute: string): Promise<boolean> {
    const cached = this.cache.get(absolute);
    if (!cached) return false;
    const info = await lstat(absolute, { bigint: true }).catch(() => undefined);
    return info !== undefined && sameStat(cached, info);
  }

  /** The paths Arbor knows below `dir` (a root's real path). */
  knownUnder(dir: string): string[] {
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    return [...this.known].filter((p) => p.startsWith(prefix));
  }

  /**
   * True when the file (or, for a missing file, its folder) and every folder between it and its root last
   * changed before `cutoffMs`. Renaming a folder changes its own change time only: the files below its new
   * name keep theirs, yet the command put them there. (The cost: without a folder watcher, a file made
   * outside Arbor in a folder the command then writes in counts as the command's.)
   */
  async changedBefore(absolute: string, cutoffMs: number): Promise<boolean> {
    const root = this.roots.find((r) => isInside(r.real, absolute))?.real;
    let at = await lstat(absolute).then(() => absolute, () => dirname(absolute));
    for (;;) {
      const info = await lstat(at).catch(() => undefined);
      if (info === undefined || info.ctimeMs >= cutoffMs) return false;
      at = dirname(at);
      if (root === undefined || at === root || !isInside(root, at)) return true;
    }
  }
}

function sameStat(cached: CachedStat, info: BigIntStats): boolean {
  return cached.size === info.size && cached.mtimeNs === info.mtimeNs && cached.ctimeNs === info.ctimeNs && cached.ino === info.ino;
}
