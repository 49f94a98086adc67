// The application controller: the single owner of the current session and its agent. Every UI (chat
// webview, Session Tree, commands, status bar) goes through this object; none of them holds a
// SessionStore or an AgentSession of its own. No `vscode` import: the host passes small adapters in
// (keys, leaf memory, approval prompter, settings, trust, log), and the whole thing is unit-tested in Node.
import { planStage, stageRefused, summarizeStage, type StageOutcome } from '../branch/stage';
import { PIN_CUSTOM_TYPE, pinChangeOf, pinData, type PinChange } from '../session/pins';
import { pinRefusal, type PinOutcome } from './pin-entry';
import { ApprovalPolicy } from '../agent/approval';
import { AgentSession, type AgentCompactionOptions, type AgentSessionDeps } from '../agent/agent-session';
import type { AgentEvent, ApprovalPrompter, UsageInfo } from '../agent/events';
import type { CompactionConfirmer } from '../agent/auto-compaction-confirm';
import { createTools, workspaceFromPaths, type AgentTool, type WorkspaceRoots } from '../agent/tools';
import {
  TreeNavigationHookRegistry,
  insertBranchSummary as carryBranchSummary,
  navigateTree,
  resolveNavigationTarget,
  type BranchSummarizerDeps,
  type CarryResult,
  type NavigateResult,
} from '../branch';
import { CompactionHookRegistry, CompactionNotDone, skipped, type CompactionOutcome, type CompactionPreparation, type CompactionPreview, type CompactionResult } from '../compaction';
import { findModel, modelKey, DEMO_MODEL } from '../llm/models';
import { createProvider } from '../llm/registry';
import { autoPickOrder } from '../llm/providers';
import type { ProviderOptions } from '../llm/provider-options';
import type { KeyResolver, ModelInfo, ThinkingLevel } from '../llm/types';
import { contentText } from '../core/messages';
import { createSession, forkBranch as forkSessionBranch, listSessions, openSession, type SessionSummary } from '../session/catalog';
import type { SessionEntry } from '../session/entries';
import type { LeafMemory } from '../session/leaf-memory';
import { describeReadOnly, type ReadOnlyReason } from '../session/header';
import type { SessionStore } from '../session/store';
import { SessionSummaryCache } from '../session/summary-cache';
import { previewFileChange } from './approval-preview';
import { CheckpointService, type FilesRestoreResult, type SwitchFilesPreview } from './checkpoint-service';
import { usageView } from './normalize-view';
import { LOCAL_PROVIDER, THINKING_LEVELS, type ArborSettings } from './settings';
import { parseSlashCommand } from './slash-commands';
import { TreeIndex, type TreeDelta } from './tree-index';
import {
  conversationEntry,
  conversationOfPath,
  conversationSlice,
  PAIRING_SCAN_LIMIT,
  pairToolCalls,
  pathTail,
  type ConversationEntry,
  type ConversationSlice,
  type ToolCallView,
  type TreeNodeView,
} from './view-model';

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
  /** default: all seven built-in tools */
  tools?: readonly AgentTool[];
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
  pricing: ModelInfo['pricing'];
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

/** The active path and each entry's position on it (no views: cheap to build, O(path)). */
interface PathIndex {
  leafId: string | null;
  /** the store's indexRevision it was built from: a rewrite (pruning) replaces the entry objects */
  revision: number;
  path: SessionEntry[];
  position: Map<string, number>;
}

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

export type CompactReview = (result: CompactionResult, preparation: CompactionPreparation) => Promise<CompactionResult | undefined>;

export interface CompactAppOptions {
  /**
   * "Compact Up To Here": keep the active path from this entry on and summarize what the context holds
   * before it. Refused while a turn (or another compaction) is running.
   */
  keepFrom?: string;
  /** `/handoff`, "Hand Off to New Session": a handoff document seeds a new session, whatever the strategy */
  handoff?: boolean;
}

/** Errors meant for the user (bad id, no session…): shown as they are. */
export class ArborAppError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArborAppError';
  }
}

export function modelView(model: ModelInfo): ModelView {
  return {
    key: modelKey(model),
    provider: model.provider,
    id: model.id,
    name: model.name,
    contextWindow: model.contextWindow,
    reasoning: model.reasoning,
    pricing: { ...model.pricing },
  };
}

/** What one entry adds to the branch totals (assistant replies with usage; as `branchTotals` in chat-items). */
function replyUsage(entry: SessionEntry): { cost: number; tokens: number } {
  if (entry.type !== 'message' || entry.message.role !== 'assistant' || !entry.message.usage) return { cost: 0, tokens: 0 };
  const usage = usageView(entry.message.usage, []);
  return usage ? { cost: usage.cost, tokens: usage.input + usage.output } : { cost: 0, tokens: 0 };
}

export class ArborApp implements Disposable {
  readonly compactionHooks: CompactionHookRegistry;
  readonly navigationHooks: TreeNavigationHookRegistry;
  readonly workspace: WorkspaceRoots;
  readonly cwd: string;
  /** file checkpoints: capture during turns, restore with branch switches */
  readonly checkpoints: CheckpointService;

