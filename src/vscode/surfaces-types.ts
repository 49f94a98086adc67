// What the VS Code surfaces (Session Tree, Sessions view, commands, status bar) need from the app
// controller that owns the current session and agent. The surfaces depend on this small interface
// rather than on the controller class, so they can be tested with a fake and stay independent of how the
// chat panel is wired. `adaptArborApp` (surfaces-adapter.ts) maps the real ArborApp onto it.
import type { ApprovalMode } from '../core/approval-modes';
import type * as vscode from 'vscode';
import type { UsageInfo } from '../agent';
import type { CompactionPreparation, CompactionPreview, CompactionResult } from '../compaction';
import type { ModelView, PromptOutcome } from '../app/app-types';
import type { AppOutcome } from '../app/app-outcome';
import type { TreeActionsApi } from '../app/tree-actions';
import type { SessionSummary } from '../session/catalog';
import type { PinOutcome } from '../app/pin-entry';
import type { StageOutcome } from '../branch/stage';
import type { SessionStore } from '../session/store';
import type { FilesRestoreResult, SwitchFilesPreview } from '../app/checkpoint-service';
import type { RestoreMode } from '../app/checkpoint-settings';
import type { FileChange, GcResult, StoreSize } from '../checkpoints';
import type { ImageContent } from '../core/messages';

/**
 * What the surfaces may read of the focused session: its entries, tree and names, and when they change.
 * They change it only through the SurfacesApp calls (navigate, label, compact, rename…), never the store.
 */
export type SessionReader = Pick<
  SessionStore,
  'file' | 'header' | 'entryCount' | 'isRoot' | 'getLeafId' | 'getLeafEntry' | 'getBranch' | 'getEntry' | 'getEntries' | 'getLabel' | 'getChildren' | 'getSessionName' | 'onDidAppend' | 'onDidReload'
>;

/** What a navigation ended with (a subset of src/branch NavigateResult). */
export interface SurfaceNavigateResult {
  cancelled: boolean;
  message?: string;
  /** text of a picked user message, for editing and resending */
  editorText?: string;
  /** its images, to come back as the composer's chips */
  editorImages?: ImageContent[];
  newLeafId: string | null;
  /** what the file restore did, when one was asked for */
  files?: FilesRestoreResult;
}

export interface SurfaceNavigateOptions {
  summarize?: boolean;
  customInstructions?: string;
  signal?: AbortSignal;
  /** restore the files of the new position too; `overwrite`: outside-changed files to replace */
  files?: { overwrite: ReadonlySet<string> };
}

/** File checkpoints as the surfaces use them (src/app/checkpoint-service.ts). */
export interface SurfaceCheckpoints {
  /** `arbor.checkpoints.restore` */
  restoreMode(): RestoreMode;
  /** what switching to `targetId` would do to the files; undefined when checkpoints are off */
  previewSwitch(targetId: string): Promise<SwitchFilesPreview | undefined>;
  /** files that differ between two nodes */
  diff(fromId: string | null, toId: string | null): FileChange[];
  /** the content of a blob on disk, when stored */
  blobPath(hash: string): Promise<string | undefined>;
  /** the absolute path of a file key */
  pathOf(key: string): Promise<string | undefined>;
  /** what restoring `entryId`'s files (leaf unchanged) would do */
  previewRestore(entryId: string): Promise<SwitchFilesPreview | undefined>;
  restoreFilesOnly(entryId: string, overwrite: ReadonlySet<string>): Promise<AppOutcome<FilesRestoreResult>>;
  storeSize(): Promise<StoreSize | undefined>;
  collect(liveSessions: readonly string[]): Promise<GcResult | undefined>;
}

export interface SurfaceCompactOptions {
  /** called with the generated summary before it is saved: return it (maybe edited) or undefined to cancel */
  review?: (result: CompactionResult, preparation: CompactionPreparation, signal?: AbortSignal) => Promise<CompactionResult | undefined>;
  /** "Compact Up To Here": keep the active path from this entry on (refused while a turn runs) */
  keepFrom?: string;
  /** "Hand Off to New Session": a handoff document seeds a new session */
  handoff?: boolean;
}

