// How changes made by `bash` are found (docs/architecture.md, "file checkpoints"). A command can touch
// any file, so the workspace is compared before and after it:
//  - In a git work tree: after the command, `git status --porcelain=v2 -z --untracked-files=all` lists the
//    files that differ from HEAD or are untracked and not ignored (so .gitignore is respected for free);
//    if the command moved HEAD (commit, checkout, reset) the files changed between the two commits are
//    candidates too. Before the command no tree-wide scan runs once the root has been scanned: the files
//    Arbor already knows (the last scan's dirty files, tool targets, restored files: the stat cache) are
//    re-stat'ed, and a candidate Arbor did not know was HEAD's version (`git cat-file --batch`) unless its
//    change time, and that of every folder above it in the root, predates the command (an outside edit, left out
//    of the turn; a folder the command renamed is new, though the files below it keep their change times). The first command in a
//    root gets a full `git status` before it too. So one git status per command, no second repository.
//    The status runs on a private copy of the index (git-index.ts) so git keeps its untracked cache.
//    Where the root's folders are watched (tree-watcher.ts, Linux), the status after a command covers
//    only the paths the command touched (none: no git call at all), and the files changed outside Arbor
//    since the last command are read before it. Without a watcher, a file edited outside Arbor after the
//    last scan and then changed again by the command is recorded as changed from HEAD's version (the
//    outside content in between was never seen).
//  - Elsewhere (also in a folder the enclosing work tree ignores, whose files git status never lists): a walk of the folder honouring .gitignore files (skipping .git and node_modules),
//    comparing size/mtime/ctime/inode to the stat cache; only files whose stat changed are read. The
//    first walk reads every file once, like the first commit of a shadow repository would.
// Exclude globs and the size cap apply in both; files over the cap are "not checkpointed" states.
import { lstat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { walkFiles } from '../agent/tools/walk';
import { gitChangedBetween, gitContentsAt, gitIgnored, gitRepoOf, type GitRepo, type GitStatus } from './git';
import { readHead } from './git-head';
import { forEachLimited, IO_WIDTH } from './parallel';
import type { WatchWindow } from './tree-watcher';
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
  /** absolute path → state, for the files dirty (git), known (partial) or present (walk) at snapshot time */
  states: Map<string, FileState>;
  /** false: `states` holds only the files Arbor knew (a git root scanned before); others were HEAD's */
  complete: boolean;
  /** Date.now() when the snapshot started */
  takenMs: number;
  /** the folder watcher's window opened before the command (tree-watcher.ts), if the root is watched */
  window?: WatchWindow;
}

export interface WorkspaceSnapshot {
  roots: RootSnapshot[];
  method: 'git' | 'scan';
}

/**
 * A change time this long before the command started surely predates it (file systems with coarse
 * timestamps round down by up to 2 s); a change closer to the start counts as the command's.
 */
export const CHANGE_TIME_SLACK_MS = 2000;

/** Records what the workspace looks like before a command runs. */
export async function snapshotWorkspace(files: WorkspaceFiles): Promise<WorkspaceSnapshot> {
  const roots = await Promise.all(files.roots.map((root) => snapshotRoot(files, root, 'before')));
  return { roots, method: roots.every((r) => r.top !== undefined) ? 'git' : 'scan' };
}

function gitRepoOfRoot(files: WorkspaceFiles, root: CheckpointRoot): Promise<GitRepo | undefined> {
  let pending = files.gitRepos.get(root.real);
  if (!pending) files.gitRepos.set(root.real, (pending = unignoredRepoOf(root.real)));
  return pending;
}

/**
 * The work tree holding `dir`, unless that tree ignores `dir` (a folder inside an enclosing repository's
 * build/ or scratch folder): git status would never list a file of it, so such a folder is walked.
 */
async function unignoredRepoOf(dir: string): Promise<GitRepo | undefined> {
  const repo = await gitRepoOf(dir);
  const rel = repo ? relative(repo.top, dir).split('\\').join('/') : '';
  if (!repo || rel === '') return repo;
  const ignored = await gitIgnored(repo.top, [rel]);
  return ignored?.has(rel) ? undefined : repo;
}

