// File checkpoints: the workspace follows the conversation tree (docs/architecture.md, "file
// checkpoints"). No `vscode` here; the editor surfaces call these functions.
import { join } from 'node:path';
import { isInside, realpathDeep } from '../agent/tools/paths';
import type { WorkspaceRoots } from '../agent/tools/types';
import { BlobStore } from './blob-store';
import { TurnRecorder } from './recorder';
import { DEFAULT_CHECKPOINT_OPTIONS, type CheckpointOptions } from './types';
import { WorkspaceFiles } from './workspace-files';

export { BlobStore, hashContent, type StoreSize } from './blob-store';
export { collectGarbage, referencedBlobs, type GcResult } from './gc';
export { recoverRestores, type RecoveredJournal } from './journal';
export { diffNodeStates, readManifest, stateAtPath, type FileChange, type NodeFileState } from './manifest';
export { TurnRecorder, type AppendCustom } from './recorder';
export { applyRestore, chosenChanges, describeNotRestorable, planRestore, type NotRestorable, type PlannedFile, type ProtectedChange, type NotRestorableWhy, type OutsideChange, type RestoreChoices, type RestoreOutcome, type RestorePlan, type SessionPaths } from './restore';
export * from './types';
export { WorkspaceFiles } from './workspace-files';

/** Where a session directory keeps its checkpoint store (beside the session files, one per workspace). */
export function checkpointStoreDir(sessionDir: string): string {
  return join(sessionDir, 'checkpoints');
}

export interface Checkpoints {
  blobs: BlobStore;
  files: WorkspaceFiles;
  recorder: TurnRecorder;
  storeDir: string;
  /** Arbor's own folder for this store's restore journals (applyRestore, recoverRestores) */
  stateDir: string;
}

/**
 * Everything one workspace needs: the store, the file reader and a recorder for AgentSession.
 * `stateDir`: where restore journals go (default: the store; the app passes its own storage). A store
 * inside a workspace folder is untrusted input: its blobs are verified by hash (blob-store.ts).
 */
export async function openCheckpoints(storeDir: string, workspace: WorkspaceRoots, options: Partial<CheckpointOptions> = {}, log?: (message: string) => void, stateDir = storeDir): Promise<Checkpoints> {
  const blobs = new BlobStore(storeDir, await insideWorkspace(storeDir, workspace));
  const files = await WorkspaceFiles.create(workspace, blobs, { ...DEFAULT_CHECKPOINT_OPTIONS, ...options });
  return { blobs, files, recorder: new TurnRecorder(files, log), storeDir, stateDir };
}

async function insideWorkspace(dir: string, workspace: WorkspaceRoots): Promise<boolean> {
  const real = await realpathDeep(dir).catch(() => dir);
  for (const folder of workspace.folders) {
    const root = await realpathDeep(folder.path).catch(() => folder.path);
    if (isInside(root, real) || isInside(folder.path, dir)) return true;
  }
  return false;
}
