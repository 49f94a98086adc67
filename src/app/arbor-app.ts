// The application controller: the single owner of the current session and its agent. Every UI (chat
// webview, Session Tree, commands, status bar) goes through this object; none of them holds a
// SessionStore or an AgentSession of its own. No `vscode` import: the host passes small adapters in
// (keys, leaf memory, approval prompter, settings, trust, log), and the whole thing is unit-tested in Node.
// Its parts live beside it: the types (app-types.ts), the session's views (session-views.ts), the model
// choice (model-choice.ts), the tree actions (tree-actions.ts) and the open session with its switches
// (open-session.ts).
import { ApprovalPolicy } from '../agent/approval';
import type { AgentSession, QueuedPrompt } from '../agent/agent-session';
import type { UsageInfo } from '../agent/events';
import { createTools, workspaceFromPaths, type AgentTool, type WorkspaceRoots } from '../agent/tools';
import { TreeNavigationHookRegistry, type CarryResult } from '../branch';
import { CompactionHookRegistry, CompactionNotDone, skipped, type CompactionOutcome, type CompactionPreparation, type CompactionPreview } from '../compaction';
import type { ModelInfo } from '../llm/types';
import { takesImages } from '../llm/image-input';
import type { ImageContent } from '../core/messages';
import { listSessions, type SessionSummary } from '../session/catalog';
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import { SessionSummaryCache } from '../session/summary-cache';
import type { StageOutcome } from '../branch/stage';
import type { PinOutcome } from './pin-entry';
import {
  ArborAppError,
  modelView,
  type AppChange,
  type AppNavigateResult,
  type AppSnapshot,
  type ArborAppDeps,
  type CompactAppOptions,
  type CompactReview,
  type ConversationOption,
  type ConversationWindow,
  type Disposable,
  type EarlierPageRequest,
  type EarlierPageResult,
  type InsertSummaryOptions,
  type ModelView,
  type NavigateAppOptions,
  type PromptOutcome,
  type SessionView,
} from './app-types';
import { CheckpointService, type FilesRestoreResult, type SwitchFilesPreview } from './checkpoint-service';
import { ModelChoice } from './model-choice';
import { OpenSession } from './open-session';
import type { SessionViews } from './session-views';
import { parseSlashCommand } from './slash-commands';
import { TreeActions } from './tree-actions';
import { branchSummarizer } from './agent-factory';
import type { ConversationEntry, TreeNodeView } from './view-model';

export * from './app-types';

export class ArborApp implements Disposable {
  readonly compactionHooks: CompactionHookRegistry;
  readonly navigationHooks: TreeNavigationHookRegistry;
  readonly workspace: WorkspaceRoots;
  readonly cwd: string;
  /** file checkpoints: capture during turns, restore with branch switches */
  readonly checkpoints: CheckpointService;

  private readonly open: OpenSession;
  private readonly policy: ApprovalPolicy;
  private readonly tools: readonly AgentTool[];
  private readonly listeners = new Set<(change: AppChange) => void>();
  private readonly models: ModelChoice;
  private readonly treeActions: TreeActions;
  /** the Sessions list after a turn reads only what changed (see SessionSummaryCache) */
  private readonly sessionSummaries = new SessionSummaryCache();
  /** compaction reasons seen in this process, by compaction entry id (the file does not store them) */
  private readonly compactionReasons = new Map<string, string>();
  private disposed = false;

