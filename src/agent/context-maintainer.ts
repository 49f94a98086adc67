// The context maintainer (issue 17: one seam for context maintenance): every decision about keeping the
// model's context inside its window, out of the agent loop. It decides when to recover (overflow, a
// reply cut off at the output limit), promote to a larger model, prune, compact at the threshold (after
// a run, between tool-loop steps, before a prompt), ask first (warnBeforeAuto) and hand off; the
// compaction runner (src/compaction/runner.ts) runs the chosen strategy and returns a typed outcome.
// The agent session is its host: the store, the model, events and persistence.
import type { AgentMessage, AssistantMessage, CustomMessage } from '../core/messages';
import {
  CompactionRunner,
  DEFAULT_PRUNE_CONFIG,
  OVERFLOW_GIVE_UP_MESSAGE,
  OverflowGuard,
  applyPruning,
  autoContinuePrompt,
  compactionThreshold,
  failureMessage,
  isDone,
  shouldCompact,
  type CompactionOutcome,
  type CompactionSettings,
  type RunOptions,
} from '../compaction';
import type { ModelInfo } from '../llm/types';
import type { SessionStore } from '../session/store';
import { BackgroundCompaction } from './background-compaction';
import { CompactionDeferral, type AutoCompactionQuestion, type CompactionConfirmer } from './auto-compaction-confirm';
import { newestLiveUsage, replyContextTokens, type Recovery } from './compaction-triggers';
import { choosePromotion, configuredPromotions, promotionNotice, type PromotionTrigger } from './context-promotion';
import type { AgentEvent } from './events';
import { startHandoffSession } from './handoff-session';

export const AUTO_CONTINUE_CUSTOM_TYPE = 'auto-continue';

/** Per-prompt bookkeeping: each recovery runs at most once per user message, and so does auto-continue. */
export interface RunState {
  lengthRecovered: boolean;
  autoContinued: boolean;
}

/** What the maintainer needs from the agent session. */
export interface MaintainerHost {
  store(): SessionStore;
  /** the model of the next request */
  model(): ModelInfo;
  /** persists a model_change, makes `model` current and tells the UI */
  switchModel(model: ModelInfo): Promise<void>;
  settings(): CompactionSettings;
  availableModels(): readonly ModelInfo[];
  /** promotion model(s) injected by the embedder; when absent the settings decide */
  injectedPromotion?: () => ModelInfo | readonly ModelInfo[] | undefined;
  usable(model: ModelInfo): Promise<boolean>;
  contextEstimate(): number;
  queueLength(): number;
  /** a turn, a queued turn or a compaction runs (or a manual one waits) */
  working(): boolean;
  disposed(): boolean;
  now(): number;
  emit(event: AgentEvent): void;
  emitUsage(): void;
  persist(message: AgentMessage): Promise<string>;
  refresh(): void;
  replaceStore(next: SessionStore): void;
  createHandoffSession?: (previous: SessionStore) => Promise<SessionStore>;
  confirmer?: CompactionConfirmer;
  log?: (message: string) => void;
}

export type MaintenanceRun = Pick<RunOptions, 'reason' | 'willRetry' | 'customInstructions' | 'review' | 'keepFrom' | 'strategy' | 'prepared'>;

export class ContextMaintainer {
  private readonly overflowGuard = new OverflowGuard();
  private readonly deferral = new CompactionDeferral();
  /** the threshold summary written ahead of time (background-compaction.ts) */
  readonly background: BackgroundCompaction;
  /** an open "compact now?" question of idle maintenance: a new turn makes it moot */
  private idleQuestion: AbortController | undefined;

  constructor(
    private readonly host: MaintainerHost,
    private readonly runner: CompactionRunner,
  ) {
    this.background = new BackgroundCompaction({
      runner,
      branch: () => host.store().getBranch(),
      settings: () => host.settings(),
      model: () => host.model(),
      now: () => host.now(),
      ...(host.log ? { log: host.log } : {}),
    });
    // Any compaction (a manual one included) answers an earlier "later".
    runner.onEvent((event) => {
      if (event.type !== 'end' || !isDone(event.outcome)) return;
      this.deferral.clear();
      this.background.reset();
    });
  }

  /** A new user message: the overflow retry is available again. */
  resetOverflowGuard(): void {
    this.overflowGuard.reset();
  }

  /** A turn starts: an open idle question is moot. */
  abortIdleQuestion(): void {
    this.idleQuestion?.abort();
  }

