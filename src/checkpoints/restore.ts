// Restoring the files of a node (docs/architecture.md, "file checkpoints"). planRestore compares three
// states of every file either node knows: what the target node had, what Arbor believes the disk holds
// (the current node's state), and what the disk actually holds. A file whose disk content differs from
// Arbor's belief was changed outside Arbor: it is returned for a per-file choice and never overwritten
// without one. applyRestore first saves the current state (an `arbor.files` restore point at the current
// node when the disk differs from it, so switching back redoes everything), then applies the plan under
// a journal (journal.ts). A file the shared write policy protects (src/agent/tools/write-policy.ts: editor
// settings, git folders and hooks, agent instructions, …) is never an ordinary change: it is listed
// apart and written only when the user ticks it, whatever arbor.checkpoints.restore says.
import type { ProtectedMatch, WritePolicy } from '../agent/tools/write-policy';
import type { SessionEntry } from '../session/entries';
import { applySteps, newJournal, removeJournal, writeJournal, type JournalStep } from './journal';
import { stateAtPath, targetStateOf } from './manifest';
import { forEachLimited, IO_WIDTH } from './parallel';
import type { AppendCustom } from './recorder';
import { FILES_CUSTOM_TYPE, MANIFEST_VERSION, sameState, type FileKey, type FileState, type FilesManifest } from './types';
import type { WorkspaceFiles } from './workspace-files';

/** What restores need of a session: root→node paths (SessionStore.getBranch). */
export interface SessionPaths {
  getBranch(id: string | null): SessionEntry[];
}

export interface PlannedFile {
  key: FileKey;
  absolute: string;
  /** what the disk holds now */
  current: FileState;
  /** what the target node had */
  target: FileState;
}

export interface OutsideChange extends PlannedFile {
  /** what Arbor last wrote or captured there */
  expected: FileState;
}

export interface ProtectedChange extends PlannedFile {
  /** the protected rule the file falls under */
  match: ProtectedMatch;
  /** what Arbor last wrote or captured there, when the disk differs from it (changed outside Arbor) */
  expected?: FileState;
}

export interface RestorePlan {
  fromId: string | null;
  toId: string | null;
  /** files the restore writes or deletes */
  changes: PlannedFile[];
  /** files changed outside Arbor: restored only when chosen */
  outsideChanges: OutsideChange[];
  /** protected files (write-policy.ts): restored only when chosen, listed apart with a warning */
  protectedChanges: ProtectedChange[];
  /** files that cannot be restored, with the reason (not checkpointed, content gone, path refused) */
  notRestorable: NotRestorable[];
}

/** Why a file cannot be restored; the surfaces word it (describeNotRestorable is the plain English one). */
export type NotRestorableWhy =
  | { kind: 'excluded' }
  | { kind: 'not-checkpointed'; cause: 'too-large' | 'not-a-file'; size: number }
  | { kind: 'disk-not-checkpointed'; cause: 'too-large' | 'not-a-file' }
  | { kind: 'content-missing' }
  | { kind: 'same-file' };

export interface NotRestorable {
  key: FileKey;
  why: NotRestorableWhy;
}

export function describeNotRestorable(why: NotRestorableWhy): string {
  switch (why.kind) {
    case 'excluded':
      return 'excluded, or not inside the workspace';
    case 'not-checkpointed':
      return `not checkpointed at that point (${why.cause === 'too-large' ? `${why.size} bytes, over the size cap` : 'not a regular file'})`;
    case 'disk-not-checkpointed':
      return `the file on disk is not checkpointed (${why.cause === 'too-large' ? 'over the size cap' : 'not a regular file'}), so it is not replaced`;
    case 'content-missing':
      return 'its content is missing from the checkpoint store';
    case 'same-file':
      return 'the same file as another path of the restore (a symbolic link)';
  }
}

