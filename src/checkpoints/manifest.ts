// Reading file manifests back from a session and replaying them (docs/architecture.md, "file
// checkpoints"). The file state at a node is the replay of the `arbor.files` entries on its root→node
// path: each file takes the `after` state of the last manifest naming it. A file's `baseline` is the
// `before` state of the first manifest naming it: what the file held before this path ever changed it,
// which is what a restore to a node that never touched the file puts back.
import type { SessionEntry } from '../session/entries';
import { isBlobHash } from './blob-store';
import { FILES_CUSTOM_TYPE, sameState, type FileKey, type FileState, type FilesManifest } from './types';

export type ManifestRead = { kind: 'manifest'; manifest: FilesManifest } | { kind: 'not-a-manifest' } | { kind: 'invalid'; problem: string };

export interface NodeFileState {
  /** each file's state at the node */
  files: Map<FileKey, FileState>;
  /** each file's state before the path first changed it */
  baseline: Map<FileKey, FileState>;
  /** manifests replayed, and the unreadable ones skipped (their ids) */
  manifestIds: string[];
  invalidIds: string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A FileState read from JSON, or undefined when its shape is wrong. */
export function parseFileState(value: unknown): FileState | undefined {
  if (!isObject(value)) return undefined;
  if (value.kind === 'absent') return { kind: 'absent' };
  if (value.kind === 'file' && isBlobHash(value.hash) && isSize(value.size)) {
    return { kind: 'file', hash: value.hash, size: value.size, ...(value.exec === true ? { exec: true } : {}) };
  }
  if (value.kind === 'skipped' && (value.reason === 'too-large' || value.reason === 'not-a-file') && isSize(value.size)) {
    return { kind: 'skipped', reason: value.reason, size: value.size };
  }
  return undefined;
}

function parseStates(value: unknown, field: string): Record<FileKey, FileState> | string {
  if (!isObject(value)) return `${field} is not an object`;
  const out: Record<FileKey, FileState> = Object.create(null);
  for (const [key, raw] of Object.entries(value)) {
    const state = parseFileState(raw);
    if (!state) return `${field}[${JSON.stringify(key).slice(0, 80)}] is not a file state`;
    out[key] = state;
  }
  return out;
}

/** The manifest carried by `entry`, if it is an `arbor.files` custom entry. */
export function readManifest(entry: SessionEntry): ManifestRead {
  if (entry.type !== 'custom' || (entry as { customType?: unknown }).customType !== FILES_CUSTOM_TYPE) return { kind: 'not-a-manifest' };
  const data = (entry as { data?: unknown }).data;
  if (!isObject(data) || typeof data.version !== 'number') return { kind: 'invalid', problem: 'data has no version' };
  if (data.version > 1) return { kind: 'invalid', problem: `manifest version ${data.version} is newer than this Arbor` };
  const before = parseStates(data.before, 'before');
  const after = parseStates(data.after, 'after');
  if (typeof before === 'string') return { kind: 'invalid', problem: before };
  if (typeof after === 'string') return { kind: 'invalid', problem: after };
  const reason = data.reason === 'restore-point' ? 'restore-point' : 'turn';
  const method = typeof data.method === 'string' && ['tool', 'git', 'scan', 'restore'].includes(data.method) ? (data.method as FilesManifest['method']) : 'tool';
  return { kind: 'manifest', manifest: { version: data.version, reason, method, before, after } };
}

/** Replays the manifests on a root→node path (as SessionStore.getBranch returns it). */
export function stateAtPath(path: readonly SessionEntry[]): NodeFileState {
  const state: NodeFileState = { files: new Map(), baseline: new Map(), manifestIds: [], invalidIds: [] };
  for (const entry of path) {
    const read = readManifest(entry);
    if (read.kind === 'invalid') state.invalidIds.push(entry.id);
    if (read.kind !== 'manifest') continue;
    state.manifestIds.push(entry.id);
    applyManifest(state, read.manifest);
  }
  return state;
}

function applyManifest(state: NodeFileState, manifest: FilesManifest): void {
  for (const [key, before] of Object.entries(manifest.before)) {
    if (!state.baseline.has(key) && !state.files.has(key)) state.baseline.set(key, before);
  }
  for (const [key, after] of Object.entries(manifest.after)) {
    if (!state.baseline.has(key) && !state.files.has(key)) state.baseline.set(key, manifest.before[key] ?? after);
    state.files.set(key, after);
  }
}

/** The state of `key` at a node as a restore would leave it: its own state, else what it was before `other` changed it. */
export function targetStateOf(key: FileKey, node: NodeFileState, other: NodeFileState): FileState | undefined {
  return node.files.get(key) ?? other.baseline.get(key);
}

export interface FileChange {
  key: FileKey;
  change: 'added' | 'modified' | 'deleted';
  from: FileState | undefined;
  to: FileState | undefined;
}

/** Files whose state differs between two nodes (each side completed with the other's baselines). */
export function diffNodeStates(a: NodeFileState, b: NodeFileState): FileChange[] {
  const keys = new Set<FileKey>([...a.files.keys(), ...b.files.keys()]);
  const out: FileChange[] = [];
  for (const key of [...keys].sort()) {
    const from = targetStateOf(key, a, b);
    const to = targetStateOf(key, b, a);
    if (sameState(from, to)) continue;
    out.push({ key, change: changeKind(from, to), from, to });
  }
  return out;
}

function exists(state: FileState | undefined): boolean {
  return state !== undefined && state.kind !== 'absent';
}

function changeKind(from: FileState | undefined, to: FileState | undefined): FileChange['change'] {
  if (!exists(from)) return 'added';
  return exists(to) ? 'modified' : 'deleted';
}
