// The coding agent behind the chat panel: prompt → context from the session store → provider stream →
// persist the reply → run its tool calls (approval per call) → persist their results → repeat until the
// model stops. The session file is the single source of truth: the context is rebuilt from the store's
// current leaf before every request, so tree navigation needs no special handling here.
//
// Keeping the context inside the window (recovery, promotion, pruning, threshold, mid-turn, idle,
// handoff) is decided by the context maintainer (context-maintainer.ts); this loop only calls it at its
// seams. The engine itself is src/compaction.
import { imagesMarker, userContent, type AgentMessage, type AssistantMessage, type ImageContent, type UserMessage } from '../core/messages';
import { imagesFor } from '../llm/image-input';
import {
  CompactionNotDone,
  isDone,
  type CompactionDoneOutcome,
  CompactionRunner,
  compactionThreshold,
  idleCompactionDue,
  idleTimeoutMs,
  type CompactionOutcome,
} from '../compaction';
import { renderPrompt } from '../core/prompts';
import { sameModel } from '../llm/models';
import type { ModelInfo, StreamRequest } from '../llm/types';
import { convertToLlm } from '../session/convert';
import type { SessionEntry } from '../session/entries';
import { entryCost } from '../session/entry-fields';
import type { SessionStore } from '../session/store';
import type { AgentSessionDeps, CompactOptions } from './agent-session-types';
import { withValidToolCallIds } from './tool-call-ids';
import { contextTokensOf, livePromptTokens, recoveryFor } from './compaction-triggers';
import { ContextMaintainer, type MaintainerHost, type RunState } from './context-maintainer';
import { assistantToolCalls, type AgentEvent, type AgentEventListener, type UsageInfo } from './events';
import { IdleTimer, SYSTEM_CLOCK, type Clock } from './idle-timer';
import { streamToReply, thinkingOf } from './reply-stream';
import { runToolCalls, skipToolCalls, STOPPED_REASON } from './tool-calls';
import { toolDefinitions } from './tools';
import { TurnInputs } from './turn-inputs';

export { AUTO_CONTINUE_CUSTOM_TYPE } from './context-maintainer';
/** The hidden prompt the Continue action of a cut-off reply sends. */
export const CONTINUE_CUSTOM_TYPE = 'continue';

type Interrupt = 'stop' | 'compact';

export class AgentSession {
  private currentStore: SessionStore;
  private currentModel: ModelInfo;
  private readonly listeners = new Set<AgentEventListener>();
  private readonly inputs: TurnInputs;
  private readonly runner: CompactionRunner;
  private readonly maintainer: ContextMaintainer;
  private readonly idleTimer: IdleTimer;
  private readonly clock: Clock;
  private readonly queue: QueuedPrompt[] = [];
  private activity: Promise<void> | undefined;
  private runController: AbortController | undefined;
  private interrupt: Interrupt | undefined;
  private compactWaiting = false;
  private pendingModel: ModelInfo | undefined;
  private pendingThinkingLevel: string | undefined;
  private lastCost = 0;
  private sessionCost: number;
  private disposed = false;

  constructor(private readonly deps: AgentSessionDeps) {
    this.currentStore = deps.store;
    this.currentModel = deps.model;
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.inputs = new TurnInputs(deps, {
      store: () => this.currentStore,
      model: () => this.currentModel,
      now: () => this.clock.now(),
      emit: (event) => this.emit(event),
      persist: (message) => this.persist(message),
    });
    this.sessionCost = costOfEntries(deps.store.getEntries());
    this.runner = this.createRunner();
    this.runner.onEvent((event) => {
      if (event.type === 'start') this.emit({ type: 'compaction_start', reason: event.reason, action: event.action });
      else {
        if (event.outcome.status === 'compacted') this.sessionCost += entryCost(event.outcome.entry);
        this.emit({
          type: 'compaction_end',
          reason: event.reason,
          outcome: event.outcome,
          aborted: event.aborted,
          willRetry: event.willRetry,
          ...(event.errorMessage ? { errorMessage: event.errorMessage } : {}),
        });
      }
    });
    this.maintainer = new ContextMaintainer(this.maintainerHost(), this.runner);
    this.idleTimer = new IdleTimer(this.clock, () => idleTimeoutMs(this.inputs.settings()), () => void this.onIdleTimer());
    this.armIdleTimer();
  }

