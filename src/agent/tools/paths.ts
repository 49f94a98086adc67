// Confines every path a tool touches to the workspace folders. Paths are resolved lexically first
// (relative to the first folder, or to a named folder in multi-root workspaces), then through the
// file system: the deepest existing ancestor is realpath'd so that symlinks, including a symlinked
// directory that a new file would be created under and dangling symlinks, cannot lead outside.
import { lstat, readlink, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { effectTargets, ToolError, type ToolEffect, type WorkspaceFolder, type WorkspaceRoots } from './types';

export interface ResolvedPath {
  /** Real absolute path (symlinks resolved) to use for all file system access. */
  absolute: string;
  /** Path as shown to the model and the user: relative to the workspace (folder-prefixed if multi-root). */
  display: string;
  /** The folder the path belongs to. */
  folder: WorkspaceFolder;
  /** Real path of the workspace folder `absolute` lies in: where confined opens start (confined-open.ts). */
  root: string;
}

interface RootInfo {
  folder: WorkspaceFolder;
  lexical: string;
  real: string;
}

const MAX_SYMLINK_HOPS = 40;

/** True if `child` is `parent` or lies below it (both absolute, normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  if (rel === '') return true;
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function folderList(workspace: WorkspaceRoots): string {
  return workspace.folders.map((f) => f.path).join(', ');
}

async function rootInfos(workspace: WorkspaceRoots): Promise<RootInfo[]> {
  if (workspace.folders.length === 0) throw new ToolError('No workspace folder is open, so no files can be accessed.');
  return Promise.all(
    workspace.folders.map(async (folder) => {
      const lexical = resolve(folder.path);
      let real = lexical;
      try {
        real = await realpath(lexical);
      } catch {
        // A missing folder keeps its lexical path; operations under it fail later with ENOENT.
      }
      return { folder, lexical, real };
    }),
  );
}

function isErrno(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/**
 * realpath that also works for paths that do not exist yet: the deepest existing ancestor is
 * resolved and the missing tail appended. Dangling symlinks are followed to where they point, because
 * writing through one would create the file at its target.
 */
export async function realpathDeep(path: string, hops = 0): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) throw new ToolError(`Too many levels of symbolic links at ${path}.`);
  try {
    return await realpath(path);
  } catch (error) {
    if (!isErrno(error, 'ENOENT', 'ENOTDIR')) throw error;
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = await realpathDeep(parent, hops + 1);
  const own = join(realParent, basename(path));
  try {
    const stats = await lstat(own);
    if (stats.isSymbolicLink()) return realpathDeep(resolve(realParent, await readlink(own)), hops + 1);
  } catch (error) {
    if (!isErrno(error, 'ENOENT', 'ENOTDIR')) throw error;
  }
  return own;
}

/** Cleans what models commonly add around paths: surrounding whitespace, an `@` mention prefix, `~`. */
function cleanInput(input: string): string {
  let p = input.trim();
  if (p.startsWith('@')) p = p.slice(1);
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return join(homedir(), p.slice(2));
  return p;
}

function lexicalTarget(roots: RootInfo[], p: string): { target: string; root: RootInfo } | undefined {
  if (isAbsolute(p)) {
    const target = normalize(p);
    const root = roots.find((r) => isInside(r.lexical, target)) ?? roots.find((r) => isInside(r.real, target));
    return root ? { target, root } : undefined;
  }
  let root = roots[0];
  let rest = p;
  if (roots.length > 1) {
    const [first, ...others] = p.split(/[\\/]+/);
    const named = roots.find((r) => r.folder.name === first);
    if (named) {
      root = named;
      rest = others.join('/');
    }
  }
  const target = resolve(root.lexical, rest === '' ? '.' : rest);
  return isInside(root.lexical, target) ? { target, root } : undefined;
}

/** How a path inside `root` is shown: relative, prefixed with the folder name in multi-root workspaces. */
function displayWithin(roots: RootInfo[], root: RootInfo, base: string, absolute: string): string {
  const rel = relative(base, absolute).split(sep).join('/');
  if (roots.length > 1) return rel === '' ? root.folder.name : `${root.folder.name}/${rel}`;
  return rel === '' ? '.' : rel;
}