export async function planRestore(files: WorkspaceFiles, session: SessionPaths, fromId: string | null, toId: string | null): Promise<RestorePlan> {
  const from = stateAtPath(session.getBranch(fromId));
  const to = stateAtPath(session.getBranch(toId));
  const plan: RestorePlan = { fromId, toId, changes: [], outsideChanges: [], protectedChanges: [], notRestorable: [] };
  const keys = [...new Set([...from.files.keys(), ...to.files.keys()])].sort();
  const folders = new Map<string, Promise<string | undefined>>();
  const candidates: Candidate[] = [];
  await forEachLimited(keys, IO_WIDTH, async (key) => {
    const target = targetStateOf(key, to, from);
    if (target) await planFile(files, plan, candidates, key, target, targetStateOf(key, from, to), folders);
  });
  // Judged once every path is known: files this restore creates together can make a git folder (write-policy.ts).
  const policy = files.writePolicy(candidates.filter((c) => c.target.kind === 'file').map((c) => c.absolute));
  await forEachLimited(candidates, IO_WIDTH, async (candidate) => classify(files, plan, policy, candidate));
  for (const list of [plan.changes, plan.outsideChanges, plan.protectedChanges, plan.notRestorable]) list.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return plan;
}

/** A file the restore would change, before the write policy has judged it. */
interface Candidate extends PlannedFile {
  expected: FileState | undefined;
}

async function planFile(files: WorkspaceFiles, plan: RestorePlan, candidates: Candidate[], key: FileKey, target: FileState, expected: FileState | undefined, folders: Map<string, Promise<string | undefined>>): Promise<void> {
  const found = files.isExcluded(key) ? undefined : await onDisk(files, key, folders);
  if (found === undefined) return void plan.notRestorable.push({ key, why: { kind: 'excluded' } });
  const { absolute, current } = found;
  // Two keys naming one file (through a symlink) would race in a parallel restore: the first one wins.
  if (plannedPaths(plan).has(absolute)) return void plan.notRestorable.push({ key, why: { kind: 'same-file' } });
  plannedPaths(plan).add(absolute);
  if (sameState(current, target)) return;
  const refusal = await refusalOf(files, current, target);
  if (refusal) return void plan.notRestorable.push({ key, why: refusal });
  candidates.push({ key, absolute, current, target, expected });
}

/** Protected (listed apart), changed outside Arbor (asked), or an ordinary change. */
async function classify(files: WorkspaceFiles, plan: RestorePlan, policy: WritePolicy, { key, absolute, current, target, expected }: Candidate): Promise<void> {
  const match = await protectedRule(files, policy, key, absolute);
  const outside = expected !== undefined && !sameState(current, expected);
  if (match) plan.protectedChanges.push({ key, absolute, current, target, match, ...(outside ? { expected } : {}) });
  else if (outside) plan.outsideChanges.push({ key, absolute, current, target, expected: expected! });
  else plan.changes.push({ key, absolute, current, target });
}

/**
 * Where a key's file is and what it holds: one lstat per key, as its folder's real path is looked up
 * once per plan; a key whose name is a symbolic link, or whose folder is missing or outside, is resolved
 * fully (WorkspaceFiles.resolve) as before. Undefined: not inside the workspace.
 */
async function onDisk(files: WorkspaceFiles, key: FileKey, folders: Map<string, Promise<string | undefined>>): Promise<{ absolute: string; current: FileState } | undefined> {
  const near = await files.resolveInFolder(key, folders);
  const current = near === undefined ? undefined : await files.readUnlessLink(near);
  if (near !== undefined && current !== undefined) return { absolute: near, current };
  const absolute = await files.resolve(key);
  return absolute === undefined ? undefined : { absolute, current: await files.readState(absolute) };
}

/** The protected rule of a key's file (its path as the key spells it, and as it really is); a file that cannot be checked counts as protected. */
async function protectedRule(files: WorkspaceFiles, policy: WritePolicy, key: FileKey, absolute: string): Promise<ProtectedMatch | undefined> {
  try {
    return await policy.protectedMatch(absolute, files.locate(key)?.rel, true);
  } catch (error) {
    return { kind: 'agent', rule: `could not be checked (${(error as Error).message})` };
  }
}

const planned = new WeakMap<RestorePlan, Set<string>>();

function plannedPaths(plan: RestorePlan): Set<string> {
  let paths = planned.get(plan);
  if (!paths) planned.set(plan, (paths = new Set()));
  return paths;
}

