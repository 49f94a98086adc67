// The shapes of file checkpoints (docs/architecture.md, "file checkpoints"): what one file looked like at
// one moment, and the manifest one agent turn writes into the session as a `custom` entry. A session
// file alone says which node had which file state; the contents live in the blob store beside it.

/** `customType` of the session entry that carries a FilesManifest (pi ignores custom entries). */
export const FILES_CUSTOM_TYPE = 'arbor.files';
export const MANIFEST_VERSION = 1;

/**
 * One file at one moment. `file`: its content is the blob `hash`; `absent`: it did not exist;
 * `skipped`: it existed but was not checkpointed (over the size cap, or not a regular file) — listed so a
 * restore can say so, never silently dropped.
 */
export type FileState =
  | { kind: 'file'; hash: string; size: number; exec?: boolean }
  | { kind: 'absent' }
  | { kind: 'skipped'; reason: 'too-large' | 'not-a-file'; size: number };

/**
 * A file key: `<workspace folder name>/<path relative to that folder>` with `/` separators, so
 * multi-root workspaces key every path by its root.
 */
export type FileKey = string;

/**
 * What a turn changed. `before`: each file's state just before the turn first changed it; `after`: its
 * state after the turn's last mutating tool. `reason` is `turn` for agent turns and `restore-point` for
 * the state saved just before a restore (files changed outside Arbor included).
 */
export interface FilesManifest {
  version: number;
  reason: 'turn' | 'restore-point';
  /** how changes were found: the tools' own target paths, git status, or a size/mtime scan */
  method: 'tool' | 'git' | 'scan' | 'restore';
  before: Record<FileKey, FileState>;
  after: Record<FileKey, FileState>;
}

/** The size cap and exclude globs (matched against the path relative to its folder). */
export interface CheckpointOptions {
  maxFileBytes: number;
  exclude: readonly string[];
  /** watch the folders of git roots so a `bash` scan asks git about touched paths only (tree-watcher.ts; Linux) */
  watchFolders: boolean;
  /** more folders whose files a restore treats as protected (Arbor's sessions folder; write-policy.ts) */
  protectedDirectories: readonly string[];
}

export const DEFAULT_CHECKPOINT_OPTIONS: CheckpointOptions = { maxFileBytes: 5 * 1024 * 1024, exclude: [], watchFolders: true, protectedDirectories: [] };

export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.hash === b.hash && Boolean(a.exec) === Boolean(b.exec);
  if (a.kind === 'skipped' && b.kind === 'skipped') return a.size === b.size && a.reason === b.reason;
  return true;
}
