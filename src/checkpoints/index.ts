// File checkpoints: the workspace follows the conversation tree (docs/architecture.md, "file
// checkpoints"). No `vscode` here; the editor surfaces call these functions.
import { join } from 'node:path';
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
export { applyRestore, describeNotRestorable, planRestore, type NotRestorable, type NotRestorableWhy, type OutsideChange, type RestoreChoices, type RestoreOutcome, type RestorePlan, type SessionPaths } from './restore';
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
}

/** Everything one workspace needs: the store, the file reader and a recorder for AgentSession. */
export async function openCheckpoints(storeDir: string, workspace: WorkspaceRoots, options: Partial<CheckpointOptions> = {}, log?: (message: string) => void): Promise<Checkpoints> {
  const blobs = new BlobStore(storeDir);
  const files = await WorkspaceFiles.create(workspace, blobs, { ...DEFAULT_CHECKPOINT_OPTIONS, ...options });
  return { blobs, files, recorder: new TurnRecorder(files, log), storeDir };
}