async function refusalOf(files: WorkspaceFiles, current: FileState, target: FileState): Promise<NotRestorableWhy | undefined> {
  if (target.kind === 'skipped') return { kind: 'not-checkpointed', cause: target.reason, size: target.size };
  if (current.kind === 'skipped') return { kind: 'disk-not-checkpointed', cause: current.reason };
  if (target.kind === 'file' && !(await files.blobs.has(target.hash))) return { kind: 'content-missing' };
  return undefined;
}

export interface RestoreChoices {
  /** outside-changed and protected files the user ticked; the others are kept */
  overwrite: ReadonlySet<FileKey>;
  /** appends the restore point at the current node (needed when a file was changed outside Arbor) */
  append?: AppendCustom;
}

export type RestoreOutcome =
  | { kind: 'restored'; written: FileKey[]; deleted: FileKey[]; kept: FileKey[]; restorePointId?: string; protectedApplied?: FileKey[] }
  | { kind: 'failed'; message: string; rolledBack: boolean };

/** The restore point: the disk state of files changed outside Arbor (protected ones too), saved at the current node. */
export function restorePointManifest(plan: RestorePlan): FilesManifest | undefined {
  const changed = [...plan.outsideChanges, ...plan.protectedChanges.filter((c): c is ProtectedChange & { expected: FileState } => c.expected !== undefined)];
  if (changed.length === 0) return undefined;
  const manifest: FilesManifest = { version: MANIFEST_VERSION, reason: 'restore-point', method: 'restore', before: {}, after: {} };
  for (const change of changed) {
    manifest.before[change.key] = change.expected;
    manifest.after[change.key] = change.current;
  }
  return manifest;
}

/** The files a restore writes: every ordinary change, and the outside-changed and protected files the user ticked. */
export function chosenChanges(plan: RestorePlan, ticked: ReadonlySet<FileKey>): PlannedFile[] {
  return [...plan.changes, ...plan.outsideChanges.filter((c) => ticked.has(c.key)), ...plan.protectedChanges.filter((c) => ticked.has(c.key))];
}

/**
 * Applies a plan under a journal kept in `stateDir`: Arbor's own storage for this workspace (never the
 * sessions folder, whose files a repository may have committed; docs/reliability.md).
 */
export async function applyRestore(files: WorkspaceFiles, stateDir: string, plan: RestorePlan, choices: RestoreChoices): Promise<RestoreOutcome> {
  const point = restorePointManifest(plan);
  let restorePointId: string | undefined;
  if (point) {
    if (!choices.append) return { kind: 'failed', message: 'files changed outside Arbor need a restore point, and no session to append it to was given', rolledBack: true };
    restorePointId = (await choices.append(FILES_CUSTOM_TYPE, point)).id;
  }
  const applied = chosenChanges(plan, choices.overwrite);
  const steps: JournalStep[] = applied.map((c) => ({ key: c.key, from: c.current, to: c.target }));
  const journal = newJournal(plan.fromId, plan.toId, steps);
  const journalFile = await writeJournal(stateDir, journal);
  // A protected file is never overwritten in place: a cut restore leaves it whole, old or new (recovery does not touch it).
  const whole = new Set(plan.protectedChanges.map((c) => c.key));
  try {
    await applySteps(files, journal, 'to', applied.map((c) => c.absolute), whole);
  } catch (error) {
    const rolledBack = await applySteps(files, journal, 'from', undefined, whole).then(() => true, () => false);
    if (rolledBack) await removeJournal(journalFile);
    return { kind: 'failed', message: (error as Error).message, rolledBack };
  }
  await removeJournal(journalFile);
  return {
    kind: 'restored',
    written: applied.filter((c) => c.target.kind === 'file').map((c) => c.key),
    deleted: applied.filter((c) => c.target.kind === 'absent').map((c) => c.key),
    kept: [...plan.outsideChanges, ...plan.protectedChanges].filter((c) => !choices.overwrite.has(c.key)).map((c) => c.key),
    ...(whole.size > 0 ? { protectedApplied: applied.filter((c) => whole.has(c.key)).map((c) => c.key) } : {}),
    ...(restorePointId ? { restorePointId } : {}),
  };
}