  private store: SessionStore | undefined;
  private agent: AgentSession | undefined;
  private tree: TreeIndex | undefined;
  private readonly policy: ApprovalPolicy;
  private readonly tools: readonly AgentTool[];
  private readonly listeners = new Set<(change: AppChange) => void>();
  private sessionSubscriptions: (() => void)[] = [];
  private model: ModelInfo;
  private modelChosen = false;
  private thinkingLevel: ThinkingLevel;
  private lastModelSetting: string;
  private lastThinkingSetting: ThinkingLevel;
  /** the conversation's leaf as the UI last heard it; appends onto it are "appended", others "reset" */
  private conversationLeaf: string | null = null;
  /** the Sessions list after a turn reads only what changed (see SessionSummaryCache) */
  private readonly sessionSummaries = new SessionSummaryCache();
  private pendingCalls = new Map<string, { entry: ConversationEntry; call: ToolCallView }>();
  private navigation: AbortController | undefined;
  private navigationSummarizing = false;
  /** compaction reasons seen in this process, by compaction entry id (the file does not store them) */
  private readonly compactionReasons = new Map<string, string>();
  /** first user message text: null = not looked up yet for this session */
  private firstUserText: string | undefined | null = null;
  private totals: { leafId: string | null; cost: number; tokens: number } | undefined;
  /** built when a UI first asks for an earlier page of the conversation; follows appends to the leaf */
  private pathIndex: PathIndex | undefined;
  private switching: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly deps: ArborAppDeps) {
    const log = (message: string) => deps.log?.warn(message);
    this.compactionHooks = deps.compactionHooks ?? new CompactionHookRegistry(log);
    this.navigationHooks = deps.navigationHooks ?? new TreeNavigationHookRegistry(log);
    this.workspace = workspaceFromPaths(deps.workspaceRoots);
    this.cwd = deps.workspaceRoots[0] ?? process.cwd();
    const settings = deps.settings();
    this.policy = new ApprovalPolicy({ settings: settings.approval });
    this.tools = deps.tools ?? createTools();
    this.lastModelSetting = settings.model;
    this.lastThinkingSetting = settings.thinkingLevel;
    this.thinkingLevel = settings.thinkingLevel;
    this.model = findModel(settings.models, settings.model) ?? DEMO_MODEL;
    this.checkpoints = new CheckpointService({
      sessionsDir: deps.sessionsDir,
      workspace: this.workspace,
      settings: () => deps.settings().checkpoints,
      trusted: deps.trusted,
      log: (message) => deps.log?.info(message),
    });
  }

  // ---- events -------------------------------------------------------------------------------------

  onDidChange(listener: (change: AppChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(change: AppChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.deps.log?.error(`app listener failed: ${(error as Error)?.stack ?? String(error)}`);
      }
    }
  }

  // ---- state --------------------------------------------------------------------------------------

  get currentStore(): SessionStore | undefined {
    return this.store;
  }

  get currentAgent(): AgentSession | undefined {
    return this.agent;
  }

  get busy(): boolean {
    return this.agent?.busy ?? false;
  }

  get currentModel(): ModelInfo {
    return this.agent?.model ?? this.model;
  }

  get currentThinkingLevel(): string {
    return this.agent?.thinkingLevel ?? this.thinkingLevel;
  }

  /** Every model the user can pick (built-ins, `arbor.models`, the local server). */
  availableModels(): ModelView[] {
    return this.deps.settings().models.map(modelView);
  }

  sessionView(): SessionView | null {
    const store = this.store;
    if (!store) return null;
    const name = store.getSessionName();
    return { file: store.file, id: store.header.id, ...(name ? { name } : {}), persisted: store.entryCount > 0 };
  }

  /**
   * The text of the session's first user message (file order), what the Sessions view shows for a session
   * without a name; undefined when there is none yet. Found once per session, then kept.
   */
  firstUserMessage(): string | undefined {
    const store = this.store;
    if (!store) return undefined;
    if (this.firstUserText === null) {
      this.firstUserText = undefined;
      for (const entry of store.getEntries()) {
        if (entry.type === 'message' && entry.message.role === 'user') {
          this.firstUserText = contentText(entry.message.content);
          break;
        }
      }
    }
    return this.firstUserText;
  }

  /**
   * Cost and tokens of the replies on the active path. Kept up to date on appends; recomputed (O(path))
   * only after the path changed otherwise, so state and usage posts during a turn do not walk the session.
   */
  branchTotals(): { cost: number; tokens: number } {
    const store = this.store;
    if (!store) return { cost: 0, tokens: 0 };
    const leafId = store.getLeafId();
    if (this.totals?.leafId !== leafId) {
      let cost = 0;
      let tokens = 0;
      for (const entry of store.getBranch()) {
        const reply = replyUsage(entry);
        cost += reply.cost;
        tokens += reply.tokens;
      }
      this.totals = { leafId, cost, tokens };
    }
    return { cost: this.totals.cost, tokens: this.totals.tokens };
  }

  usage(): UsageInfo | null {
    return this.agent?.usage() ?? null;
  }

  /**
   * The view model of the session: the conversation on the active path (O(path) views; with
   * `conversation: { last }` only the newest views, O(last)) and, unless `tree: false`, every tree node
   * (O(entries); UIs call this on (re)load and on `reset`, and patch from events otherwise).
   */
  snapshot(options: { tree?: boolean; conversation?: ConversationOption } = {}): AppSnapshot {
    const store = this.store;
    const wanted = options.conversation ?? true;
    // `conversation: false` (state posts) leaves it empty: building it costs views
    const { views, hasEarlier } =
      !store || wanted === false ? { views: [], hasEarlier: false } : wanted === true ? { views: this.conversationFromStore(store), hasEarlier: false } : this.conversationTail(wanted.last);
    return {
      session: this.sessionView(),
      leafId: store?.getLeafId() ?? null,
      model: modelView(this.currentModel),
      thinkingLevel: this.currentThinkingLevel,
      busy: this.busy,
      compacting: this.agent?.compacting ?? false,
      navigating: this.navigation !== undefined,
      queued: [...(this.agent?.queuedMessages ?? [])],
      trusted: this.deps.trusted(),
      usage: this.usage(),
      conversation: views,
      conversationHasEarlier: hasEarlier,
      ...(options.tree === false ? {} : { tree: this.tree?.all() ?? [] }),
    };
  }

  /**
   * The newest `count` views of the active path's conversation (what a chat shows first), tool calls paired
   * as on the whole path. Only the end of the path the slice needs is walked (O(count + turn), not O(path)).
   */
  conversationTail(count: number): ConversationWindow {
    const store = this.store;
    if (!store) return { leafId: null, views: [], hasEarlier: false };
    const leafId = store.getLeafId();
    const wanted = Math.max(1, Math.floor(count));
    const path = this.isCurrentPathIndex(store) ? this.pathIndex!.path : pathTail(store.getLeafEntry(), (entry) => this.parentOf(store, entry), wanted);
    return { leafId, ...this.decorated(conversationSlice(path, path.length, wanted, (id) => store.getLabel(id))) };
  }

  /** An entry's parent as the store's paths see it: none for a root or a self-parented entry. */
  private parentOf(store: SessionStore, entry: SessionEntry): SessionEntry | undefined {
    return entry.parentId === null || entry.parentId === entry.id ? undefined : store.getEntry(entry.parentId);
  }

  /**
   * The (at most) `count` views right before `beforeId`, for a UI showing the path that ends at `leafId`
   * from `beforeId` on. Refused with a reason, never thrown, when that is not (a part of) the active path
   * any more or `beforeId` is not on it: a UI's request may be stale or come from a hostile webview.
   */
  conversationBefore(request: EarlierPageRequest): EarlierPageResult {
    const store = this.store;
    if (!store) return { ok: false, reason: 'no session is open' };
    const count = Math.floor(request.count);
    if (!(count >= 1)) return { ok: false, reason: `count ${request.count} is not a positive number` };
    const { path, position } = this.activePathIndex(store);
    const shownLeaf = position.get(request.leafId);
    if (shownLeaf === undefined) return { ok: false, reason: `${request.leafId} is not on the active path (it changed since)` };
    const before = position.get(request.beforeId);
    if (before === undefined || before > shownLeaf) return { ok: false, reason: `${request.beforeId} is not on the path ending at ${request.leafId}` };
    const slice = conversationSlice(path, before, count, (id) => store.getLabel(id));
    return { ok: true, leafId: request.leafId, ...this.decorated(slice) };
  }

  private isCurrentPathIndex(store: SessionStore): boolean {
    return this.pathIndex?.leafId === store.getLeafId() && this.pathIndex.revision === store.indexRevision;
  }

  private activePathIndex(store: SessionStore): PathIndex {
    if (!this.isCurrentPathIndex(store)) {
      const path = store.getBranch();
      const position = new Map<string, number>();
      for (let i = 0; i < path.length; i++) position.set(path[i]!.id, i);
      this.pathIndex = { leafId: store.getLeafId(), revision: store.indexRevision, path, position };
    }
    return this.pathIndex!;
  }

  /** Keeps the path index in step with an append that extends the active path (O(1)). */
  private extendPathIndex(entry: SessionEntry): void {
    const index = this.pathIndex;
    if (!index || entry.parentId !== index.leafId || index.position.has(entry.id)) return;
    index.position.set(entry.id, index.path.length);
    index.path.push(entry);
    index.leafId = entry.id;
  }

  private decorated(slice: ConversationSlice): ConversationSlice {
    for (const view of slice.views) this.decorate(view);
    return slice;
  }

  /** One entry's conversation view (e.g. to reveal it); undefined for unknown or hidden entries. */
  entryView(entryId: string): ConversationEntry | undefined {
    const entry = this.store?.getEntry(entryId);
    return entry ? this.viewOf(entry) : undefined;
  }

  treeNode(entryId: string): TreeNodeView | undefined {
    return this.tree?.get(entryId);
  }

  private conversationFromStore(store: SessionStore): ConversationEntry[] {
    const conversation = conversationOfPath(store.getBranch(), (id) => store.getLabel(id));
    for (const view of conversation) this.decorate(view);
    return conversation;
  }

  private viewOf(entry: SessionEntry): ConversationEntry | undefined {
    const view = conversationEntry(entry, this.store?.getLabel(entry.id));
    if (view) this.decorate(view);
    return view;
  }

  private decorate(view: ConversationEntry): void {
    if (view.problems) this.store?.notePartlyShown(view.id, view.problems);
    if (this.tree?.isPinned(view.id)) view.pinned = true;
    if (view.kind === 'compaction' && view.reason === undefined) {
      const reason = this.compactionReasons.get(view.id);
      if (reason) view.reason = reason;
    }
  }

  // ---- sessions -----------------------------------------------------------------------------------

  /** Sessions in the sessions directory, newest first. */
  async listSessions(): Promise<SessionSummary[]> {
    const listing = await listSessions(this.deps.sessionsDir(), { cache: this.sessionSummaries, growing: this.store?.file });
    return listing.sessions;
  }

  /** Starts an empty session (its file is written with the first message). A running turn is stopped. */
  async newSession(): Promise<SessionView> {
    return this.serialized(async () => {
      await this.stopForSwitch();
      const store = await createSession({ dir: this.deps.sessionsDir(), cwd: this.cwd, ...this.leafMemoryOption() });
      await this.attach(store);
      return this.sessionView()!;
    });
  }

  /** Opens a session file (Arbor's or pi's). A running turn is stopped. */
  async openSession(file: string): Promise<SessionView> {
    return this.serialized(async () => {
      if (this.store?.file === file) return this.sessionView()!;
      const store = await openSession(file, this.leafMemoryOption());
      await this.stopForSwitch();
      await this.attach(store);
      return this.sessionView()!;
    });
  }

  /** Copies the path to `leafId` (default: the leaf) into a new session file and switches to it. */
  async forkBranch(leafId?: string): Promise<SessionView> {
    const store = this.requireStore();
    const target = leafId ?? store.getLeafId();
    if (target === null) throw new ArborAppError('Nothing to fork: the session is empty.');
    if (!store.getEntry(target)) throw new ArborAppError(`Unknown entry "${target}".`);
    return this.serialized(async () => {
      await this.stopForSwitch();
      const forked = await forkSessionBranch(store, target, { dir: this.deps.sessionsDir(), cwd: this.cwd, ...this.leafMemoryOption() });
      await this.attach(forked);
      return this.sessionView()!;
    });
  }

  private leafMemoryOption(): { leafMemory?: LeafMemory } {
    return this.deps.leafMemory ? { leafMemory: this.deps.leafMemory } : {};
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.switching.then(task, task);
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async stopForSwitch(): Promise<void> {
    this.navigation?.abort();
    if (this.agent?.busy) await this.agent.stop();
  }

  private async ensureSession(): Promise<SessionStore> {
    if (this.store) return this.store;
    await this.newSession();
    return this.store!;
  }

  private requireStore(): SessionStore {
    if (!this.store) throw new ArborAppError('No session is open.');
    return this.store;
  }

  private requireAgent(): AgentSession {
    this.requireStore();
    return this.agent!;
  }

  private requireEntry(entryId: string): SessionEntry {
    const entry = this.requireStore().getEntry(entryId);
    if (!entry) throw new ArborAppError(`Unknown entry "${entryId}".`);
    return entry;
  }

  private async attach(store: SessionStore): Promise<void> {
    this.detach();
    this.policy.resetSession();
    this.store = store;
    this.tree = new TreeIndex(store);
    this.conversationLeaf = store.getLeafId();
    this.rebuildPendingCalls(store);
    this.sessionSubscriptions.push(
      store.onDidAppend((entry) => this.onAppend(entry)),
      store.onDidReload(() => this.onReload()),
    );
    const model = this.modelForSession(store);
    const agent = new AgentSession({
      store,
      model,
      availableModels: () => this.deps.settings().models,
      keys: this.deps.keys,
      ...(this.deps.providerOptions ? { providerOptions: this.deps.providerOptions } : {}),
      tools: this.tools,
      approval: this.policy,
      prompter: this.deps.prompter,
      approvalPreview: (toolName, args) => previewFileChange(toolName, args, this.workspace),
      protectedDirectories: () => [this.deps.sessionsDir()],
      workspace: this.workspace,
      trusted: () => this.deps.trusted(),
      compaction: {
        ...(this.deps.compaction ?? {}),
        settings: () => this.deps.settings().compaction,
        hooks: this.compactionHooks,
        ...(this.deps.compactionConfirmer ? { confirmer: this.deps.compactionConfirmer } : {}),
      },
      log: (message) => this.deps.log?.info(message),
      checkpoints: this.checkpoints.recorder(),
      ...(this.deps.agent ?? {}),
    });
    // Finish a restore a crash interrupted before this session's first turn (checkpoint-service.ts).
    await this.checkpoints.ready();
    this.agent = agent;
    this.sessionSubscriptions.push(agent.onEvent((event) => this.onAgentEvent(event)));
    this.emit({ kind: 'session', session: this.sessionView() });
    this.emit({ kind: 'conversation', appended: [], reset: true, labels: [] });
    this.emitSettings();
    if (store.readOnly) this.announceReadOnly(store.readOnly);
    // A new, empty session starts at the configured thinking level (persisted like any change).
    if (store.entryCount === 0 && this.thinkingLevel !== agent.thinkingLevel && this.model.reasoning) {
      await agent.setThinkingLevel(this.thinkingLevel);
    }
  }

  /** A newer version's session is shown but never written: say so before the user types into it. */
  private announceReadOnly(readOnly: ReadOnlyReason): void {
    const message = describeReadOnly(readOnly);
    this.deps.log?.warn(message);
    this.emit({ kind: 'agent', event: { type: 'notice', level: 'warning', message } });
  }

  private detach(): void {
    for (const unsubscribe of this.sessionSubscriptions.splice(0)) unsubscribe();
    this.agent?.dispose();
    this.agent = undefined;
    this.store = undefined;
    this.tree = undefined;
    this.pendingCalls.clear();
    this.firstUserText = null;
    this.totals = undefined;
    this.pathIndex = undefined;
  }

  /** An opened session continues with the model it used last, when that model is still configured. */
  private modelForSession(store: SessionStore): ModelInfo {
    if (store.entryCount > 0) {
      const recorded = store.buildContext().model;
      const found = recorded ? findModel(this.deps.settings().models, `${recorded.provider}/${recorded.modelId}`) : undefined;
      if (found) return found;
    }
    return this.model;
  }

  /**
   * The path changed under the conversation: forget the calls seen on the old one. Calls made before this
   * point are found on demand (`pairWithEarlierCall`), so opening a session builds no view per entry.
   */
  private rebuildPendingCalls(_store: SessionStore): void {
    this.pendingCalls.clear();
  }

  /**
   * A tool result whose call was not appended in this process: walk back along its path to the call, as
   * pairing the whole path would. Stops at the call, or at an earlier result for the same call (then this
   * one is unpaired). Like the windowed pairing (view-model), the walk ends at the turn's user message
   * and after PAIRING_SCAN_LIMIT entries, so an orphan result never costs a walk to the root per append.
   */
  private pairWithEarlierCall(view: ConversationEntry, store: SessionStore): void {
    const callId = view.toolCallId;
    if (view.kind !== 'toolResult' || !callId || this.pendingCalls.has(callId)) return;
    const seen = new Set<string>();
    for (let id = view.parentId; id !== null && !seen.has(id) && seen.size < PAIRING_SCAN_LIMIT; ) {
      seen.add(id);
      const entry = store.getEntry(id);
      if (!entry) return;
      if (entry.type === 'message') {
        const message = entry.message;
        if (message.role === 'user') return;
        if (message.role === 'toolResult' && message.toolCallId === callId) return;
        if (message.role === 'assistant' && message.content.some((block) => block.type === 'toolCall' && block.id === callId)) {
          view.callEntryId = entry.id;
          return;
        }
      }
      id = entry.parentId === entry.id ? null : entry.parentId;
    }
  }

  private onAppend(entry: SessionEntry): void {
    const store = this.store;
    const tree = this.tree;
    if (!store || !tree) return;
    if (this.firstUserText === undefined && entry.type === 'message' && entry.message.role === 'user') this.firstUserText = contentText(entry.message.content);
    if (this.totals && entry.parentId === this.totals.leafId && store.getLeafId() === entry.id) {
      const reply = replyUsage(entry);
      this.totals = { leafId: entry.id, cost: this.totals.cost + reply.cost, tokens: this.totals.tokens + reply.tokens };
    }
    const delta = tree.append(entry);
    this.emit({ kind: 'tree', ...delta });
    const extendsPath = entry.parentId === this.conversationLeaf && store.getLeafId() === entry.id;
    if (store.getLeafId() === entry.id) this.extendPathIndex(entry);
    this.conversationLeaf = store.getLeafId();
    const labels = entry.type === 'label' ? [{ id: entry.targetId, ...(store.getLabel(entry.targetId) ? { label: store.getLabel(entry.targetId)! } : {}) }] : [];
    // a rename changes what the session is called everywhere it is shown (chat header, views)
    if (entry.type === 'session_info') this.emit({ kind: 'session', session: this.sessionView() });
    if (!extendsPath) {
      this.rebuildPendingCalls(store);
      this.emit({ kind: 'conversation', appended: [], reset: true, labels });
      return;
    }
    const view = this.viewOf(entry);
    if (view) {
      this.pairWithEarlierCall(view, store);
      pairToolCalls(view, this.pendingCalls);
    }
    const pin = pinChangeOf(entry);
    this.emit({ kind: 'conversation', appended: view ? [view] : [], reset: false, labels, ...(pin ? { pins: [pin] } : {}) });
  }

  private onReload(): void {
    const store = this.store;
    if (!store) return;
    this.tree = new TreeIndex(store);
    this.firstUserText = null;
    this.totals = undefined;
    this.pathIndex = undefined;
    this.conversationLeaf = store.getLeafId();
    this.rebuildPendingCalls(store);
    this.emit({ kind: 'session', session: this.sessionView() });
    this.emit({ kind: 'conversation', appended: [], reset: true, labels: [] });
  }

  /** The leaf moved without an append (navigation without a summary). */
  private syncLeaf(): void {
    const store = this.store;
    const tree = this.tree;
    if (!store || !tree) return;
    const delta = tree.syncLeaf();
    if (delta.changed.length > 0 || delta.added.length > 0) this.emit({ kind: 'tree', ...delta });
    if (store.getLeafId() !== this.conversationLeaf) {
      this.conversationLeaf = store.getLeafId();
      this.rebuildPendingCalls(store);
      this.emit({ kind: 'conversation', appended: [], reset: true, labels: [] });
    }
  }

  private onAgentEvent(event: AgentEvent): void {
    if (event.type === 'compaction_end' && event.outcome.status === 'compacted') {
      this.compactionReasons.set(event.outcome.entry.id, event.reason);
    }
    this.emit({ kind: 'agent', event });
    if (event.type === 'usage') this.emit({ kind: 'usage', usage: event.usage });
    if (event.type === 'model_changed' || event.type === 'thinking_level_changed') this.emitSettings();
    if (event.type === 'session_replaced') void this.followHandoff(event.file);
  }

  /** The handoff strategy moved the conversation to a new file: follow it. */
  private async followHandoff(file: string): Promise<void> {
    try {
      await this.openSession(file);
    } catch (error) {
      this.deps.log?.error(`could not open the handoff session ${file}: ${(error as Error).message}`);
    }
  }

  // ---- prompting ----------------------------------------------------------------------------------

  /**
   * Sends a prompt (creating a session first when there is none) or runs a slash command. Resolves when
   * the turn is over (or at once when the message was queued behind a running turn).
   */
  async prompt(text: string): Promise<PromptOutcome> {
    if (this.disposed) return { kind: 'error', message: 'Arbor is shutting down.' };
    if (text.trim() === '') return { kind: 'empty' };
    const command = parseSlashCommand(text);
    if (command) {
      try {
        switch (command.name) {
          case 'compact':
            return { kind: 'compacted', outcome: await this.compact(command.args || undefined) };
          case 'handoff':
            return { kind: 'compacted', outcome: await this.compact(command.args || undefined, undefined, { handoff: true }) };
          case 'new':
            return { kind: 'newSession', session: await this.newSession() };
          case 'tree':
            return { kind: 'intent', intent: 'showTree' };
          case 'model':
            if (!command.args) return { kind: 'intent', intent: 'pickModel' };
            return { kind: 'modelChanged', model: await this.setModel(command.args) };
        }
      } catch (error) {
        return { kind: 'error', message: (error as Error).message };
      }
    }
    await this.switching;
    await this.ensureSession();
    const agent = this.agent!;
    const queued = agent.busy;
    await agent.prompt(text);
    return { kind: queued ? 'queued' : 'sent' };
  }

  /** Stops the running turn (or compaction). Returns the queued messages that were not sent. */
  async stop(): Promise<string[]> {
    this.navigation?.abort();
    return (await this.agent?.stop()) ?? [];
  }

  /** Removes a queued message (the user took it back). */
  dequeue(index: number): string | undefined {
    return this.agent?.dequeue(index);
  }

  // ---- compaction ---------------------------------------------------------------------------------

  /**
   * Manual compaction; throws with a user-facing message when skipped, cancelled or failed. With
   * `keepFrom` the cut is the user's (the outcome's `cut` says whether it had to move back).
   */
  async compact(customInstructions?: string, review?: CompactReview, options: CompactAppOptions = {}): Promise<CompactionOutcome> {
    const agent = this.requireAgent();
    if (options.keepFrom !== undefined) {
      // The path is about to change under a running turn; the user picked the cut on what they saw.
      if (agent.compacting) throw new CompactionNotDone(skipped('busy'));
      if (agent.busy) throw new CompactionNotDone(skipped('turn-running'));
    }
    return agent.compact(customInstructions, {
      ...(review ? { review } : {}),
      ...(options.keepFrom !== undefined ? { keepFrom: options.keepFrom } : {}),
      ...(options.handoff ? { handoff: true } : {}),
    });
  }

  cancelCompaction(): boolean {
    return this.agent?.cancelCompaction() ?? false;
  }

  /** What a manual compaction would do now, without calling a model; undefined when nothing to compact. */
  previewCompaction(): CompactionPreview | undefined {
    return this.agent?.compactionRunner.preview();
  }

  // ---- tree ---------------------------------------------------------------------------------------

  /**
   * Moves to `targetId` (a running turn is stopped first), optionally summarizing the branch being
   * left. Picking a user message returns its text in `editorText` (edit and resend).
   */
  async navigate(targetId: string, options: NavigateAppOptions = {}): Promise<AppNavigateResult> {
    const store = this.requireStore();
    this.requireEntry(targetId);
    if (this.navigation) throw new ArborAppError('A branch switch is already running.');
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) controller.abort();
    this.navigation = controller;
    this.navigationSummarizing = options.summarize === true;
    this.emit({ kind: 'navigation', state: 'start', summarizing: this.navigationSummarizing });
    let restored: FilesRestoreResult | undefined;
    try {
      if (this.agent?.busy) await this.agent.stop();
      if (options.files) restored = await this.restoreFilesFor(store, targetId, options.files.overwrite);
      const result = await navigateTree(
        store,
        targetId,
        {
          ...(options.summarize ? { summarize: true } : {}),
          ...(options.customInstructions !== undefined ? { customInstructions: options.customInstructions } : {}),
          ...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
          ...(options.label !== undefined ? { label: options.label } : {}),
          signal: controller.signal,
        },
        { hooks: this.navigationHooks, ...(options.summarize ? { summarizer: this.summarizer() } : {}) },
      );
      this.syncLeaf();
      if (!result.cancelled) this.agent?.refreshFromStore();
      if (result.cancelled && restored?.kind === 'restored') await this.undoRestore(store, targetId);
      return restored ? { ...result, files: restored } : result;
    } catch (error) {
      if (restored?.kind === 'restored') await this.undoRestore(store, targetId);
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.navigation = undefined;
      this.navigationSummarizing = false;
      this.emit({ kind: 'navigation', state: 'end', summarizing: false });
    }
  }

  /** The node whose files a switch to `targetId` restores: where the leaf goes (a user message: its parent). */
  filesTargetOf(targetId: string): string | null {
    const store = this.requireStore();
    const resolved = resolveNavigationTarget(this.requireEntry(targetId));
    return resolved.newLeafId !== null && store.getEntry(resolved.newLeafId) ? resolved.newLeafId : null;
  }

  /** What switching to `targetId` would do to the files (undefined: checkpoints are off). */
  async previewSwitchFiles(targetId: string): Promise<SwitchFilesPreview | undefined> {
    const store = this.requireStore();
    return this.checkpoints.preview(store, store.getLeafId(), this.filesTargetOf(targetId));
  }

  private async restoreFilesFor(store: SessionStore, targetId: string, overwrite: ReadonlySet<string>): Promise<FilesRestoreResult> {
    const restored = await this.checkpoints.restoreTo(store, this.filesTargetOf(targetId), overwrite);
    if (restored.kind === 'failed') throw new ArborAppError(`The files could not be restored (${restored.message}); ${restored.rolledBack ? 'they are as they were' : 'see the Arbor log'}.`);
    if (restored.kind === 'refused') throw new ArborAppError(restored.message);
    return restored;
  }

  /** The navigation did not happen: the files go back to the leaf's state (outside edits stay kept). */
  private async undoRestore(store: SessionStore, targetId: string): Promise<void> {
    const undone = await this.checkpoints.restoreBetween(store, this.filesTargetOf(targetId), store.getLeafId(), new Set());
    if (undone.kind !== 'restored') this.deps.log?.error(`checkpoints: could not put the files back after a cancelled switch: ${undone.message}`);
  }

  /** "Restore Files Only": the files of `entryId` come back; the conversation stays where it is. */
  async restoreFilesOnly(entryId: string, overwrite: ReadonlySet<string>): Promise<FilesRestoreResult> {
    const store = this.requireStore();
    this.requireEntry(entryId);
    if (this.busy) throw new ArborAppError('Wait for the agent to finish (or stop it) before restoring files.');
    return this.checkpoints.restoreFilesOnly(store, entryId, overwrite);
  }

  /** Cancels a running navigation (its summary); nothing is written. */
  cancelNavigation(): boolean {
    if (!this.navigation) return false;
    this.navigation.abort();
    return true;
  }

  /**
   * "Branch from here": the leaf becomes `entryId` itself, also for a user message (unlike `navigate`,
   * which moves to a user message's parent for edit-and-resend). The next prompt continues right after
   * the entry; what followed it stays in the tree. A running turn is stopped first; no summary.
   */
  async branchAt(entryId: string): Promise<void> {
    const store = this.requireStore();
    this.requireEntry(entryId);
    if (this.navigation) throw new ArborAppError('A branch switch is already running.');
    if (this.agent?.busy) await this.agent.stop();
    if (store.getLeafId() === entryId) return;
    store.branch(entryId);
    this.syncLeaf();
    this.agent?.refreshFromStore();
  }

  /** Sets (or with undefined/'' clears) the label of an entry. */
  async label(entryId: string, label: string | undefined): Promise<void> {
    const store = this.requireStore();
    this.requireEntry(entryId);
    if (this.busy) throw new ArborAppError('Wait for the agent to finish (or stop it) before labelling.');
    const trimmed = label?.trim();
    await store.appendLabelChange(entryId, trimmed ? trimmed : undefined);
    this.agent?.refreshFromStore();
  }

  /**
   * Pins (or unpins) a message of the active path: an `arbor.pin` entry is appended, nothing is deleted,
   * and compactions keep a pinned message verbatim. Refused (typed) for other entries, off the path or
   * while the agent works (the pin would land in the middle of its turn).
   */
  async pin(entryId: string, pinned: boolean): Promise<PinOutcome> {
    const store = this.requireStore();
    const refusal = pinRefusal(store, this.requireEntry(entryId), pinned, this.busy, this.tree?.isPinned(entryId) ?? false);
    if (refusal) return refusal;
    await store.appendCustomEntry(PIN_CUSTOM_TYPE, pinData(entryId, pinned));
    this.agent?.refreshFromStore();
    return { kind: pinned ? 'pinned' : 'unpinned' };
  }

  /**
   * "Summarize from here": the entries from `entryId` to the leaf become one stage summary on a new branch
   * off the entry's parent (src/branch/stage.ts); the originals stay in the tree. A typed outcome; nothing
   * is written unless it is `summarized`.
   */
  async summarizeFromHere(entryId: string, options: { customInstructions?: string; signal?: AbortSignal } = {}): Promise<StageOutcome> {
    const store = this.requireStore();
    this.requireEntry(entryId);
    if (this.busy || this.navigation) return stageRefused('busy');
    const planned = planStage(store.getBranch(), entryId);
    if (planned.status !== 'planned') return planned;
    const label = store.getLabel(entryId);
    const outcome = await summarizeStage(store, planned.plan, {
      summarizer: this.summarizer(),
      ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(label ? { label } : {}),
    });
    if (outcome.status === 'summarized') this.agent?.refreshFromStore();
    return outcome;
  }

  /** Summarizes the branch ending at `sourceLeafId` into the current position (carry lessons across). */
  async insertBranchSummary(sourceLeafId: string, options: InsertSummaryOptions = {}): Promise<CarryResult> {
    const store = this.requireStore();
    this.requireEntry(sourceLeafId);
    if (this.busy) throw new ArborAppError('Wait for the agent to finish (or stop it) before inserting a summary.');
    const result = await carryBranchSummary(store, sourceLeafId, {
      summarizer: this.summarizer(),
      ...(options.customInstructions !== undefined ? { customInstructions: options.customInstructions } : {}),
      ...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    this.agent?.refreshFromStore();
    return result;
  }

  private summarizer(): BranchSummarizerDeps {
    const settings = this.deps.settings();
    const configured = settings.compaction.summarizerModel ? findModel(settings.models, settings.compaction.summarizerModel) : undefined;
    const model = configured ?? this.currentModel;
    return {
      model,
      provider: createProvider(model, this.deps.keys, this.deps.providerOptions),
      reserveTokens: settings.branchSummary.reserveTokens,
    };
  }

  // ---- model and thinking level -----------------------------------------------------------------------

  /** Switches the model ("provider/id" or a bare id); persisted in the session when one is open. */
  async setModel(key: string): Promise<ModelView> {
    const model = findModel(this.deps.settings().models, key.trim());
    if (!model) throw new ArborAppError(`Unknown model "${key}". Pick one with "Arbor: Select Model" or add it to arbor.models.`);
    this.model = model;
    this.modelChosen = true;
    if (this.agent) await this.agent.setModel(model);
    this.emitSettings();
    return modelView(model);
  }

  async setThinkingLevel(level: string): Promise<void> {
    if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
      throw new ArborAppError(`Unknown thinking level "${level}" (expected one of ${THINKING_LEVELS.join(', ')}).`);
    }
    this.thinkingLevel = level as ThinkingLevel;
    if (this.agent) await this.agent.setThinkingLevel(level);
    this.emitSettings();
  }

  /**
   * Picks the model to use when none was chosen: `arbor.model` when it names a configured model, else
   * the first provider with a key or base URL (Anthropic, OpenAI, a local server), else the offline demo.
   */
  async resolveDefaultModel(): Promise<ModelInfo> {
    const settings = this.deps.settings();
    const configured = findModel(settings.models, settings.model);
    if (configured) return configured;
    if (settings.model) this.deps.log?.warn(`arbor.model: "${settings.model}" is not a known model; choosing one automatically.`);
    if (settings.baseUrls.local) {
      const local = settings.models.find((m) => m.provider === LOCAL_PROVIDER);
      if (local) return local;
    }
    for (const { id: provider, key } of autoPickOrder()) {
      const usable = key === 'none' || settings.baseUrls[provider] !== undefined || (await this.deps.keys.getKey(provider).catch(() => undefined)) !== undefined;
      if (!usable) continue;
      const model = settings.models.find((m) => m.provider === provider);
      if (model) return model;
    }
    return DEMO_MODEL;
  }

  /** Applies the configuration (at start and on every change); no reload needed. */
  async applySettings(): Promise<void> {
    const settings = this.deps.settings();
    this.policy.updateSettings(settings.approval);
    const modelSettingChanged = settings.model !== this.lastModelSetting;
    this.lastModelSetting = settings.model;
    if (modelSettingChanged || !this.modelChosen) {
      const model = await this.resolveDefaultModel();
      // Keep an opened session's own model unless the user changed arbor.model just now.
      if (modelSettingChanged || !this.agent || this.agent.store.entryCount === 0) {
        this.model = model;
        if (this.agent) await this.agent.setModel(model);
      } else {
        this.model = model;
      }
      if (modelSettingChanged) this.modelChosen = settings.model !== '';
    } else {
      // the registry may have changed (a new base URL, a user override): refresh the same model
      const refreshed = findModel(settings.models, modelKey(this.currentModel));
      if (refreshed) this.model = refreshed;
    }
    if (settings.thinkingLevel !== this.lastThinkingSetting) {
      this.lastThinkingSetting = settings.thinkingLevel;
      this.thinkingLevel = settings.thinkingLevel;
      if (this.agent) await this.agent.setThinkingLevel(settings.thinkingLevel);
    }
    // idleEnabled / idleTimeoutSeconds apply now, not only after the next turn.
    this.agent?.settingsChanged();
    this.emitSettings();
  }

  private emitSettings(): void {
    this.emit({ kind: 'settings', model: modelView(this.currentModel), thinkingLevel: this.currentThinkingLevel });
  }

  dispose(): void {
    this.disposed = true;
    this.navigation?.abort();
    this.detach();
    this.listeners.clear();
  }
}