  /**
   * Overflow / incomplete-output recovery: the failing reply leaves the live context (the leaf moves back
   * to its parent, so it stays in the file on a side branch), the context is compacted, and the turn is
   * retried once. 'retry': go on; 'reported': the failure was reported (the UI shows that instead of the
   * raw provider error); 'none': no recovery applies. A failed recovery puts the leaf back on the reply.
   */
  async recover(kind: Recovery, entryId: string, state: RunState, signal: AbortSignal): Promise<'retry' | 'reported' | 'none'> {
    if (!(kind === 'length' && state.lengthRecovered) && (await this.promoteForRecovery(kind, entryId))) {
      if (kind === 'length') state.lengthRecovered = true;
      return 'retry';
    }
    const settings = this.host.settings();
    if (!settings.enabled || settings.strategy === 'off') return 'none';
    if (kind === 'overflow' && !this.overflowGuard.tryBegin()) {
      this.host.emit({ type: 'error', message: giveUpMessage(this.host.store().getEntry(entryId)), kind: 'overflow' });
      return 'reported';
    }
    if (kind === 'length') {
      if (state.lengthRecovered) return 'none';
      state.lengthRecovered = true;
    }
    const failing = this.host.store().getEntry(entryId);
    if (!failing) return 'none';
    if (failing.parentId === null) this.host.store().resetLeaf();
    else this.host.store().branch(failing.parentId);
    const outcome = await this.runCompaction({ reason: kind, willRetry: true }, signal);
    if (isDone(outcome)) return signal.aborted ? 'reported' : 'retry';
    if (this.host.store().getEntry(entryId)) this.host.store().branch(entryId);
    // A short session cut off at the output limit is a normal stop: the user may continue it.
    if (kind === 'length' && outcome.status === 'skipped' && (outcome.why === 'nothing-to-compact' || outcome.why === 'would-not-shrink')) return 'none';
    this.reportFailure(outcome, kind);
    return 'reported';
  }

  /**
   * Context promotion for a failed reply: when a configured larger model holds the context, the reply
   * leaves the live context (as for compaction) and the model is switched; the turn is then retried.
   */
  private async promoteForRecovery(kind: Recovery, entryId: string): Promise<boolean> {
    if (this.promotionTargets().length === 0) return false;
    const failing = this.host.store().getEntry(entryId);
    const reply = failing?.type === 'message' ? ((failing as { message?: AgentMessage }).message as AssistantMessage | undefined) : undefined;
    if (!failing || !reply) return false;
    const parentId = failing.parentId;
    if (parentId === null) this.host.store().resetLeaf();
    else this.host.store().branch(parentId);
    // An overflow means the prompt was larger than the window, whatever the estimate says.
    const estimate = this.host.contextEstimate();
    const tokens = kind === 'overflow' ? Math.max(estimate, this.host.model().contextWindow + 1) : Math.max(estimate, replyContextTokens(reply));
    if (await this.tryPromotion(kind, tokens)) return true;
    this.host.store().branch(entryId);
    return false;
  }

  /** Switches to the configured promotion model when it qualifies (persisted as a model_change). */
  private async tryPromotion(trigger: PromotionTrigger, contextTokens: number): Promise<boolean> {
    const configured = this.promotionTargets();
    if (configured.length === 0) return false;
    const target = await choosePromotion({
      current: this.host.model(),
      configured,
      contextTokens,
      settings: this.host.settings(),
      usable: (model) => this.host.usable(model),
    });
    if (!target) return false;
    const previous = this.host.model();
    await this.host.switchModel(target);
    this.host.log?.(`context promotion (${trigger}): ${previous.provider}/${previous.id} → ${target.provider}/${target.id} at ~${contextTokens} tokens`);
    this.host.emit({ type: 'notice', level: 'info', message: promotionNotice(target) });
    return true;
  }

  /** The injected promotion model(s), else what the settings configure for the current model. */
  private promotionTargets(): readonly ModelInfo[] {
    const injected = this.host.injectedPromotion;
    if (injected) {
      const configured = injected();
      return configured === undefined ? [] : Array.isArray(configured) ? configured : [configured as ModelInfo];
    }
    return configuredPromotions(this.host.model(), this.host.settings(), this.host.availableModels());
  }

