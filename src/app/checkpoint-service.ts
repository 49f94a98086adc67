// The app's side of file checkpoints (issue #15; core in src/checkpoints): opens the store beside the
// sessions once (finishing any restore a crash interrupted), hands the agent a recorder, and answers the
// surfaces that move the leaf: which files a switch would change, restoring them, comparing two nodes,
// per-node counts, the store's size and garbage collection. No `vscode`; the host asks the user.
// Restore journals live in Arbor's own storage (`journalsDir`, one folder per store and workspace), never
// in the sessions folder: a repository can commit that folder, and its journals would be replayed at
// start (docs/reliability.md, threat model). Journals found there are named in the log and left alone.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TurnCheckpoints } from '../agent/agent-session-types';
import type { WorkspaceRoots } from '../agent/tools/types';
import {
  applyRestore,
  checkpointStoreDir,
  chosenChanges,
  collectGarbage,
  diffNodeStates,
  openCheckpoints,
  planRestore,
  readManifest,
  recoverRestores,
  stateAtPath,
  type Checkpoints,
  type FileChange,
  type GcResult,
  type RestoreOutcome,
  type RestorePlan,
  type StoreSize,
  FILES_CUSTOM_TYPE,
  MANIFEST_VERSION,
  type FilesManifest,
} from '../checkpoints';
import { journalDir } from '../checkpoints/journal';
import type { PlannedFile } from '../checkpoints/restore';
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import type { CheckpointSettings } from './checkpoint-settings';

export interface CheckpointServiceDeps {
  sessionsDir: () => string;
  /** Arbor's own storage for restore journals (globalStorage): never a folder a repository can fill */
  journalsDir: () => string;
  workspace: WorkspaceRoots;
  settings: () => CheckpointSettings;
  trusted: () => boolean;
  log: (message: string) => void;
}

/** What a switch would do to the files; `differ`: the two nodes' file states differ. */
export interface SwitchFilesPreview {
  plan: RestorePlan;
  differ: boolean;
  /** false in Restricted Mode or with checkpoints off: the switch moves the conversation only */
  restorable: boolean;
}

export type FilesRestoreResult = RestoreOutcome | { kind: 'refused'; message: string };

export class CheckpointService {
  private opened: { key: string; ready: Promise<Checkpoints | undefined> } | undefined;

  constructor(private readonly deps: CheckpointServiceDeps) {}

  get settings(): CheckpointSettings {
    return this.deps.settings();
  }

  /** The store for the current settings (opened and recovered once per store and options); undefined when off. */
  ready(): Promise<Checkpoints | undefined> {
    const settings = this.deps.settings();
    if (!settings.enabled) return Promise.resolve(undefined);
    const storeDir = checkpointStoreDir(this.deps.sessionsDir());
    const key = JSON.stringify([storeDir, settings.maxFileBytes, settings.exclude, settings.filesExclude]);
    if (this.opened?.key !== key) {
      this.close();
      this.opened = { key, ready: this.open(storeDir, settings) };
    }
    return this.opened.ready;
  }

  /** Stops the open store's folder watchers (settings changed, or Arbor stops); a later call reopens it. */
  close(): void {
    void this.opened?.ready.then((checkpoints) => checkpoints?.files.close());
    this.opened = undefined;
  }

  /** This installation's journal folder for a store and this workspace's folders. */
  private stateDirOf(storeDir: string): string {
    const key = createHash('sha256').update(JSON.stringify([storeDir, this.deps.workspace.folders.map((f) => [f.name, f.path])])).digest('hex').slice(0, 16);
    return join(this.deps.journalsDir(), key);
  }

