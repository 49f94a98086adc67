// The coding agent behind the chat panel: prompt → context from the session store → provider stream →
// persist the reply → run its tool calls (approval per call) → persist their results → repeat until the
// model stops. The session file is the single source of truth: the context is rebuilt from the store's
// current leaf before every request, so tree navigation needs no special handling here.
//
// This class is the session's state and public API; its jobs live beside it: the loop of one run
// (turn-loop.ts), one activity at a time and the prompts queued meanwhile (run-queue.ts), model and
// thinking-level changes (model-changes.ts), cost (session-cost.ts), the
// compaction runner's wiring (session-compaction.ts) and idle maintenance (idle-maintenance.ts).
// Keeping the context inside the window (recovery, promotion, pruning, threshold, mid-turn, idle,
// handoff) is decided by the context maintainer (context-maintainer.ts); the loop only calls it at its
// seams. The engine itself is src/compaction.
import type { AgentMessage, AssistantMessage, ImageContent } from '../core/messages';
import { compactionThreshold, type CompactionDoneOutcome, type CompactionOutcome, type CompactionRunner } from '../compaction';
import type { ModelInfo } from '../llm/types';
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import type { AgentSessionDeps, CompactOptions } from './agent-session-types';
import { contextTokensOf } from './compaction-triggers';
import { ContextMaintainer, type MaintainerHost } from './context-maintainer';
import { AgentEventListeners, type AgentEvent, type AgentEventListener, type UsageInfo } from './events';
import { IdleMaintenance } from './idle-maintenance';
import { compactManually } from './manual-compaction';
import { SYSTEM_CLOCK, type Clock } from './idle-timer';
import { ModelChanges } from './model-changes';
import { SessionApprovalMode } from './approval-mode-state';
import type { ApprovalMode } from '../core/approval-modes';
import { RunQueue } from './run-queue';
import { createCompactionRunner, forwardCompactionEvents } from './session-compaction';
import { SessionCost } from './session-cost';
import { TurnInputs, type SessionCoreHost } from './turn-inputs';
import { TurnLoop, type QueuedPrompt } from './turn-loop';

export { AUTO_CONTINUE_CUSTOM_TYPE } from './context-maintainer';
export { CONTINUE_CUSTOM_TYPE, type QueuedPrompt } from './turn-loop';

export class AgentSession {
  private currentStore: SessionStore;
  private currentModel: ModelInfo;
  private readonly listeners: AgentEventListeners;
  private readonly inputs: TurnInputs;
  private readonly runner: CompactionRunner;
  private readonly maintainer: ContextMaintainer;
  private readonly turns: TurnLoop;
  private readonly changes: ModelChanges;
  private readonly approvalMode: SessionApprovalMode;
  private readonly cost: SessionCost;
  private readonly idle: IdleMaintenance;
  private readonly clock: Clock;
  private readonly runs: RunQueue;
  private disposed = false;

  constructor(private readonly deps: AgentSessionDeps) {
    this.currentStore = deps.store;
    this.currentModel = deps.model;
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.listeners = new AgentEventListeners(deps.log);
    const core = this.coreHost();
    const fallbackMode = deps.store.getEntries().length === 0 ? deps.approvalMode : undefined;
    this.approvalMode = new SessionApprovalMode({ ...core, busy: () => this.runs.busy }, fallbackMode);
    this.inputs = new TurnInputs(deps, core, () => this.approvalMode.mode);
    this.cost = new SessionCost(deps.store.getEntries());
    this.changes = new ModelChanges({
      ...core,
      setModel: (model) => (this.currentModel = model),
      busy: () => this.runs.busy,
      emitUsage: () => this.emitUsage(),
    });
    this.runner = createCompactionRunner({ ...core, deps, inputs: this.inputs, thinkingLevel: () => this.thinkingLevel });
    forwardCompactionEvents(this.runner, (event) => this.emit(event), (entry) => this.cost.addEntry(entry));
    this.maintainer = new ContextMaintainer(this.maintainerHost(), this.runner);
    this.turns = this.createTurnLoop(core);
    this.runs = this.createRunQueue();
    this.idle = this.createIdleMaintenance(core);
    this.idle.arm();
  }

  // ---- state --------------------------------------------------------------------------------------

  get store(): SessionStore {
    return this.currentStore;
  }

  get model(): ModelInfo {
    return this.changes.nextModel;
  }

  /** The thinking level of the conversation at the current leaf (or a change waiting for the turn to end). */
  get thinkingLevel(): string {
    return this.changes.nextThinkingLevel;
  }

  /** True while a turn, a queued turn or a compaction runs. */
  get busy(): boolean {
    return this.runs.busy;
  }

  get compacting(): boolean {
    return this.runner.running;
  }

  get queuedMessages(): readonly string[] {
    return this.runs.texts;
  }

  /** For previews (`compactionRunner.preview()`) and cancel buttons. */
  get compactionRunner(): CompactionRunner {
    return this.runner;
  }

  onEvent(listener: AgentEventListener): () => void {
    return this.listeners.add(listener);
  }

  /** Resolves when no turn, queued message or compaction is running. */
  async whenIdle(): Promise<void> {
    await this.runs.whenIdle();
  }

