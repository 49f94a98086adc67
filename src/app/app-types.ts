// The application controller's vocabulary: what it is built from (deps), what it shows (session, model,
// snapshot, conversation windows), what it reports (AppChange) and what its calls return. Kept apart from
// the controller (arbor-app.ts) so the views, the VS Code layer and tests can import the types alone.
import type { AppRefusal } from './app-outcome';
import type { ProjectInstructions } from '../agent/instructions/project-instructions';
import type { PinChange } from '../session/pins';
import type { AgentCompactionOptions, AgentSessionDeps } from '../agent/agent-session-types';
import type { AgentEvent, ApprovalPrompter, UsageInfo } from '../agent/events';
import type { CompactionConfirmer } from '../agent/auto-compaction-confirm';
import type { EditFeedback } from '../agent/tools/editor/after-edit';
import type { ToolRegistry } from '../agent/tools/tool-registry';
import type { ApprovalMode } from '../core/approval-modes';
import type { NavigateResult, TreeNavigationHookRegistry } from '../branch';
import type { CompactionHookRegistry, CompactionOutcome, CompactionPreparation, CompactionResult } from '../compaction';
import { modelKey } from '../llm/models';
import { takesImages } from '../llm/image-input';
import type { ProviderOptions } from '../llm/provider-options';
import type { KeyResolver, ModelInfo } from '../llm/types';
import type { LeafMemory } from '../session/leaf-memory';
import type { CheckpointService, FilesRestoreResult } from './checkpoint-service';
import type { ArborSettings } from './settings';
import type { TreeDelta } from './tree-index';
import type { ConversationEntry, ConversationSlice, TreeNodeView } from './view-model';

export interface AppLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Disposable {
  dispose(): void;
}

export interface ArborAppDeps {
  /** where new sessions are created (read at each creation: the setting may change) */
  sessionsDir: () => string;
  /** Arbor's own storage for restore journals (the extension's globalStorage), never the sessions folder */
  journalsDir: () => string;
  /** workspace folder paths; the first is the session cwd (default: process.cwd()) */
  workspaceRoots: readonly string[];
  trusted: () => boolean;
  settings: () => ArborSettings;
  keys: KeyResolver;
  leafMemory?: LeafMemory;
  prompter: ApprovalPrompter;
  /** asked before automatic threshold/idle compaction when `arbor.compaction.warnBeforeAuto` is on */
  compactionConfirmer?: CompactionConfirmer;
  log?: AppLogger;
  /** provider options for every request (tests: fast retry) */
  providerOptions?: ProviderOptions;
  /** extra agent options (tests: compaction retry policy) */
  compaction?: Omit<AgentCompactionOptions, 'settings' | 'hooks'>;
  /** the live tool list, one per extension host (default: a list of the seven built-in tools) */
  tools?: ToolRegistry;
  /** the editor's problems after a tool writes files (the VS Code host; src/agent/tools/editor/after-edit.ts) */
  editFeedback?: EditFeedback;
  /** instruction files and skills, one per host, shared by every chat (default: the workspace's, set by ArborChats) */
  instructions?: ProjectInstructions;
  /** the workspace's file checkpoints, shared by every open chat (default: a new service) */
  checkpoints?: CheckpointService;
  /** registries exported to other extensions (default: new ones) */
  compactionHooks?: CompactionHookRegistry;
  navigationHooks?: TreeNavigationHookRegistry;
  /** overrides for the agent (tests: system prompt, clock) */
  agent?: Partial<Pick<AgentSessionDeps, 'systemPrompt' | 'clock' | 'toolLimits' | 'maxTokens' | 'providerFactory'>>;
}

export interface ModelView {
  key: string;
  provider: string;
  id: string;
  name: string;
  contextWindow: number;
  reasoning: boolean;
  /** reads image input (src/llm/image-input.ts) */
  images: boolean;
  pricing: ModelInfo['pricing'];
  /** its provider needs an API key and none is set (SecretStorage or environment); pickers mark it */
  keyMissing?: boolean;
}

export interface SessionView {
  file: string;
  id: string;
  name?: string;
  /** false until the first entry is written (a new session has no file yet) */
  persisted: boolean;
}