  private async open(storeDir: string, settings: CheckpointSettings): Promise<Checkpoints | undefined> {
    try {
      const options = { maxFileBytes: settings.maxFileBytes, exclude: [...settings.exclude, ...settings.filesExclude], protectedDirectories: [this.deps.sessionsDir()] };
      const checkpoints = await openCheckpoints(storeDir, this.deps.workspace, options, this.deps.log, this.stateDirOf(storeDir));
      await this.reportForeignJournals(storeDir);
      for (const recovered of await recoverRestores(checkpoints.files, checkpoints.stateDir)) {
        const leftAlone = recovered.leftAlone?.length ? `; protected files left as they were: ${recovered.leftAlone.join(', ')}` : '';
        this.deps.log(`checkpoints: an interrupted restore was ${recovered.outcome} (${recovered.file})${recovered.error ? `: ${recovered.error}` : ''}${leftAlone}`);
      }
      return checkpoints;
    } catch (error) {
      this.deps.log(`checkpoints: could not open the store ${storeDir}: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** Journals in the sessions folder (an older Arbor's, or a repository's) are never replayed: said once in the log. */
  private async reportForeignJournals(storeDir: string): Promise<void> {
    const names = (await readdir(join(storeDir, 'journals')).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
    if (names.length > 0) this.deps.log(`checkpoints: ${names.length} restore journal(s) in the sessions folder (${join(storeDir, 'journals')}) were not replayed: Arbor only replays the journals it keeps in its own storage`);
  }

  /** The recorder the agent drives; it follows the settings (off: records nothing). */
  recorder(): TurnCheckpoints {
    return {
      beforeTool: async (tool, args, targets) => (await this.ready())?.recorder.beforeTool(tool, args, targets),
      afterTool: async (tool, args, targets) => (await this.ready())?.recorder.afterTool(tool, args, targets),
      finishTurn: async (append) => (await this.ready())?.recorder.finishTurn(append),
    };
  }

  /** What moving the leaf from `fromId` to `toId` would do to the files. */
  async preview(store: SessionStore, fromId: string | null, toId: string | null): Promise<SwitchFilesPreview | undefined> {
    const checkpoints = await this.ready();
    if (!checkpoints) return undefined;
    const plan = await planRestore(checkpoints.files, store, fromId, toId);
    const differ = diffNodeStates(stateAtPath(store.getBranch(fromId)), stateAtPath(store.getBranch(toId))).length > 0;
    return { plan, differ, restorable: this.deps.trusted() };
  }

  /** Applies a plan; `overwrite`: files changed outside Arbor the user chose to replace. Refused in Restricted Mode. */
  async restore(store: SessionStore, plan: RestorePlan, overwrite: ReadonlySet<string>): Promise<FilesRestoreResult> {
    if (!this.deps.trusted()) return { kind: 'refused', message: 'Files are not restored in Restricted Mode.' };
    const checkpoints = await this.ready();
    if (!checkpoints) return { kind: 'refused', message: 'File checkpoints are turned off (arbor.checkpoints.enabled).' };
    const outcome = await applyRestore(checkpoints.files, checkpoints.stateDir, plan, { overwrite, append: (type, data) => store.appendCustomEntry(type, data) });
    this.deps.log(`checkpoints: restore ${plan.fromId ?? 'root'} → ${plan.toId ?? 'root'}: ${describeOutcome(outcome)}`);
    return outcome;
  }

  /** Restores the files of `toId`, planned from the leaf as it is now (a turn may have moved it since the dialog). */
  async restoreTo(store: SessionStore, toId: string | null, overwrite: ReadonlySet<string>): Promise<FilesRestoreResult> {
    return this.restoreBetween(store, store.getLeafId(), toId, overwrite);
  }

  /** Restores `toId`'s files where the disk is believed to hold `fromId`'s (undoing a restore: the reverse). */
  async restoreBetween(store: SessionStore, fromId: string | null, toId: string | null, overwrite: ReadonlySet<string>): Promise<FilesRestoreResult> {
    const preview = await this.preview(store, fromId, toId);
    if (!preview) return { kind: 'refused', message: 'File checkpoints are turned off (arbor.checkpoints.enabled).' };
    return this.restore(store, preview.plan, overwrite);
  }

  /**
   * "Restore Files Only": the files of `toId` come back while the leaf stays; a `restore-point` manifest at
   * the leaf then records the new disk state, so Arbor's belief about the disk stays true.
   */
  async restoreFilesOnly(store: SessionStore, toId: string, overwrite: ReadonlySet<string>): Promise<FilesRestoreResult> {
    const preview = await this.preview(store, store.getLeafId(), toId);
    if (!preview) return { kind: 'refused', message: 'File checkpoints are turned off (arbor.checkpoints.enabled).' };
    const outcome = await this.restore(store, preview.plan, overwrite);
    const applied = chosenChanges(preview.plan, overwrite);
    if (outcome.kind === 'restored' && applied.length > 0) await store.appendCustomEntry(FILES_CUSTOM_TYPE, pointOf(applied));
    return outcome;
  }

  /** Files that differ between two nodes. */
  diff(store: SessionStore, fromId: string | null, toId: string | null): FileChange[] {
    return diffNodeStates(stateAtPath(store.getBranch(fromId)), stateAtPath(store.getBranch(toId)));
  }

  /** A blob's path in the store (for a diff editor), or undefined when off. */
  async blobPath(hash: string): Promise<string | undefined> {
    const checkpoints = await this.ready();
    return checkpoints && (await checkpoints.blobs.has(hash)) ? checkpoints.blobs.pathOf(hash) : undefined;
  }

  /** Where this installation keeps the open store's restore journals (its own storage), or undefined when off. */
  async journalsFolder(): Promise<string | undefined> {
    const checkpoints = await this.ready();
    return checkpoints ? journalDir(checkpoints.stateDir) : undefined;
  }

  /** The absolute path of a file key in this workspace. */
  async pathOf(key: string): Promise<string | undefined> {
    return (await this.ready())?.files.resolve(key);
  }

  async storeSize(): Promise<StoreSize | undefined> {
    return (await this.ready())?.blobs.size();
  }

  /** Removes blobs that none of `liveSessions` (session file paths) names. */
  async collect(liveSessions: readonly string[]): Promise<GcResult | undefined> {
    const checkpoints = await this.ready();
    return checkpoints ? collectGarbage(checkpoints.blobs, liveSessions) : undefined;
  }
}

/** How many files a node's manifest changed (0 for other entries). */
export function changedFileCount(entry: SessionEntry): number {
  const read = readManifest(entry);
  return read.kind === 'manifest' && read.manifest.reason === 'turn' ? Object.keys(read.manifest.after).length : 0;
}

function pointOf(applied: readonly PlannedFile[]): FilesManifest {
  const manifest: FilesManifest = { version: MANIFEST_VERSION, reason: 'restore-point', method: 'restore', before: {}, after: {} };
  for (const change of applied) {
    manifest.before[change.key] = change.current;
    manifest.after[change.key] = change.target;
  }
  return manifest;
}

function describeOutcome(outcome: RestoreOutcome): string {
  if (outcome.kind === 'failed') return `failed (${outcome.rolledBack ? 'rolled back' : 'not rolled back'}): ${outcome.message}`;
  return `${outcome.written.length} written, ${outcome.deleted.length} deleted, ${outcome.kept.length} kept`;
}