  // ---- state --------------------------------------------------------------------------------------

  get store(): SessionStore {
    return this.currentStore;
  }

  get model(): ModelInfo {
    return this.pendingModel ?? this.currentModel;
  }

  /** The thinking level of the conversation at the current leaf (or a change waiting for the turn to end). */
  get thinkingLevel(): string {
    return this.pendingThinkingLevel ?? this.currentStore.buildContext().thinkingLevel;
  }

  /** True while a turn, a queued turn or a compaction runs. */
  get busy(): boolean {
    return this.activity !== undefined;
  }

  get compacting(): boolean {
    return this.runner.running;
  }

  get queuedMessages(): readonly string[] {
    return this.queue.map(queuedLabel);
  }

  /** For previews (`compactionRunner.preview()`) and cancel buttons. */
  get compactionRunner(): CompactionRunner {
    return this.runner;
  }

  onEvent(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when no turn, queued message or compaction is running. */
  async whenIdle(): Promise<void> {
    while (this.activity) await this.activity.catch(() => undefined);
  }

  // ---- prompting ----------------------------------------------------------------------------------

  /**
   * Sends a user message. While the agent works (or a compaction runs) the message is queued, reported
   * in a `queued` event, and sent after the current turn; the promise then resolves at once. Otherwise
   * it resolves when the run (and any messages queued meanwhile) has finished.
   */
  prompt(text: string, images: readonly ImageContent[] = []): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('The agent session was closed.'));
    if (this.activity || this.compactWaiting) {
      this.queue.push({ text, images });
      this.emitQueued();
      return Promise.resolve();
    }
    return this.startActivity(() => this.conversation({ text, images }));
  }

  /**
   * Continue after a reply cut off at the output limit: a hidden "continue" prompt on the current path.
   * Queued like a prompt while the agent works.
   */
  continueReply(): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('The agent session was closed.'));
    if (this.activity || this.compactWaiting) return Promise.resolve();
    return this.startActivity(() => this.continuation());
  }

  /**
   * Retry: asks the model again from the current leaf, without a new message (the caller moved the leaf
   * to the entry before a failed reply, which stays in the tree). Ignored while the agent works.
   */
  retryFromLeaf(): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('The agent session was closed.'));
    if (this.activity || this.compactWaiting) return Promise.resolve();
    return this.startActivity(() => this.resumeFromLeaf());
  }

  /** Removes a queued message (e.g. the user took it back for editing): its text and images. */
  dequeue(index: number): QueuedPrompt | undefined {
    const [removed] = this.queue.splice(index, 1);
    if (removed !== undefined) this.emitQueued();
    return removed;
  }

  /**
   * Stops everything: the stream, running tools, a pending approval, a running compaction. The partial
   * reply is persisted as "aborted" and every tool call gets a result. Queued messages are not sent:
   * they are returned so the UI can put them back into the input.
   */
  async stop(): Promise<QueuedPrompt[]> {
    this.maintainer.background.cancel('stopped by the user');
    const dropped = this.queue.splice(0);
    if (dropped.length > 0) this.emitQueued();
    if (this.activity) {
      this.interrupt = 'stop';
      this.runController?.abort();
      this.runner.cancel();
      await this.whenIdle();
    }
    return dropped;
  }

  // ---- model and thinking level ---------------------------------------------------------------------

  /** Persists a `model_change` entry; while a turn runs, the change applies from the next request. */
  async setModel(model: ModelInfo): Promise<void> {
    if (sameModel(model, this.model)) return;
    if (this.activity) {
      this.pendingModel = model;
      this.emit({ type: 'model_changed', model });
      return;
    }
    this.pendingModel = model;
    await this.applyPendingChanges();
    this.emitUsage();
  }

  /** Persists a `thinking_level_change` entry (applied at the next request while a turn runs). */
  async setThinkingLevel(level: string): Promise<void> {
    if (level === this.thinkingLevel) return;
    this.pendingThinkingLevel = level;
    if (this.activity) {
      this.emit({ type: 'thinking_level_changed', level });
      return;
    }
    await this.applyPendingChanges();
  }

  /**
   * The leaf moved (tree navigation) or the file was changed outside the loop: nothing is cached, so
   * this only tells the UI to re-render and refreshes the usage figures; `added` entries (a branch summary
   * the app wrote) add their cost to the session cost.
   */
  refreshFromStore(added: readonly SessionEntry[] = []): void {
    this.maintainer.background.leafMoved();
    for (const entry of added) this.sessionCost += entryCost(entry); // a branch summary's summarizer calls
    this.emit({ type: 'refreshed', leafId: this.currentStore.getLeafId() });
    this.emitUsage();
  }

  // ---- compaction ---------------------------------------------------------------------------------

  /**
   * Manual compaction (`/compact [instructions]`, "Arbor: Compact Session"; with `keepFrom`, "Compact
   * Up To Here"). A running turn is stopped first (its partial reply is kept as "aborted"); messages
   * queued meanwhile are sent afterwards.
   * Throws `CompactionNotDone` carrying the typed outcome (skipped and why, cancelled, failed).
   */
  async compact(customInstructions?: string, options: CompactOptions = {}): Promise<CompactionDoneOutcome> {
    if (this.runner.running) throw new Error('A compaction is already running');
    if (this.activity) {
      this.compactWaiting = true;
      this.interrupt = 'compact';
      this.runController?.abort();
      try {
        await this.whenIdle();
      } finally {
        this.compactWaiting = false;
      }
    }
    let outcome: CompactionOutcome = { status: 'cancelled' };
    await new Promise<void>((done) => {
      void this.startActivity(async () => {
        try {
          const trimmed = customInstructions?.trim();
          outcome = await this.maintainer.runCompaction({
            reason: 'manual',
            ...(trimmed ? { customInstructions: trimmed } : {}),
            ...(options.review ? { review: options.review } : {}),
            ...(options.keepFrom !== undefined ? { keepFrom: options.keepFrom } : {}),
            ...(options.handoff ? { strategy: 'handoff' as const } : {}),
          });
        } finally {
          done();
        }
      });
    });
    const final = outcome as CompactionOutcome;
    if (isDone(final)) return final;
    throw new CompactionNotDone(final);
  }

  /** Cancels a running compaction (status bar / chat button). */
  cancelCompaction(): boolean {
    return this.runner.cancel();
  }

  /**
   * Idle maintenance: compacts when idle compaction is enabled and the live context is at least
   * `idleThresholdTokens`. Undefined when nothing is due (or the agent is busy); no auto-continue.
   */
  async runIdleCompaction(): Promise<CompactionOutcome | undefined> {
    if (this.activity || this.compactWaiting || this.runner.running || this.disposed) return undefined;
    const settings = this.inputs.settings();
    const promptTokens = livePromptTokens(this.currentStore.buildContext().messages);
    const due = idleCompactionDue(settings, { promptTokens, userTyping: false, agentBusy: false, compacting: false });
    if (!due || promptTokens === undefined) return undefined;
    if (!(await this.maintainer.confirmIdleCompaction(promptTokens, settings))) return undefined;
    let outcome: CompactionOutcome | undefined;
    await this.startActivity(async () => {
      outcome = await this.maintainer.runCompaction({ reason: 'idle' });
      this.maintainer.reportFailure(outcome);
    });
    return outcome;
  }

  /** The user is typing in the chat input: idle maintenance waits for a full quiet period again. */
  notifyUserTyping(): void {
    if (this.idleTimer.armed) this.idleTimer.arm();
  }

  /**
   * The settings changed: the idle timer follows `idleEnabled` / `idleTimeoutSeconds` at once instead of
   * after the next turn.
   */
  settingsChanged(): void {
    if (this.activity || this.disposed) return;
    this.armIdleTimer();
  }

  /** Context size and cost for the status bar / chat header. */
  usage(): UsageInfo {
    const window = this.model.contextWindow;
    const measured = contextTokensOf(this.currentStore.buildContext().messages, (m) => this.inputs.estimate(m), () => this.inputs.fixedOverheadTokens());
    return {
      ...measured,
      contextWindow: window,
      thresholdTokens: compactionThreshold(window, this.inputs.settings()),
      lastCost: this.lastCost,
      sessionCost: this.sessionCost,
    };
  }

  dispose(): void {
    this.disposed = true;
    this.idleTimer.dispose();
    this.maintainer.abortIdleQuestion();
    this.runController?.abort();
    this.runner.cancel();
    this.maintainer.background.cancel('the session closed');
    this.listeners.clear();
  }

  // ---- the run ------------------------------------------------------------------------------------

  private startActivity(task: () => Promise<void>): Promise<void> {
    this.idleTimer.cancel();
    this.maintainer.abortIdleQuestion();
    this.interrupt = undefined;
    this.emit({ type: 'busy' });
    const run = (async () => {
      try {
        await task();
        while (this.queue.length > 0 && this.interrupt === undefined && !this.disposed) {
          const next = this.queue.shift()!;
          this.emitQueued();
          await this.conversation(next);
        }
      } catch (error) {
        this.deps.log?.(`agent: ${(error as Error)?.stack ?? String(error)}`);
        this.emit({ type: 'error', message: `The agent failed: ${(error as Error)?.message ?? String(error)}` });
      } finally {
        this.runController = undefined;
        this.activity = undefined;
        try {
          await this.applyPendingChanges();
        } catch (error) {
          this.emit({ type: 'error', message: `Could not save the model change: ${(error as Error).message}` });
        }
        this.emit({ type: 'idle' });
        this.armIdleTimer();
      }
    })();
    this.activity = run;
    return run;
  }

  /** One user message and everything the agent does about it. */
  private async conversation({ text, images }: QueuedPrompt): Promise<void> {
    const controller = new AbortController();
    this.runController = controller;
    const signal = controller.signal;
    await this.applyPendingChanges();
    await this.maintainer.maintainBeforePrompt(signal);
    if (signal.aborted) return;
    this.maintainer.resetOverflowGuard();
    const message: UserMessage = { role: 'user', content: userContent(text, images), timestamp: this.clock.now() };
    await this.persist(message);
    const systemPrompt = await this.inputs.resolveSystemPrompt();
    await this.loop(systemPrompt, { lengthRecovered: false, autoContinued: false }, signal);
  }

  private continuation(): Promise<void> {
    const content = renderPrompt('system/continue-cut-off').trim();
    return this.resumeFromLeaf({ role: 'custom', customType: CONTINUE_CUSTOM_TYPE, content, display: false, timestamp: this.clock.now() });
  }

  /** The loop from the current leaf, after appending `first` when given (a hidden continue prompt). */
  private async resumeFromLeaf(first?: AgentMessage): Promise<void> {
    const controller = new AbortController();
    this.runController = controller;
    await this.applyPendingChanges();
    this.maintainer.resetOverflowGuard();
    if (first) await this.persist(first);
    const systemPrompt = await this.inputs.resolveSystemPrompt();
    await this.loop(systemPrompt, { lengthRecovered: false, autoContinued: false }, controller.signal);
  }

  private async loop(systemPrompt: string, state: RunState, signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) return;
      await this.applyPendingChanges();
      const { message, entryId } = await this.streamReply(systemPrompt, signal);
      const calls = assistantToolCalls(message);
      const env = this.inputs.toolEnvironment();
      if (message.stopReason === 'aborted') {
        await skipToolCalls(env, calls, STOPPED_REASON);
        return;
      }
      if (message.stopReason === 'error' || message.stopReason === 'length') {
        const recovery = recoveryFor(message, this.currentModel);
        const recovered = recovery ? await this.maintainer.recover(recovery, entryId, state, signal) : 'none';
        if (recovered === 'retry') continue;
        await skipToolCalls(env, calls, message.stopReason === 'length' ? 'the reply was cut off before it was complete.' : 'the reply failed.');
        if (recovered === 'reported') return;
        if (message.stopReason === 'error') {
          this.emit({ type: 'error', message: message.errorMessage ?? 'The provider returned an error.', ...errorKindOf(message) });
        } else {
          this.emit({ type: 'cut_off', entryId });
        }
        return;
      }
      this.maintainer.resetOverflowGuard();
      if (calls.length > 0) {
        const ran = await runToolCalls(env, calls, signal);
        await this.deps.checkpoints?.finishTurn((customType, data) => this.currentStore.appendCustomEntry(customType, data));
        if (ran === 'aborted') return;
        await this.maintainer.maintainMidTurn(signal);
        continue;
      }
      if (!(await this.maintainer.maintainAfterRun(message, state, signal))) return;
    }
  }

  private async streamReply(systemPrompt: string, signal: AbortSignal): Promise<{ message: AssistantMessage; entryId: string }> {
    const model = this.currentModel;
    const context = this.currentStore.buildContext();
    const tools = this.inputs.offeredTools();
    const request: StreamRequest = {
      model,
      systemPrompt,
      messages: imagesFor(model, convertToLlm(context.messages)),
      signal,
      ...(tools.length > 0 ? { tools: toolDefinitions(tools) } : {}),
      ...(this.deps.maxTokens ? { maxTokens: this.deps.maxTokens } : {}),
      ...thinkingOf(context.thinkingLevel),
    };
    const reply = await streamToReply(this.inputs.providerFor(model), request, (event) => this.emit(event), () => this.clock.now());
    const final = this.withValidToolCallIds(reply);
    const entryId = await this.persist(final);
    this.lastCost = final.usage?.cost?.total ?? 0;
    this.sessionCost += this.lastCost;
    this.emitUsage();
    return { message: final, entryId };
  }

  /** Replaces tool-call ids the UI cannot carry (or duplicates) before the reply is persisted; logged. */
  private withValidToolCallIds(reply: AssistantMessage): AssistantMessage {
    const { message, replaced } = withValidToolCallIds(reply);
    for (const { original, replacement, reason } of replaced) {
      this.deps.log?.(`tool call id ${JSON.stringify(original.slice(0, 80))} from ${reply.provider} is ${reason}; replaced by ${replacement}`);
    }
    return message;
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

  // ---- idle ---------------------------------------------------------------------------------------

  private armIdleTimer(): void {
    if (this.disposed) return;
    const settings = this.inputs.settings();
    if (settings.idleEnabled && settings.strategy !== 'off') this.idleTimer.arm();
    else this.idleTimer.cancel();
  }

  private async onIdleTimer(): Promise<void> {
    try {
      await this.runIdleCompaction();
    } catch (error) {
      this.deps.log?.(`idle compaction: ${(error as Error).message}`);
    }
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private maintainerHost(): MaintainerHost {
    const options = this.deps.compaction ?? {};
    return {
      store: () => this.currentStore,
      model: () => this.currentModel,
      switchModel: (model) => this.switchModel(model),
      settings: () => this.inputs.settings(),
      availableModels: () => this.deps.availableModels?.() ?? [],
      ...(options.promotionModel ? { injectedPromotion: options.promotionModel } : {}),
      usable: (model) => this.inputs.usable(model),
      contextEstimate: () => this.contextEstimate(),
      queueLength: () => this.queue.length,
      working: () => Boolean(this.activity || this.compactWaiting || this.runner.running),
      disposed: () => this.disposed,
      now: () => this.clock.now(),
      emit: (event) => this.emit(event),
      emitUsage: () => this.emitUsage(),
      persist: (message) => this.persist(message),
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

  /** Context promotion: persisted as a model_change; the next request uses `model`. */
  private async switchModel(model: ModelInfo): Promise<void> {
    const entry = await this.currentStore.appendModelChange(model.provider, model.id);
    this.currentModel = model;
    this.emit({ type: 'model_changed', model, entryId: entry.id });
    this.emitUsage();
  }

  private createRunner(): CompactionRunner {
    const options = this.deps.compaction ?? {};
    return new CompactionRunner({
      store: {
        getBranch: () => this.currentStore.getBranch(),
        appendCompaction: (fields) => this.currentStore.appendCompaction(fields),
      },
      settings: () => this.inputs.settings(),
      models: () => ({ current: this.currentModel, available: this.deps.availableModels?.() ?? [this.currentModel] }),
      // Other candidates only when they can work: a key, or a local/demo model that needs none.
      providerFor: async (model) => ((await this.inputs.usable(model)) ? this.inputs.providerFor(model) : undefined),
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.estimator ? { estimator: options.estimator } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
      ...(options.nativeCompactionTimeoutMs !== undefined ? { nativeCompactionTimeoutMs: options.nativeCompactionTimeoutMs } : {}),
      keys: this.deps.keys,
      ...(this.deps.log ? { log: this.deps.log } : {}),
      fixedOverheadTokens: () => this.inputs.fixedOverheadTokens(),
      thinkingLevel: () => thinkingOf(this.thinkingLevel).thinkingLevel,
      liveContext: () => this.inputs.liveContext(),
    });
  }

  /** Model / thinking-level changes made while busy are persisted between requests. */
  private async applyPendingChanges(): Promise<void> {
    const model = this.pendingModel;
    if (model) {
      this.pendingModel = undefined;
      if (!sameModel(model, this.currentModel)) {
        const entry = await this.currentStore.appendModelChange(model.provider, model.id);
        this.currentModel = model;
        this.emit({ type: 'model_changed', model, entryId: entry.id });
      }
    }
    const level = this.pendingThinkingLevel;
    if (level !== undefined) {
      this.pendingThinkingLevel = undefined;
      if (level !== this.currentStore.buildContext().thinkingLevel) {
        const entry = await this.currentStore.appendThinkingLevelChange(level);
        this.emit({ type: 'thinking_level_changed', level, entryId: entry.id });
      }
    }
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

  private emitQueued(): void {
    this.emit({ type: 'queued', messages: this.queue.map(queuedLabel) });
  }

  private emitUsage(): void {
    this.emit({ type: 'usage', usage: this.usage() });
  }

  private emit(event: AgentEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.deps.log?.(`agent event listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }
}

/** A prompt waiting for the running turn (a taken-back one returns to the input with its images). */
export interface QueuedPrompt {
  text: string;
  images: readonly ImageContent[];
}

/** What the queue shows of a prompt: its text, or for images alone their marker. */
function queuedLabel(prompt: QueuedPrompt): string {
  return prompt.text.trim() === '' && prompt.images.length > 0 ? imagesMarker(prompt.images.length) : prompt.text;
}

function errorKindOf(message: AssistantMessage): { kind?: string; provider: string } {
  return { ...(typeof message.errorKind === 'string' ? { kind: message.errorKind } : {}), provider: message.provider };
}

/** Cost of every reply, usage entry and summary in the file (once, when the session is opened). */
function costOfEntries(entries: readonly SessionEntry[]): number {
  let total = 0;
  for (const entry of entries) total += entryCost(entry);
  return total;
}
