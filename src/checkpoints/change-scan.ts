// How changes made by `bash` are found (docs/architecture.md, "file checkpoints"). A command can touch
// any file, so the workspace is compared before and after it:
//  - In a git work tree: `git status --porcelain -z --untracked-files=all` before and after lists the
//    files that differ from HEAD or are untracked and not ignored (so .gitignore is respected for free);
//    a file dirty before the command is stored as it was, a file clean before it is HEAD's version
//    (`git cat-file --batch`), and if the command moved HEAD (commit, checkout, reset) the files changed
//    between the two commits are candidates too. git's own index makes this cost follow the changed
//    files rather than the tree, and no second repository or commit is written.
//  - Elsewhere: a walk of the folder honouring .gitignore files (skipping .git and node_modules),
//    comparing size/mtime/ctime/inode to the stat cache; only files whose stat changed are read. The
//    first walk reads every file once, like the first commit of a shadow repository would.
// Exclude globs and the size cap apply in both; files over the cap are "not checkpointed" states.
import { join } from 'node:path';
import { walkFiles } from '../agent/tools/walk';
import { gitChangedBetween, gitContentsAt, gitDirtyPaths, gitHead, gitTopLevel } from './git';
import type { CheckpointRoot, WorkspaceFiles } from './workspace-files';
import type { FileKey, FileState } from './types';

export interface ScannedChange {
  key: FileKey;
  before: FileState;
  after: FileState;
}

interface RootSnapshot {
  root: CheckpointRoot;
  /** git top folder when the root is in a git work tree */
  top: string | undefined;
  head: string | undefined;
  /** absolute path → state, for the files dirty (git) or present (walk) at snapshot time */
  states: Map<string, FileState>;
}

export interface WorkspaceSnapshot {
  roots: RootSnapshot[];
  method: 'git' | 'scan';
}

/** Records what the workspace looks like before a command runs. */
export async function snapshotWorkspace(files: WorkspaceFiles): Promise<WorkspaceSnapshot> {
  const roots = await Promise.all(files.roots.map((root) => snapshotRoot(files, root)));
  return { roots, method: roots.every((r) => r.top !== undefined) ? 'git' : 'scan' };
}

async function snapshotRoot(files: WorkspaceFiles, root: CheckpointRoot): Promise<RootSnapshot> {
  let pendingTop = files.gitTops.get(root.real);
  if (!pendingTop) files.gitTops.set(root.real, (pendingTop = gitTopLevel(root.real)));
  const top = await pendingTop;
  if (top !== undefined) {
    const [head, dirty] = await Promise.all([gitHead(top), gitDirtyPaths(root.real)]);
    if (dirty) return { root, top, head, states: await statesOf(files, dirty.map((p) => join(top, p))) };
  }
  return { root, top: undefined, head: undefined, states: await statesOf(files, await walkedPaths(root)) };
}

async function walkedPaths(root: CheckpointRoot): Promise<string[]> {
  const out: string[] = [];
  const signal = new AbortController().signal;
  for await (const rel of walkFiles(root.real, { root: root.real, signal })) out.push(join(root.real, rel));
  return out;
}

async function statesOf(files: WorkspaceFiles, paths: readonly string[]): Promise<Map<string, FileState>> {
  const out = new Map<string, FileState>();
  const tracked = paths.filter((p) => {
    const key = files.keyOf(p);
    return key !== undefined && !files.isExcluded(key);
  });
  await inBatches(tracked, 32, async (p) => out.set(p, await files.readState(p)));
  return out;
}

async function inBatches<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

/** The files whose state differs from `snapshot`, with their states before and after. */
export async function changesSince(files: WorkspaceFiles, snapshot: WorkspaceSnapshot): Promise<ScannedChange[]> {
  const out: ScannedChange[] = [];
  for (const before of snapshot.roots) {
    const after = await snapshotRoot(files, before.root);
    out.push(...(await compareRoot(files, before, after)));
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function compareRoot(files: WorkspaceFiles, before: RootSnapshot, after: RootSnapshot): Promise<ScannedChange[]> {
  const candidates = new Set<string>([...before.states.keys(), ...after.states.keys()]);
  const top = before.top ?? after.top;
  if (before.top !== undefined && after.top !== undefined && before.head !== after.head) {
    for (const p of await gitChangedBetween(before.top, before.head, after.head)) candidates.add(join(before.top, p));
  }
  const paths = [...candidates].filter((p) => {
    const key = files.keyOf(p);
    return key !== undefined && !files.isExcluded(key);
  });
  const clean = paths.filter((p) => !before.states.has(p));
  const headStates = before.top !== undefined && top !== undefined ? await committedStates(files, top, before.head, clean) : new Map<string, FileState>();
  const out: ScannedChange[] = [];
  for (const p of paths) {
    const was = before.states.get(p) ?? headStates.get(p) ?? { kind: 'absent' };
    const now = after.states.get(p) ?? (await files.readState(p));
    if (!sameFileState(was, now)) out.push({ key: files.keyOf(p)!, before: was, after: now });
  }
  return out;
}

/** The states of `paths` (absolute) as committed at `head`; a path not in the commit is absent. */
async function committedStates(files: WorkspaceFiles, top: string, head: string | undefined, paths: readonly string[]): Promise<Map<string, FileState>> {
  const out = new Map<string, FileState>();
  if (head === undefined || paths.length === 0) return out;
  const rel = new Map(paths.map((p) => [p.slice(top.length + 1).split('\\').join('/'), p]));
  const contents = await gitContentsAt(top, head, [...rel.keys()]);
  for (const [relPath, content] of contents) {
    const absolute = rel.get(relPath)!;
    if (content === undefined) out.set(absolute, { kind: 'absent' });
    else if (content.length > files.options.maxFileBytes) out.set(absolute, { kind: 'skipped', reason: 'too-large', size: content.length });
    else out.set(absolute, { kind: 'file', hash: await files.blobs.put(content), size: content.length });
  }
  return out;
}

function sameFileState(a: FileState, b: FileState): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.hash === b.hash;
  if (a.kind === 'skipped' && b.kind === 'skipped') return a.size === b.size;
  return a.kind === b.kind;
}