/** Resolves a tool's `path` argument to a real path inside the workspace, or throws a ToolError. */
export async function resolveInWorkspace(workspace: WorkspaceRoots, input: string): Promise<ResolvedPath> {
  if (typeof input !== 'string') throw new ToolError('The path must be a string.');
  if (input.includes('\0')) throw new ToolError('The path contains a NUL byte, which is not allowed in file names.');
  if (input.length > 4096) throw new ToolError(`The path is too long (${input.length} characters; at most 4096).`);
  const roots = await rootInfos(workspace);
  const cleaned = cleanInput(input);
  const lexical = lexicalTarget(roots, cleaned);
  if (!lexical) {
    throw new ToolError(
      `Path "${input}" is outside the workspace (${folderList(workspace)}). Only files inside the workspace folders can be accessed; use a path relative to the workspace.`,
    );
  }
  let real: string;
  try {
    real = await realpathDeep(lexical.target);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Cannot resolve path "${input}": ${(error as Error).message}`);
  }
  const realRoot = roots.find((r) => isInside(r.real, real));
  if (!realRoot) {
    throw new ToolError(
      `Path "${input}" is outside the workspace: it resolves through a symbolic link to ${real}, which is not inside the workspace folders (${folderList(workspace)}).`,
    );
  }
  const base = isInside(lexical.root.lexical, lexical.target) ? lexical.root.lexical : lexical.root.real;
  return { absolute: real, display: displayWithin(roots, lexical.root, base, lexical.target), folder: lexical.root.folder, root: realRoot.real };
}

/** Display form of an absolute path found while listing (real or lexical); absolute if outside. */
export async function displayPathOf(workspace: WorkspaceRoots, absolute: string): Promise<string> {
  return displayPathSync(await rootInfos(workspace), absolute);
}

export function displayPathSync(roots: readonly RootInfo[], absolute: string): string {
  const list = [...roots];
  for (const root of list) if (isInside(root.real, absolute)) return displayWithin(list, root, root.real, absolute);
  for (const root of list) if (isInside(root.lexical, absolute)) return displayWithin(list, root, root.lexical, absolute);
  return absolute;
}

/** Roots with their real paths, for tools that display many paths at once. */
export async function workspaceRootInfos(workspace: WorkspaceRoots): Promise<readonly RootInfo[]> {
  return rootInfos(workspace);
}

export type { RootInfo };

/** Convenience for callers holding plain folder paths: names are the folders' base names. */
export function workspaceFromPaths(paths: readonly string[]): WorkspaceRoots {
  return { folders: paths.map((p) => ({ name: basename(p) || p, path: p })) };
}

/** The `path` argument of a file tool as its only target (ToolEffect `writesFiles`); one rule with history's. */
export { pathArg as pathTarget } from '../../core/tool-history';

/**
 * A file-writing call's named target, resolved once for the whole call (docs/reliability.md, "model output"):
 * the sensitive-path check, auto-edit's inside test, the edit feedback, checkpoints and nested instructions
 * read `resolved`, and the writer opens that same path confined (confined-open.ts: no second lookup by name,
 * a link swapped in since is refused). `resolved` undefined: the path is refused, `error` says why.
 */
export interface CallTarget {
  path: string;
  resolved?: ResolvedPath;
  error?: unknown;
  /** the file's hard links when the call was checked (1 for a new file): more at write time were never shown */
  links?: number;
}

/** The call's targets (`effectTargets`), each resolved in the workspace; [] for a tool that writes no files. */
export async function resolveCallTargets(workspace: WorkspaceRoots, effect: ToolEffect, args: Record<string, unknown>): Promise<CallTarget[]> {
  return Promise.all(effectTargets(effect, args).map((path) => resolveCallTarget(workspace, path)));
}

async function resolveCallTarget(workspace: WorkspaceRoots, path: string): Promise<CallTarget> {
  try {
    const resolved = await resolveInWorkspace(workspace, path);
    return { path, resolved, links: await hardLinkCount(resolved.absolute).catch(() => 1) };
  } catch (error) {
    return { path, error };
  }
}

/**
 * Refuses a write through a file that gained hard links since the call was checked: the check asks for a
 * hard link (docs/reliability.md), so one made since, e.g. to a git hook or a file outside, was never shown.
 */
export function refuseNewHardLinks(ctx: { targets?: readonly CallTarget[] }, path: string, opened: { nlink: number }, display: string): void {
  const links = ctx.targets?.find((candidate) => candidate.path === path)?.links;
  if (links === undefined || opened.nlink <= links) return;
  throw new ToolError(`${display} gained a hard link after the call was checked (it may now change a file elsewhere); nothing was written. Try again.`);
}

/**
 * The resolved path a writer is given for `path` (ToolContext.targets). A target refused when the call was
 * checked stays refused with that error: looking it up again by name would write where no check looked.
 * Only a writer run without a target list (outside the tool loop) resolves it itself.
 */
export async function writeTarget(ctx: { workspace: WorkspaceRoots; targets?: readonly CallTarget[] }, path: string): Promise<ResolvedPath> {
  const target = ctx.targets?.find((candidate) => candidate.path === path);
  if (!target) return resolveInWorkspace(ctx.workspace, path);
  if (target.resolved) return target.resolved;
  throw target.error;
}

/** Links of an existing regular file; 1 for new files, folders and anything else. */
export async function hardLinkCount(absolute: string): Promise<number> {
  try {
    const stats = await lstat(absolute);
    return stats.isFile() ? stats.nlink : 1;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return 1;
    throw error;
  }
}
