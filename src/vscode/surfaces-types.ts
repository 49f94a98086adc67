// What the VS Code surfaces (Session Tree, Sessions view, commands, status bar) need from the app
// controller that owns the current session and agent. The surfaces depend on this small interface
// rather than on the controller class, so they can be tested with a fake and stay independent of how the
// chat panel is wired. `adaptChats` (surfaces-adapter.ts) maps the open chats onto it: the focused chat's
// parts (src/app/chat-parts.ts) as they are, plus what spans the chats.
import type { ApprovalMode } from '../core/approval-modes';
import type * as vscode from 'vscode';
import type { UsageInfo } from '../agent';
import type { PromptOutcome } from '../app/app-types';
import type { AppOutcome } from '../app/app-outcome';
import type { ChatParts } from '../app/chat-parts';
import type { SessionStore } from '../session/store';
import type { FilesRestoreResult } from '../app/checkpoint-service';
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

/** What the app is busy with, for the status bar spinner. */
export type SurfaceActivity = 'idle' | 'busy' | 'compacting' | 'summarizing';

/**
 * The focused chat's parts themselves (src/app/chat-parts.ts: `session`, `models`, `tree`, `checkpoints`), by
 * composition: a new action of a part is a method there and a command, nothing forwarded here. What is left
 * here is what no single chat's part does: the session across chats, activity and events, the approval mode,
 * and the chat hooks.
 */
export interface SurfacesApp extends ChatParts {
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

  // A session named by its file, across the chats (a session is open in one chat at a time): these, not
  // `session`, whose switches act on the focused chat alone.
  /** opens a session file as the current session (a chat that already shows it comes forward instead) */
  openSession(file: string): Promise<void>;
  /** whether any open chat shows `file` */
  isOpen(file: string): boolean;
  /** renames a session: through the chat that has it open (its views follow), else in its file */
  renameSession(file: string, name: string): Promise<AppOutcome>;
  /** starts an empty session in the focused chat and shows that chat; resolves with the new file */
  newSession(): Promise<string>;

  /** the focused chat's approval mode (Ask, Auto-edit, Plan) */
  approvalMode(): ApprovalMode;
  /** switches the focused chat's approval mode (recorded in its session) and shows that chat */
  setApprovalMode(mode: ApprovalMode): Promise<void>;
  /** "Run this plan" in the focused chat: leaves Plan mode for `mode` and sends the follow-up prompt */
  /** what the prompt came to: a refusal is told by the command (src/vscode/commands/run-plan.ts) */
  runPlan(mode: Exclude<ApprovalMode, 'plan'>): Promise<PromptOutcome>;
  /** applies the settings and stored keys to every chat (after a key was set or cleared) */
  applySettings(): Promise<void>;
  /** asks the chat to scroll to an entry (best effort: the chat may not show it) */
  revealInChat(entryId: string): Promise<void>;
  /** puts text into the chat input (after switching to a user message, for editing and resending) */
  setChatInput?(text: string, images?: readonly ImageContent[]): Promise<void>;
  /** adds text after the focused chat's draft and shows that chat; false when it could not be delivered */
  addToChatInput?(text: string): Promise<boolean>;
  /** sends a prompt in the focused chat as if typed there, and shows that chat */
  promptInChat?(text: string): Promise<boolean>;
}