export interface AppSnapshot {
  session: SessionView | null;
  leafId: string | null;
  model: ModelView;
  thinkingLevel: string;
  approvalMode: ApprovalMode;
  busy: boolean;
  compacting: boolean;
  navigating: boolean;
  queued: string[];
  trusted: boolean;
  usage: UsageInfo | null;
  /** the active path's conversation, root → leaf (with `conversation: { last }`, only its newest views) */
  conversation: ConversationEntry[];
  /** the active path shows entries before `conversation` (only ever true with `conversation: { last }`) */
  conversationHasEarlier: boolean;
  /** every entry of the session as a tree node (file order); omitted with `{ tree: false }` */
  tree?: TreeNodeView[];
}

/** Views of a stretch of the active path's conversation, for a UI that loads it a page at a time. */
export interface ConversationWindow extends ConversationSlice {
  /** the leaf of the path the views were taken from */
  leafId: string | null;
}

/** What a UI that shows the path ending at `leafId` from `beforeId` on asks for: the views before that. */
export interface EarlierPageRequest {
  leafId: string;
  beforeId: string;
  count: number;
}

export type EarlierPageResult = ({ ok: true } & ConversationWindow) | { ok: false; reason: string };

/** What `snapshot()` puts into `conversation`: the whole path (default), none, or its newest `last` views. */
export type ConversationOption = boolean | { last: number };

export type AppChange =
  | { kind: 'session'; session: SessionView | null }
  /** appended = new entries at the end of the active path; reset = the path changed otherwise: re-read `snapshot()` */
  | { kind: 'conversation'; appended: ConversationEntry[]; reset: boolean; labels: { id: string; label?: string }[]; pins?: PinChange[] }
  | ({ kind: 'tree' } & TreeDelta)
  | { kind: 'agent'; event: AgentEvent }
  | { kind: 'usage'; usage: UsageInfo }
  | { kind: 'settings'; model: ModelView; thinkingLevel: string; warnings?: string[] }
  | { kind: 'navigation'; state: 'start' | 'end'; summarizing: boolean };

export type PromptOutcome =
  | { kind: 'sent' }
  | { kind: 'queued' }
  | { kind: 'empty' }
  | { kind: 'compacted'; outcome: CompactionOutcome }
  | { kind: 'newSession'; session: SessionView }
  | { kind: 'modelChanged'; model: ModelView }
  /** the UI should act: open the tree / a model picker */
  | { kind: 'intent'; intent: 'showTree' | 'pickModel' }
  /** the prompt carries images and the current model (named) does not take them: nothing was sent */
  | { kind: 'imagesUnsupported'; model: string }
  /** a slash command the app refused (an unknown model, nothing to compact…), with the reason */
  | AppRefusal
  | { kind: 'error'; message: string };

export interface NavigateAppOptions {
  summarize?: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
  signal?: AbortSignal;
  /** restore the files of the new position too (issue #15); `overwrite`: outside-changed files to replace */
  files?: { overwrite: ReadonlySet<string> };
}

/** A navigation's result; `files`: what the file restore did, when one was asked for. */
export type AppNavigateResult = NavigateResult & { files?: FilesRestoreResult };

export interface InsertSummaryOptions {
  customInstructions?: string;
  replaceInstructions?: boolean;
  signal?: AbortSignal;
}

export type CompactReview = (result: CompactionResult, preparation: CompactionPreparation, signal?: AbortSignal) => Promise<CompactionResult | undefined>;

export interface CompactAppOptions {
  /**
   * "Compact Up To Here": keep the active path from this entry on and summarize what the context holds
   * before it. Refused while a turn (or another compaction) is running.
   */
  keepFrom?: string;
  /** `/handoff`, "Hand Off to New Session": a handoff document seeds a new session, whatever the strategy */
  handoff?: boolean;
}

export function modelView(model: ModelInfo): ModelView {
  return {
    key: modelKey(model),
    provider: model.provider,
    id: model.id,
    name: model.name,
    contextWindow: model.contextWindow,
    reasoning: model.reasoning,
    images: takesImages(model),
    pricing: { ...model.pricing },
  };
}