  constructor(private readonly deps: ArborAppDeps) {
    const log = (message: string) => deps.log?.warn(message);
    this.compactionHooks = deps.compactionHooks ?? new CompactionHookRegistry(log);
    this.navigationHooks = deps.navigationHooks ?? new TreeNavigationHookRegistry(log);
    this.workspace = workspaceFromPaths(deps.workspaceRoots);
    this.cwd = deps.workspaceRoots[0] ?? process.cwd();
    this.policy = new ApprovalPolicy({ settings: deps.settings().approval });
    this.tools = deps.tools ?? createTools();
    this.models = new ModelChoice({ settings: deps.settings, keys: deps.keys, ...(deps.log ? { log: deps.log } : {}), agent: () => this.agent });
    this.checkpoints = deps.checkpoints ?? new CheckpointService({
      sessionsDir: deps.sessionsDir,
      workspace: this.workspace,
      settings: () => deps.settings().checkpoints,
      trusted: deps.trusted,
      log: (message) => deps.log?.info(message),
    });
    this.open = new OpenSession({
      deps,
      cwd: this.cwd,
      policy: this.policy,
      tools: this.tools,
      workspace: this.workspace,
      compactionHooks: this.compactionHooks,
      checkpoints: this.checkpoints,
      models: this.models,
      compactionReasons: this.compactionReasons,
      emit: (change) => this.emit(change),
      emitSettings: () => this.emitSettings(),
      cancelNavigation: () => this.treeActions.cancelNavigation(),
    });
    this.treeActions = new TreeActions({
      store: () => this.requireStore(),
      entry: (entryId) => this.requireEntry(entryId),
      agent: () => this.agent,
      checkpoints: this.checkpoints,
      hooks: this.navigationHooks,
      summarizer: () => branchSummarizer(this.deps, this.currentModel),
      syncLeaf: () => this.views?.syncLeaf(),
      emit: (change) => this.emit(change),
      ...(deps.log ? { log: deps.log } : {}),
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

  private get store(): SessionStore | undefined {
    return this.open.store;
  }

  private get agent(): AgentSession | undefined {
    return this.open.agent;
  }

  private get views(): SessionViews | undefined {
    return this.open.views;
  }

  get currentStore(): SessionStore | undefined {
    return this.store;
  }

  get currentAgent(): AgentSession | undefined {
    return this.agent;
  }

  get busy(): boolean {
    return this.agent?.busy ?? false;
  }

  /** A compaction is running (manual, automatic or a handoff). */
  get compacting(): boolean {
    return this.agent?.compacting ?? false;
  }

  /** The open session's leaf (null: none open, or nothing written yet). */
  get leafId(): string | null {
    return this.store?.getLeafId() ?? null;
  }

  get currentModel(): ModelInfo {
    return this.models.current;
  }

  get currentThinkingLevel(): string {
    return this.models.currentThinkingLevel;
  }

  /** Every model the user can pick (built-ins, `arbor.models`, the local server). */
  availableModels(): ModelView[] {
    return this.models.available();
  }

  sessionView(): SessionView | null {
    return this.open.sessionView();
  }

  /** The session's first user message (what the Sessions view shows for an unnamed session). */
  firstUserMessage(): string | undefined {
    return this.views?.firstUserMessage();
  }

  /** Cost and tokens of the replies on the active path (kept up to date on appends). */
  branchTotals(): { cost: number; tokens: number } {
    return this.views?.branchTotals() ?? { cost: 0, tokens: 0 };
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
    // `conversation: false` (state posts) leaves it empty: building it costs views
    const { views, hasEarlier } = this.views?.conversation(options.conversation ?? true) ?? { views: [], hasEarlier: false };
    return {
      session: this.sessionView(),
      leafId: store?.getLeafId() ?? null,
      model: modelView(this.currentModel),
      thinkingLevel: this.currentThinkingLevel,
      busy: this.busy,
      compacting: this.compacting,
      navigating: this.treeActions.navigating,
      queued: [...(this.agent?.queuedMessages ?? [])],
      trusted: this.deps.trusted(),
      usage: this.usage(),
      conversation: views,
      conversationHasEarlier: hasEarlier,
      ...(options.tree === false ? {} : { tree: this.views?.treeNodes() ?? [] }),
    };
  }

  /** The newest `count` views of the active path's conversation (what a chat shows first). */
  conversationTail(count: number): ConversationWindow {
    return this.views?.conversationTail(count) ?? { leafId: null, views: [], hasEarlier: false };
  }

  /** The (at most) `count` views right before `beforeId`; refused with a reason for a stale request. */
  conversationBefore(request: EarlierPageRequest): EarlierPageResult {
    return this.views?.conversationBefore(request) ?? { ok: false, reason: 'no session is open' };
  }

  /** One entry's conversation view (e.g. to reveal it); undefined for unknown or hidden entries. */
  entryView(entryId: string): ConversationEntry | undefined {
    return this.views?.entryView(entryId);
  }

  treeNode(entryId: string): TreeNodeView | undefined {
    return this.views?.treeNode(entryId);
  }

  /** The trees' row of the leaf: the leaf, or the reply above it when it is a file manifest. */
  get treeLeafId(): string | null {
    return this.views?.treeLeafId ?? null;
  }

  /** The views of the messages a compaction summarised (throws for an unknown compaction). */
  summarizedBy(compactionId: string): ConversationEntry[] {
    return this.requireViews().summarizedBy(compactionId);
  }

  /** Where "Continue from before this compaction" goes (throws for an unknown compaction). */
  entryBeforeCompaction(compactionId: string): string {
    return this.requireViews().entryBeforeCompaction(compactionId);
  }

  // ---- sessions -----------------------------------------------------------------------------------

  /** Sessions in the sessions directory, newest first. */
  async listSessions(): Promise<SessionSummary[]> {
    const listing = await listSessions(this.deps.sessionsDir(), { cache: this.sessionSummaries, growing: this.store?.file });
    return listing.sessions;
  }

  /** Starts an empty session (its file is written with the first message). A running turn is stopped. */
  newSession(): Promise<SessionView> {
    return this.open.newSession();
  }

  /** Opens a session file (Arbor's or pi's). A running turn is stopped. */
  openSession(file: string): Promise<SessionView> {
    return this.open.openSession(file);
  }

  /** Copies the path to `leafId` (default: the leaf) into a new session file and switches to it. */
  async forkBranch(leafId?: string): Promise<SessionView> {
    const store = this.requireStore();
    const target = leafId ?? store.getLeafId();
    if (target === null) throw new ArborAppError('Nothing to fork: the session is empty.');
    if (!store.getEntry(target)) throw new ArborAppError(`Unknown entry "${target}".`);
    return this.open.forkBranch(store, target);
  }

  /** Names the open session (a `session_info` entry; empty clears the name). */
  async renameSession(name: string): Promise<void> {
    await this.requireStore().appendSessionInfo(name.trim());
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

  private requireViews(): SessionViews {
    this.requireStore();
    return this.views!;
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

  // ---- prompting ----------------------------------------------------------------------------------

  /**
   * Sends a prompt (creating a session first when there is none) or runs a slash command. Resolves when
   * the turn is over (or at once when the message was queued behind a running turn).
   */
  async prompt(text: string, images: readonly ImageContent[] = []): Promise<PromptOutcome> {
    if (this.disposed) return { kind: 'error', message: 'Arbor is shutting down.' };
    if (text.trim() === '' && images.length === 0) return { kind: 'empty' };
    if (images.length > 0 && !takesImages(this.currentModel)) return { kind: 'imagesUnsupported', model: this.currentModel.name };
    const command = images.length === 0 ? parseSlashCommand(text) : undefined;
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
    await this.open.whenSwitched();
    await this.ensureSession();
    const agent = this.agent!;
    const queued = agent.busy;
    await agent.prompt(text, images);
    return { kind: queued ? 'queued' : 'sent' };
  }

  /** Stops the running turn (or compaction). Returns the queued messages that were not sent. */
  async stop(): Promise<QueuedPrompt[]> {
    this.treeActions.cancelNavigation();
    return (await this.agent?.stop()) ?? [];
  }

  /** The user is typing: the idle timer (automatic compaction when idle) waits. */
  notifyUserTyping(): void {
    this.agent?.notifyUserTyping();
  }

  /** Continues a reply cut off by the output limit. */
  async continueReply(): Promise<void> {
    await this.agent?.continueReply();
  }

  /** Removes a queued message (the user took it back). */
  dequeue(index: number): QueuedPrompt | undefined {
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

  /** The preview of a cut the user chose, with the same estimator and overhead as the marker and meter. */
  previewCompactionOf(preparation: CompactionPreparation): CompactionPreview | undefined {
    return this.agent?.compactionRunner.previewOf(preparation);
  }


  // ---- tree ---------------------------------------------------------------------------------------

  /** Moves to `targetId`, optionally summarizing the branch being left (see TreeActions.navigate). */
  navigate(targetId: string, options: NavigateAppOptions = {}): Promise<AppNavigateResult> {
    return this.treeActions.navigate(targetId, options);
  }

  /** The node whose files a switch to `targetId` restores: where the leaf goes (a user message: its parent). */
  filesTargetOf(targetId: string): string | null {
    return this.treeActions.filesTargetOf(targetId);
  }

  /** What switching to `targetId` would do to the files (undefined: checkpoints are off). */
  previewSwitchFiles(targetId: string): Promise<SwitchFilesPreview | undefined> {
    return this.treeActions.previewSwitchFiles(targetId);
  }

  /** "Restore Files Only": the files of `entryId` come back; the conversation stays where it is. */
  restoreFilesOnly(entryId: string, overwrite: ReadonlySet<string>): Promise<FilesRestoreResult> {
    return this.treeActions.restoreFilesOnly(entryId, overwrite);
  }

  /** Cancels a running navigation (its summary); nothing is written. */
  cancelNavigation(): boolean {
    return this.treeActions.cancelNavigation();
  }

  /** "Branch from here": the leaf becomes `entryId` itself (see TreeActions.branchAt). */
  branchAt(entryId: string): Promise<void> {
    return this.treeActions.branchAt(entryId);
  }

  /** Sets (or with undefined/'' clears) the label of an entry. */
  label(entryId: string, label: string | undefined): Promise<void> {
    return this.treeActions.label(entryId, label);
  }

  /** Summarizes the branch ending at `sourceLeafId` into the current position (carry lessons across). */
  /** Pins or unpins a message of the active path (typed refusals: pin-entry.ts). */
  pin(entryId: string, pinned: boolean): Promise<PinOutcome> {
    return this.treeActions.pin(entryId, pinned);
  }

  /** Summarize from here: the stage from `entryId` to the leaf becomes one summary (src/branch/stage.ts). */
  summarizeFromHere(entryId: string, options: { customInstructions?: string; signal?: AbortSignal } = {}): Promise<StageOutcome> {
    return this.treeActions.summarizeFromHere(entryId, options);
  }

  insertBranchSummary(sourceLeafId: string, options: InsertSummaryOptions = {}): Promise<CarryResult> {
    return this.treeActions.insertBranchSummary(sourceLeafId, options);
  }

  // ---- model and thinking level -----------------------------------------------------------------------

  /** Switches the model ("provider/id" or a bare id); persisted in the session when one is open. */
  async setModel(key: string): Promise<ModelView> {
    const view = await this.models.set(key);
    this.emitSettings();
    return view;
  }

  async setThinkingLevel(level: string): Promise<void> {
    await this.models.setThinkingLevel(level);
    this.emitSettings();
  }

  /** The model to use when none was chosen (see ModelChoice.resolveDefault). */
  resolveDefaultModel(): Promise<ModelInfo> {
    return this.models.resolveDefault();
  }

  /** Applies the configuration (at start and on every change); no reload needed. */
  async applySettings(): Promise<void> {
    const settings = this.deps.settings();
    this.policy.updateSettings(settings.approval);
    await this.models.applySettings(settings);
    // idleEnabled / idleTimeoutSeconds apply now, not only after the next turn.
    this.agent?.settingsChanged();
    this.emitSettings();
  }

  private emitSettings(): void {
    this.emit({ kind: 'settings', model: modelView(this.currentModel), thinkingLevel: this.currentThinkingLevel });
  }

  dispose(): void {
    this.disposed = true;
    this.treeActions.cancelNavigation();
    this.open.detach();
    this.listeners.clear();
  }
}