  /**
   * After a successful run: prune old tool output, then compact when the context is above the
   * threshold. Returns true when the loop should go on (hidden auto-continue message appended).
   */
  async maintainAfterRun(reply: AssistantMessage, state: RunState, signal: AbortSignal): Promise<boolean> {
    const settings = this.host.settings();
    if (!settings.enabled || settings.strategy === 'off') return false;
    const tokens = await this.pruneIfWorthIt(replyContextTokens(reply));
    const outcome = await this.thresholdCompaction(tokens, signal);
    if (!isDone(outcome)) return false;
    // A queued user message carries the conversation on; auto-continue runs once per user message.
    if (signal.aborted || this.host.queueLength() > 0 || !settings.autoContinue || state.autoContinued) return false;
    state.autoContinued = true;
    if (outcome.status === 'compacted') {
      const hidden: CustomMessage = {
        role: 'custom',
        customType: AUTO_CONTINUE_CUSTOM_TYPE,
        content: autoContinuePrompt(),
        display: false,
        timestamp: this.host.now(),
      };
      await this.host.persist(hidden);
    }
    return true;
  }

  /**
   * Pruning can only save anything once the context holds more than the protected output plus the
   * minimum saving; below that, skipping it keeps a turn's cost independent of the session length.
   * Returns the context tokens after pruning.
   */
  private async pruneIfWorthIt(tokens: number): Promise<number> {
    if (tokens < DEFAULT_PRUNE_CONFIG.protectTokens + DEFAULT_PRUNE_CONFIG.minimumSavings) return tokens;
    const saved = await applyPruning(this.host.store());
    if (saved === 0) return tokens;
    this.host.emit({ type: 'notice', level: 'info', message: `Pruned old tool output (about ${saved} tokens).` });
    this.host.refresh();
    return tokens - saved;
  }

  /**
   * Mid-turn maintenance (omp's `midTurnEnabled`): between tool-loop steps the context (the step's usage
   * plus the tool results since) may already pass the threshold; compacting now keeps the next request
   * inside the window. In place only: a handoff would move a half-finished tool loop to a new session.
   */
  async maintainMidTurn(signal: AbortSignal): Promise<void> {
    const settings = this.host.settings();
    if (!settings.enabled || settings.strategy !== 'context-full' || signal.aborted) return;
    await this.thresholdCompaction(await this.pruneIfWorthIt(this.host.contextEstimate()), signal);
  }

  /** Before a new user message: a reply newer than the latest compaction that left the context too big. */
  async maintainBeforePrompt(signal: AbortSignal): Promise<void> {
    const settings = this.host.settings();
    if (!settings.enabled || settings.strategy === 'off') return;
    const live = newestLiveUsage(this.host.store().buildContext().messages);
    if (!live) return;
    await this.thresholdCompaction(replyContextTokens(live.message), signal);
  }

  /**
   * The threshold trigger, after a run and before a prompt: compacts when `tokens` passed the threshold,
   * unless a promotion to a larger model or the user's "later" (warnBeforeAuto) takes care of it.
   * Undefined when nothing ran; a failure is reported here.
   */
  private async thresholdCompaction(tokens: number, signal: AbortSignal): Promise<CompactionOutcome | undefined> {
    const settings = this.host.settings();
    const window = this.host.model().contextWindow;
    if (!shouldCompact(tokens, window, settings)) {
      this.deferral.observeBelowThreshold(tokens);
      this.background.consider(tokens);
      // Not a threshold compaction: a finished run does not auto-continue after it (undefined). With
      // warnBeforeAuto the user is asked once, at the threshold, not earlier.
      const asks = this.host.confirmer !== undefined && settings.warnBeforeAuto;
      if (!asks && this.background.commitDue(tokens)) await this.earlyBackgroundCommit(tokens, signal);
      return undefined;
    }
    if (await this.tryPromotion('threshold', tokens)) return undefined;
    const threshold = compactionThreshold(window, settings);
    if (!(await this.confirmAutoCompaction({ reason: 'threshold', contextTokens: tokens, threshold, window }, signal))) return undefined;
    const outcome = await this.thresholdRun(tokens, signal);
    this.reportFailure(outcome);
    return outcome;
  }

  /**
   * A background summary ready below the threshold whose kept part has grown to keepRecentTokens: committed
   * now (docs/architecture.md, "Background compaction").
   */
  private async earlyBackgroundCommit(tokens: number, signal: AbortSignal): Promise<void> {
    const prepared = await this.background.take(tokens);
    if (!prepared || signal.aborted) return;
    const outcome = await this.runCompaction({ reason: 'threshold', prepared }, signal);
    if (outcome.status === 'compacted') this.background.committed(this.host.contextEstimate());
    this.reportFailure(outcome);
  }