  // ---- prompting ----------------------------------------------------------------------------------

  /**
   * Sends a user message. While the agent works (or a compaction runs) the message is queued, reported
   * in a `queued` event, and sent after the current turn; the promise then resolves at once. Otherwise
   * it resolves when the run (and any messages queued meanwhile) has finished.
   */
  prompt(text: string, images: readonly ImageContent[] = []): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('The agent session was closed.'));
    if (this.runs.occupied) {
      this.runs.add({ text, images });
      return Promise.resolve();
    }
    return this.runs.start(() => this.turns.conversation({ text, images }));
  }

  /**
   * Continue after a reply cut off at the output limit: a hidden "continue" prompt on the current path.
   * Queued like a prompt while the agent works.
   */
  continueReply(): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('The agent session was closed.'));
    if (this.runs.occupied) return Promise.resolve();
    return this.runs.start(() => this.turns.continuation());
  }

  /**
   * Retry: asks the model again from the current leaf, without a new message (the caller moved the leaf
   * to the entry before a failed reply, which stays in the tree). Ignored while the agent works.
   */
  retryFromLeaf(): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('The agent session was closed.'));
    if (this.runs.occupied) return Promise.resolve();
    return this.runs.start(() => this.turns.resumeFromLeaf());
  }

  /** Removes a queued message (e.g. the user took it back for editing). */
  dequeue(index: number): QueuedPrompt | undefined {
    return this.runs.remove(index);
  }

  /**
   * Stops everything: the stream, running tools, a pending approval, a running compaction. The partial
   * reply is persisted as "aborted" and every tool call gets a result. Queued messages are not sent:
   * they are returned so the UI can put them back into the input.
   */
  async stop(): Promise<QueuedPrompt[]> {
    this.maintainer.background.cancel('stopped by the user');
    const dropped = this.runs.takeAll();
    if (this.runs.busy) {
      this.runs.interruptRun('stop');
      this.runner.cancel();
      await this.whenIdle();
    }
    return dropped;
  }

  // ---- model and thinking level ---------------------------------------------------------------------

  /** The session's approval mode: Ask, Auto-edit or Plan (src/core/approval-modes.ts). */
  get mode(): ApprovalMode {
    return this.approvalMode.mode;
  }

  /** Applies at once (next tool call, next request's tools); recorded in the session when nothing runs. */
  setApprovalMode(mode: ApprovalMode): Promise<void> {
    return this.approvalMode.set(mode);
  }

  /** Persists a `model_change` entry; while a turn runs, the change applies from the next request. */
  setModel(model: ModelInfo): Promise<void> {
    return this.changes.pickModel(model);
  }

  /** Persists a `thinking_level_change` entry (applied at the next request while a turn runs). */
  setThinkingLevel(level: string): Promise<void> {
    return this.changes.pickThinkingLevel(level);
  }

  /**
   * The leaf moved (tree navigation) or the file was changed outside the loop: nothing is cached, so
   * this only tells the UI to re-render and refreshes the usage figures; `added` entries (a branch summary
   * the app wrote) add their cost to the session cost.
   */
  refreshFromStore(added: readonly SessionEntry[] = []): void {
    this.maintainer.background.leafMoved();
    for (const entry of added) this.cost.addEntry(entry); // a branch summary's summarizer calls
    this.emit({ type: 'refreshed', leafId: this.currentStore.getLeafId() });
    this.emitUsage();
  }

  // ---- compaction ---------------------------------------------------------------------------------

  /**
   * Manual compaction (`/compact [instructions]`, "Arbor: Compact Session"; with `keepFrom`, "Compact
   * Up To Here"): see manual-compaction.ts. Throws `CompactionNotDone` carrying the typed outcome.
   */
  compact(customInstructions?: string, options: CompactOptions = {}): Promise<CompactionDoneOutcome> {
    return compactManually({ runs: this.runs, runner: this.runner, maintainer: this.maintainer }, customInstructions, options);
  }

  /** Cancels a running compaction (status bar / chat button). */
  cancelCompaction(): boolean {
    return this.runner.cancel();
  }

  /**
   * Idle maintenance: compacts when idle compaction is enabled and the live context is at least
   * `idleThresholdTokens`. Undefined when nothing is due (or the agent is busy); no auto-continue.
   */
  runIdleCompaction(): Promise<CompactionOutcome | undefined> {
    return this.idle.run();
  }

  /** The user is typing in the chat input: idle maintenance waits for a full quiet period again. */
  notifyUserTyping(): void {
    this.idle.userTyping();
  }

  /**
   * The settings changed: the idle timer follows `idleEnabled` / `idleTimeoutSeconds` at once instead of
   * after the next turn.
   */
  settingsChanged(): void {
    if (this.runs.busy || this.disposed) return;
    this.idle.arm();
  }

  /** Context size and cost for the status bar / chat header. */
  usage(): UsageInfo {
    const window = this.model.contextWindow;
    const measured = contextTokensOf(this.currentStore.buildContext().messages, (m) => this.inputs.estimate(m), () => this.inputs.fixedOverheadTokens());
    return {
      ...measured,
      contextWindow: window,
      thresholdTokens: compactionThreshold(window, this.inputs.settings()),
      lastCost: this.cost.lastCost,
      sessionCost: this.cost.sessionCost,
    };
  }

  dispose(): void {
    this.disposed = true;
    this.idle.dispose();
    this.maintainer.abortIdleQuestion();
    this.runs.abortRun();
    this.runner.cancel();
    this.maintainer.background.cancel('the session closed');
    this.listeners.clear();
  }

  // ---- the run ------------------------------------------------------------------------------------

  private replyPersisted(reply: AssistantMessage): void {
    this.cost.addReply(reply);
    this.emitUsage();
  }

  // ---- host of the context maintainer -----------------------------------------------------------

  /** Context tokens of the current path: the newest live usage plus estimates, or all estimates plus the fixed overhead. */
  private contextEstimate(): number {
    const usage = this.usage();
    return usage.contextTokens ?? usage.estimatedTokens;
  }

  /**
   * Resolves the system prompt before the first prompt of an opened session, so the meter counts it as the
   * marker and the preview do (docs/architecture.md, compaction markers), then tells the meter.
   */
  async primeSystemPrompt(): Promise<void> {
    if (this.inputs.hasSystemPrompt) return;
    await this.inputs.resolveSystemPrompt();
    this.emitUsage();
  }

  // ---- wiring -------------------------------------------------------------------------------------

  /** What was picked while a turn ran (model, thinking level, approval mode), written between requests. */
  private async applyPendingChanges(): Promise<void> {
    await this.changes.apply();
    await this.approvalMode.apply();
  }

  private createTurnLoop(core: SessionCoreHost): TurnLoop {
    return new TurnLoop({
      ...core,
      deps: this.deps,
      inputs: this.inputs,
      maintainer: this.maintainer,
      applyPendingChanges: () => this.applyPendingChanges(),
      startRun: (controller) => this.runs.setRunController(controller),
      replyPersisted: (reply) => this.replyPersisted(reply),
    });
  }

  private createRunQueue(): RunQueue {
    return new RunQueue({
      runPrompt: (prompt) => this.turns.conversation(prompt),
      started: () => {
        this.idle.cancel();
        this.maintainer.abortIdleQuestion();
      },
      applyPendingChanges: () => this.applyPendingChanges(),
      ended: () => this.idle.arm(),
      emit: (event) => this.emit(event),
      disposed: () => this.disposed,
      ...(this.deps.log ? { log: this.deps.log } : {}),
    });
  }

  private createIdleMaintenance(core: SessionCoreHost): IdleMaintenance {
    return new IdleMaintenance({
      ...core,
      clock: this.clock,
      maintainer: this.maintainer,
      settings: () => this.inputs.settings(),
      occupied: () => this.runs.occupied,
      compacting: () => this.runner.running,
      disposed: () => this.disposed,
      start: (task) => this.runs.start(task),
      ...(this.deps.log ? { log: this.deps.log } : {}),
    });
  }

  // ---- helpers ------------------------------------------------------------------------------------

  /** The session's current store and model, its clock, events and persisting, as every helper reads them. */
  private coreHost(): SessionCoreHost {
    return {
      store: () => this.currentStore,
      model: () => this.currentModel,
      now: () => this.clock.now(),
      emit: (event) => this.emit(event),
      persist: (message) => this.persist(message),
    };
  }

  private maintainerHost(): MaintainerHost {
    const options = this.deps.compaction ?? {};
    return {
      ...this.coreHost(),
      switchModel: (model) => this.changes.switchNow(model),
      settings: () => this.inputs.settings(),
      availableModels: () => this.deps.availableModels?.() ?? [],
      ...(options.promotionModel ? { injectedPromotion: options.promotionModel } : {}),
      usable: (model) => this.inputs.usable(model),
      contextEstimate: () => this.contextEstimate(),
      queueLength: () => this.runs.length,
      working: () => this.runs.occupied || this.runner.running,
      disposed: () => this.disposed,
      emitUsage: () => this.emitUsage(),
      refresh: () => this.refreshFromStore(),
      replaceStore: (next) => {
        this.maintainer.background.cancel('another session');
        this.currentStore = next;
      },
      ...(this.deps.createHandoffSession ? { createHandoffSession: this.deps.createHandoffSession } : {}),
      ...(options.confirmer ? { confirmer: options.confirmer } : {}),
      ...(this.deps.log ? { log: this.deps.log } : {}),
    };
  }

  private async persist(message: AgentMessage): Promise<string> {
    if (message.role !== 'assistant') this.emit({ type: 'message_start', role: message.role, message });
    const entry =
      message.role === 'custom'
        ? await this.currentStore.appendCustomMessage(message.customType, message.content, message.display, message.details)
        : await this.currentStore.appendMessage(message);
    this.emit({ type: 'message_end', message, entryId: entry.id });
    return entry.id;
  }

  private emitUsage(): void {
    this.emit({ type: 'usage', usage: this.usage() });
  }

  private emit(event: AgentEvent): void {
    this.listeners.emit(event);
  }
}