/** What the app is busy with, for the status bar spinner. */
export type SurfaceActivity = 'idle' | 'busy' | 'compacting' | 'summarizing';

export interface SurfacesApp {
  /** the current session, undefined before one is created or opened */
  readonly store: SessionReader | undefined;
  /** fires when another session becomes current (new, open, fork, handoff) */
  readonly onDidChangeSession: vscode.Event<void>;
  /** fires when the leaf moved without an append (navigation, reload) */
  readonly onDidChangeLeaf: vscode.Event<void>;
  /** fires when usage figures or the activity changed */
  readonly onDidChangeUsage: vscode.Event<void>;

  /** context usage of the current session; undefined without a session or model */
  usage(): UsageInfo | undefined;
  activity(): SurfaceActivity;

  /** the workspace's sessions, newest first */
  listSessions(): Promise<SessionSummary[]>;

  /**
   * The focused chat's tree actions themselves (src/app/tree-actions.ts: switch, branch, label, pin, summarize
   * from here, carry a summary, restore files), by composition: a new tree action is a method there and a
   * command, nothing forwarded here. Refusals are typed (src/app/app-outcome.ts).
   */
  readonly tree: TreeActionsApi;
  /** manual compaction; rejects with the engine's message on skip/cancel/failure */
  compact(customInstructions: string | undefined, options: SurfaceCompactOptions): Promise<void>;
  cancelCompaction(): boolean;
  /** what a manual compaction would do now (no model call); undefined: nothing to compact */
  previewCompaction?(): CompactionPreview | undefined;
  /** the preview of a chosen cut, counted like the marker and meter (system prompt and tools included) */
  previewCompactionOf?(preparation: CompactionPreparation): CompactionPreview | undefined;
  /** opens a session file as the current session (a chat that already shows it comes forward instead) */
  openSession(file: string): Promise<void>;
  /** whether any open chat shows `file` (a session is open in one chat at a time) */
  isOpen(file: string): boolean;
  /** renames a session: through the chat that has it open (its views follow), else in its file */
  renameSession(file: string, name: string): Promise<AppOutcome>;
  /** starts an empty session in the focused chat and shows that chat; resolves with the new file */
  newSession(): Promise<string>;
  /** every model the user can pick */
  models(): ModelView[];
  /** the focused chat's model ("provider/id") */
  currentModelKey(): string;
  /** switches the focused chat's model */
  setModel(key: string): Promise<AppOutcome<ModelView>>;
  /** the focused chat's approval mode (Ask, Auto-edit, Plan) */
  approvalMode(): ApprovalMode;
  /** switches the focused chat's approval mode (recorded in its session) and shows that chat */
  setApprovalMode(mode: ApprovalMode): Promise<void>;
  /** "Run this plan" in the focused chat: leaves Plan mode for `mode` and sends the follow-up prompt */
  /** what the prompt came to: a refusal is told by the command (src/vscode/commands/run-plan.ts) */
  runPlan(mode: Exclude<ApprovalMode, 'plan'>): Promise<PromptOutcome>;
  /** applies the settings and stored keys to every chat (after a key was set or cleared) */
  applySettings(): Promise<void>;
  /** forks the path root→entryId into a new session and makes it current */
  forkSession(entryId: string): Promise<AppOutcome>;
  /** asks the chat to scroll to an entry (best effort: the chat may not show it) */
  revealInChat(entryId: string): Promise<void>;
  /** file checkpoints (absent in fakes that do not test them) */
  readonly checkpoints?: SurfaceCheckpoints;
  /** puts text into the chat input (after switching to a user message, for editing and resending) */
  setChatInput?(text: string, images?: readonly ImageContent[]): Promise<void>;
  /** adds text after the focused chat's draft and shows that chat; false when it could not be delivered */
  addToChatInput?(text: string): Promise<boolean>;
  /** sends a prompt in the focused chat as if typed there, and shows that chat */
  promptInChat?(text: string): Promise<boolean>;
}