  /** The summary written in the background when it is ready and valid, else the normal compaction. */
  private async thresholdRun(tokens: number, signal: AbortSignal): Promise<CompactionOutcome> {
    const prepared = await this.background.take(tokens);
    if (!prepared || signal.aborted) return this.runCompaction({ reason: 'threshold' }, signal);
    const outcome = await this.runCompaction({ reason: 'threshold', prepared }, signal);
    if (outcome.status === 'compacted') this.background.committed(this.host.contextEstimate());
    if (outcome.status !== 'failed') return outcome;
    this.host.log?.(`background compaction: the commit failed (${outcome.errorMessage}); compacting as usual`);
    return this.runCompaction({ reason: 'threshold' }, signal);
  }

  /**
   * warnBeforeAuto: true when the automatic compaction may run. Off (or no confirmer): always. A "later"
   * is remembered and covers every automatic compaction until the context has grown by
   * `deferGrowthTokens(window)` or any compaction ran. An aborted question compacts nothing and
   * remembers nothing. A confirmer that fails counts as "compact": the setting only adds a question, it
   * must never switch maintenance off.
   */
  private async confirmAutoCompaction(question: AutoCompactionQuestion, signal?: AbortSignal): Promise<boolean> {
    const confirmer = this.host.confirmer;
    if (!confirmer || !this.host.settings().warnBeforeAuto) return true;
    if (this.deferral.covers(question.contextTokens)) {
      this.host.log?.(`${question.reason} compaction deferred by the user (asking again at ${this.deferral.askAgainAt} tokens)`);
      return false;
    }
    if (signal?.aborted) return false;
    let answer: 'compact' | 'defer';
    try {
      answer = await confirmer.confirm(question, signal ?? new AbortController().signal);
    } catch (error) {
      this.host.log?.(`compaction confirmation failed, compacting: ${(error as Error)?.message ?? String(error)}`);
      answer = 'compact';
    }
    if (signal?.aborted || this.host.disposed()) return false;
    if (answer === 'compact') return true;
    const askAgainAt = this.deferral.defer(question);
    this.host.emit({ type: 'compaction_deferred', reason: question.reason, contextTokens: question.contextTokens, threshold: question.threshold, askAgainAt });
    return false;
  }

  async runCompaction(
    options: MaintenanceRun,
    signal?: AbortSignal,
  ): Promise<CompactionOutcome> {
    if (!options.prepared) this.background.cancel('another compaction runs');
    const onAbort = () => this.runner.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    let outcome: CompactionOutcome;
    try {
      outcome = await this.runner.run(options);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (outcome.status === 'handoff') await startHandoffSession(this.host, outcome.document, outcome.content);
    if (isDone(outcome)) this.host.refresh();
    return outcome;
  }

  /** Failure wording per trigger ("Context overflow recovery failed: …", "Auto-compaction failed: …"). */
  reportFailure(outcome: CompactionOutcome | undefined, recovery?: Recovery): void {
    if (!outcome) return;
    if (outcome.status === 'failed') this.host.emit({ type: 'error', message: outcome.errorMessage, kind: 'compaction' });
    else if (outcome.status === 'cancelled') this.host.emit({ type: 'notice', level: 'info', message: 'Compaction cancelled.' });
    else if (outcome.status === 'skipped' && recovery) {
      this.host.emit({ type: 'error', message: failureMessage(recovery, outcome.message), kind: 'compaction' });
    } else if (outcome.status === 'skipped' && outcome.why !== 'already-compacted') {
      this.host.log?.(`compaction skipped: ${outcome.message}`);
    }
  }

  /**
   * Asks before idle compaction (warnBeforeAuto) outside any activity, so a user coming back can start a
   * turn at once: that aborts the question, and nothing is compacted or remembered.
   */
  async confirmIdleCompaction(promptTokens: number, settings: CompactionSettings): Promise<boolean> {
    const controller = new AbortController();
    this.idleQuestion?.abort();
    this.idleQuestion = controller;
    try {
      const go = await this.confirmAutoCompaction(
        { reason: 'idle', contextTokens: promptTokens, threshold: settings.idleThresholdTokens, window: this.host.model().contextWindow },
        controller.signal,
      );
      return go && !(this.host.working() || this.host.disposed());
    } finally {
      if (this.idleQuestion === controller) this.idleQuestion = undefined;
    }
  }
}

/** The give-up text plus the provider's own words, so the user sees which limit was hit (issue #18). */
function giveUpMessage(failing: unknown): string {
  const reply = (failing as { message?: { errorMessage?: unknown } } | undefined)?.message;
  return typeof reply?.errorMessage === 'string' && reply.errorMessage ? `${OVERFLOW_GIVE_UP_MESSAGE} (${reply.errorMessage})` : OVERFLOW_GIVE_UP_MESSAGE;
}
