// What an AgentSession is built from (its dependencies and compaction options) and what its callers pass
// (compact options, the file-checkpoint recorder), apart from agent-session.ts so the app's wiring can name
// these types without importing the agent loop.
import type { CompactionConfirmer } from './auto-compaction-confirm';
import type {
  CompactionHookRegistry,
  CompactionPreparation,
  CompactionResult,
  CompactionSettings,
  RetryPolicy,
  TokenEstimator,
} from '../compaction';
import type { ProviderOptions } from '../llm/provider-options';
import type { KeyResolver, ModelInfo, Provider } from '../llm/types';
import type { SessionStore } from '../session/store';
import type { ApprovalMode } from '../core/approval-modes';
import type { ApprovalPolicy } from './approval';
import type { ApprovalPrompter } from './events';
import type { Clock } from './idle-timer';
import type { SystemPromptInput } from './system-prompt';
import type { ToolCheckpoints } from './tool-calls';
import type { ProjectInstructions } from './instructions/project-instructions';
import type { AgentTool, ToolLimits, WorkspaceRoots } from './tools';
import type { EditFeedback } from './tools/editor/after-edit';
import type { ToolRegistry } from './tools/tool-registry';

export interface AgentCompactionOptions {
  /** current `arbor.compaction.*` settings (read at every decision); default: docs/pi-compatibility.md "Settings" */
  settings?: () => CompactionSettings;
  hooks?: CompactionHookRegistry;
  /** summarizer retry policy (tests inject an instant sleep) */
  retry?: Partial<RetryPolicy>;
  estimator?: TokenEstimator;
  fetchImpl?: typeof fetch;
  /** timeout of OpenAI native /responses/compact (default 120 s) */
  nativeCompactionTimeoutMs?: number;
  /**
   * Context promotion (`arbor.compaction.promotionModel`): the configured larger-window model(s) to
   * switch to instead of compacting, or undefined. Read at every decision.
   */
  promotionModel?: () => ModelInfo | readonly ModelInfo[] | undefined;
  /**
   * Asked before a threshold or idle compaction when `warnBeforeAuto` is on (never before overflow or
   * incomplete-output recovery). Without one, automatic compaction runs without asking.
   */
  confirmer?: CompactionConfirmer;
}

export interface AgentSessionDeps {
  store: SessionStore;
  /** the model the next request uses */
  model: ModelInfo;
  /** every model the user can use (summarizer candidates); default: just the current model */
  availableModels?: () => readonly ModelInfo[];
  keys: KeyResolver;
  /** default: `createProvider(model, keys, providerOptions)` */
  providerFactory?: (model: ModelInfo, keys: KeyResolver) => Provider;
  providerOptions?: ProviderOptions;
  /** the live tool list: every request offers `tools.list()` as it is then (src/agent/tools/tool-registry.ts) */
  tools: ToolRegistry;
  approval: ApprovalPolicy;
  prompter: ApprovalPrompter;
  /** extra shown with an approval request (e.g. the edited file for a diff view) */
  approvalPreview?: (tool: AgentTool, args: Record<string, unknown>) => Promise<unknown>;
  /** folders whose files always ask besides .vscode/, .git/, … (Arbor's sessions directory); read per run */
  protectedDirectories?: () => readonly string[];
  workspace: WorkspaceRoots;
  /** the approval mode of a session that records none yet and has no entries (a new chat); default Ask */
  approvalMode?: ApprovalMode;
  /**
   * The host's instruction files and skills (one per extension host, shared by its chats); scanned at
   * every prompt. Default: the workspace folders' AGENTS.md only, no skills.
   */
  instructions?: ProjectInstructions;
  /** VS Code workspace trust; a function so a trust change applies to the next tool call */
  trusted: boolean | (() => boolean);
  /**
   * The system prompt: fixed text, or a builder given the default input (folders, OS, date, AGENTS.md,
   * restricted flag, offered tools). Default: `buildSystemPrompt(input)`. Rebuilt at every prompt.
   */
  systemPrompt?: string | ((input: SystemPromptInput) => string | Promise<string>);
  compaction?: AgentCompactionOptions;
  toolLimits?: Partial<ToolLimits>;
  /** max output tokens per request (default: the provider's choice from the model) */
  maxTokens?: number;
  /** a new session for the handoff strategy; default: a sibling file with `parentSession` set */
  createHandoffSession?: (previous: SessionStore) => Promise<SessionStore>;
  clock?: Clock;
  log?: (message: string) => void;
  /** file checkpoints (src/checkpoints): each turn's file changes become an `arbor.files` entry */
  checkpoints?: TurnCheckpoints;
  /** the editor's problems appended after a tool that writes files (VS Code only) */
  editFeedback?: EditFeedback;
}

/** The recorder of file checkpoints as the agent loop drives it (src/checkpoints/recorder.ts). */
export interface TurnCheckpoints extends ToolCheckpoints {
  /** appends the turn's manifest after its tool results (when a file changed) */
  finishTurn(append: (customType: string, data: unknown) => Promise<{ id: string }>): Promise<unknown>;
}

export interface CompactOptions {
  /** preview-and-edit: return the result to save (maybe edited) or undefined to cancel */
  review?: (result: CompactionResult, preparation: CompactionPreparation, signal?: AbortSignal) => Promise<CompactionResult | undefined>;
  /** "Compact Up To Here": keep the path from this entry on (see prepareCompactionAt) */
  keepFrom?: string;
  /** manual handoff: a handoff document seeds a new session, whatever `arbor.compaction.strategy` says */
  handoff?: boolean;
}