async function snapshotRoot(files: WorkspaceFiles, root: CheckpointRoot, when: 'before' | 'after', before?: RootSnapshot): Promise<RootSnapshot> {
  const takenMs = Date.now();
  const repo = await gitRepoOfRoot(files, root);
  const top = repo?.top;
  if (repo && when === 'before' && files.gitScanned.has(root.real)) {
    const window = await files.watchers.begin(root.real);
    const outside = window ? await changedOutside(files, repo, window.outside) : [];
    const [head, states] = await Promise.all([readHead(repo), statesOf(files, [...new Set([...files.knownUnder(root.real), ...outside])])]);
    return { root, top, head, states, complete: false, takenMs, window };
  }
  if (repo !== undefined) {
    const narrowed = before && !before.complete ? await narrowedStatus(files, root, repo, before.window) : undefined;
    const status = narrowed ?? (await files.gitIndexes.status(root.real, repo, !files.gitScanned.has(root.real)));
    if (status) {
      files.gitScanned.add(root.real);
      files.watchers.start(root.real, repo);
      return { root, top: repo.top, head: status.head, states: await statesOf(files, status.dirty.map((p) => join(repo.top, p))), complete: true, takenMs };
    }
  }
  files.gitScanned.delete(root.real);
  return { root, top: undefined, head: undefined, states: await statesOf(files, await walkedPaths(root)), complete: true, takenMs };
}

/** Of the paths changed between two commands, the files (present or gone) git does not ignore. */
async function changedOutside(files: WorkspaceFiles, repo: GitRepo, paths: readonly string[]): Promise<string[]> {
  const candidates: string[] = [];
  for (const p of tracked(files, paths)) {
    const info = await lstat(p).catch(() => undefined);
    if (!info || info.isFile()) candidates.push(p);
  }
  const ignored = await gitIgnored(repo.top, candidates.map((p) => p.slice(repo.top.length + 1)));
  return ignored ? candidates.filter((p) => !ignored.has(p.slice(repo.top.length + 1))) : [];
}

/**
 * The status of only what the command touched, when the root's watcher can say (tree-watcher.ts):
 * nothing touched needs no git call; undefined: scan the whole root.
 */
async function narrowedStatus(files: WorkspaceFiles, root: CheckpointRoot, repo: GitRepo, window: WatchWindow | undefined): Promise<GitStatus | undefined> {
  const scan = await files.watchers.end(root.real, window);
  if (scan.kind === 'full') return undefined;
  if (scan.pathspecs.length === 0) return { head: await readHead(repo), dirty: [] };
  return files.gitIndexes.status(root.real, repo, false, scan.pathspecs);
}

async function walkedPaths(root: CheckpointRoot): Promise<string[]> {
  const out: string[] = [];
  const signal = new AbortController().signal;
  for await (const rel of walkFiles(root.real, { root: root.real, signal })) out.push(join(root.real, rel));
  return out;
}

function tracked(files: WorkspaceFiles, paths: Iterable<string>): string[] {
  return [...paths].filter((p) => {
    const key = files.keyOf(p);
    return key !== undefined && !files.isExcluded(key);
  });
}

async function statesOf(files: WorkspaceFiles, paths: readonly string[]): Promise<Map<string, FileState>> {
  const out = new Map<string, FileState>();
  await forEachLimited(tracked(files, paths), IO_WIDTH, async (p) => out.set(p, await files.readState(p)));
  return out;
}

/** The files whose state differs from `snapshot`, with their states before and after. */
export async function changesSince(files: WorkspaceFiles, snapshot: WorkspaceSnapshot): Promise<ScannedChange[]> {
  const out: ScannedChange[] = [];
  for (const before of snapshot.roots) {
    const after = await snapshotRoot(files, before.root, 'after', before);
    out.push(...(await compareRoot(files, before, after)));
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function compareRoot(files: WorkspaceFiles, before: RootSnapshot, after: RootSnapshot): Promise<ScannedChange[]> {
  // A git root whose after-scan fell back to a walk: only the files known before can be compared.
  const partialWithoutGit = !before.complete && after.top === undefined;
  const candidates = new Set<string>([...before.states.keys(), ...(partialWithoutGit ? [] : after.states.keys())]);
  const top = before.top ?? after.top;
  if (before.top !== undefined && after.top !== undefined && before.head !== after.head) {
    for (const p of await gitChangedBetween(before.top, before.head, after.head)) candidates.add(join(before.top, p));
  }
  const paths = tracked(files, candidates);
  const unknown = paths.filter((p) => !before.states.has(p));
  const headStates = before.top !== undefined && top !== undefined ? await committedStates(files, top, before.head, unknown) : new Map<string, FileState>();
  const out: ScannedChange[] = [];
  for (const p of paths) {
    const was = before.states.get(p) ?? headStates.get(p) ?? { kind: 'absent' };
    const now = after.states.get(p) ?? (await files.readState(p));
    if (sameFileState(was, now)) continue;
    if (!before.complete && !before.states.has(p) && (await files.changedBefore(p, before.takenMs - CHANGE_TIME_SLACK_MS))) continue;
    out.push({ key: files.keyOf(p)!, before: was, after: now });
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
