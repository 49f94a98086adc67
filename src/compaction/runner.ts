// The compaction runtime: one compaction at a time, cancellable, with hooks and start/end events for the
// UI. Which strategy runs is the table in ./strategies (one file per strategy); the runner checks the
// request, plans the cut once and hands over. Nothing is written to the session until a summary is
// complete, so a failed or cancelled compaction leaves the file byte-identical.
import { CompactionCancelled } from './errors';
import { CompactionHookRegistry, type CompactionReason } from './hooks';
import { SKIP_MESSAGES, failed, wouldNotShrink, type CompactionOutcome, type SkipReason } from './outcome';
import { newestTurnTokens, prepareCompaction, prepareCompactionAt, type ChosenCutPreparation, type CompactionPreparation } from './prepare';
import { buildPreview, type CompactionPreview } from './preview';
import { bridgedCommit } from './bridge-commit';
import { compactionPrompt } from './prompt-text';
import type { CompactionSettings } from './settings';
import { strategyFor } from './strategies';
import { userWordsBudget } from './user-words';
import { summarizePlan, type PreparedSummary } from './strategies/summary-step';
import type { CompactionPlan, CompactionRunnerDeps, CompactionStrategy, Planned, RetryPolicy, RunOptions, Skip, StrategyName, StrategyRun } from './strategies/types';

export type { CompactionReason } from './hooks';
export { failureMessage, type ChosenCut, type CompactionOutcome, type SkipReason } from './outcome';
export type { CompactionStore, CompactionRunnerDeps, RetryPolicy, RunOptions, StrategyName } from './strategies/types';
export { MANUAL_CUT_REASON, type PreparedSummary } from './strategies/summary-step';

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 2000,
  switchCandidateAfterMs: 30_000,
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    }),
};

/** The strategy a started run takes (`off` never starts). */
export type CompactionAction = Exclude<StrategyName, 'off'>;

export type CompactionEvent =
  | { type: 'start'; reason: CompactionReason; action: CompactionAction }
  | { type: 'end'; reason: CompactionReason; outcome: CompactionOutcome; aborted: boolean; willRetry: boolean; errorMessage?: string };

/** Hidden message the runtime sends after a threshold compaction when autoContinue is on. */
export function autoContinuePrompt(): string {
  return compactionPrompt('auto-continue');
}

export class CompactionRunner {
  private controller: AbortController | undefined;
  private readonly listeners = new Set<(event: CompactionEvent) => void>();
  private readonly hooks: CompactionHookRegistry;
  private readonly retry: RetryPolicy;

  constructor(private readonly deps: CompactionRunnerDeps) {
    this.hooks = deps.hooks ?? new CompactionHookRegistry(deps.log);
    this.retry = { ...DEFAULT_RETRY_POLICY, ...deps.retry };
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  onEvent(listener: (event: CompactionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Cancels the running compaction (if any). Returns whether there was one. */
  cancel(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }

  /** What a compaction would summarize and keep now, without calling a model. */
  preview(): CompactionPreview | undefined {
    const preparation = this.prepare(this.deps.settings(), 'manual');
    return preparation ? this.previewOf(preparation) : undefined;
  }

  /** The preview of a given preparation (Compact Up To Here's), counted as the marker and the meter count. */
  previewOf(preparation: CompactionPreparation): CompactionPreview {
    return buildPreview(preparation, this.deps.estimator, this.deps.fixedOverheadTokens?.() ?? 0);
  }

  async run(options: RunOptions): Promise<CompactionOutcome> {
    const settings = this.deps.settings();
    const strategy = strategyFor(options, settings);
    const checked = this.check(options, settings, strategy);
    if ('skip' in checked) return { status: 'skipped', ...checked.skip };
    const controller = new AbortController();
    this.controller = controller;
    this.emit({ type: 'start', reason: options.reason, action: strategy.name as CompactionAction });
    let outcome: CompactionOutcome;
    try {
      outcome = await strategy.run(this.strategyRun(options, settings, controller.signal, checked.plan));
    } catch (error) {
      outcome =
        error instanceof CompactionCancelled || controller.signal.aborted
          ? { status: 'cancelled' }
          : failed(options.reason, (error as Error)?.message ?? String(error));
    } finally {
      this.controller = undefined;
    }
    this.emit({
      type: 'end',
      reason: options.reason,
      outcome,
      aborted: outcome.status === 'cancelled',
      willRetry: outcome.status === 'compacted' && options.willRetry === true,
      ...(outcome.status === 'failed' ? { errorMessage: outcome.errorMessage } : {}),
    });
    return outcome;
  }

  /**
   * Background compaction (../agent/background-compaction.ts): the plan an automatic run would take
   * now, or undefined when the in-place strategy would not run or there is nothing to compact;
   * `keepRecentTokens` replaces the setting's for this plan.
   */
  planAhead(reason: CompactionReason, keepRecentTokens?: number): CompactionPlan | undefined {
    const current = this.deps.settings();
    // The summary is committed later: it keeps less now, the growth until the commit makes up the rest.
    const settings = keepRecentTokens === undefined ? current : { ...current, keepRecentTokens: Math.max(1, Math.floor(keepRecentTokens)) };
    const options: RunOptions = { reason };
    const strategy = strategyFor(options, settings);
    if (strategy.name !== 'context-full') return undefined;
    // Right after a commit the leaf is that compaction: its kept part is already worth summarizing ahead.
    const checked = this.check(options, settings, strategy, { ignoreBusy: true, ahead: true });
    return 'plan' in checked ? checked.plan : undefined;
  }

  /**
   * A background summary as it is committed now: when what came while it was written would leave more than
   * keepRecentTokens verbatim, cut where a foreground compaction would keep keepRecentTokens now (the bridge
   * counted in them), with the entries before that cut bridged (./bridge-commit.ts); else as it is.
   */
  bridged(prepared: PreparedSummary): PreparedSummary {
    if (prepared.plan.chosen) return prepared;
    return bridgedCommit(prepared, (keep) => this.planAhead('threshold', keep)?.preparation, this.deps.store.getBranch(), this.deps.estimator);
  }

  /** Writes the summary of `plan` without saving it (and without start/end events). */
  summarizeAhead(reason: CompactionReason, plan: CompactionPlan, signal: AbortSignal): Promise<PreparedSummary> {
    return summarizePlan(this.strategyRun({ reason }, this.deps.settings(), signal, plan), plan);
  }

  private strategyRun(options: RunOptions, settings: CompactionSettings, signal: AbortSignal, plan: CompactionPlan | undefined): StrategyRun {
    return {
      deps: this.deps,
      hooks: this.hooks,
      retry: this.retry,
      options,
      settings,
      signal,
      plan,
      replan: () => this.plan(options, settings),
    };
  }

  /** Why this run is skipped, or what it will summarize (prepared once: preparing walks the whole path). */
  private check(
    options: RunOptions,
    settings: CompactionSettings,
    strategy: CompactionStrategy,
    { ignoreBusy = false, ahead = false } = {},
  ): Skip | { plan: CompactionPlan | undefined } {
    const skip = (why: SkipReason) => ({ skip: { why, message: SKIP_MESSAGES[why] } });
    if (this.running && !ignoreBusy) return skip('busy');
    const refused = strategy.refuse?.(options);
    if (refused) return skip(refused);
    if (options.reason !== 'manual' && !settings.enabled && options.reason !== 'idle') return skip('disabled');
    if (options.prepared) return { plan: options.prepared.plan };
    if (!strategy.needsCut(options)) return { plan: undefined };
    // A chosen cut may follow a compaction directly: it moves the kept start further forward.
    if (options.keepFrom === undefined && !ahead) {
      const branch = this.deps.store.getBranch();
      if (branch[branch.length - 1]?.type === 'compaction') return skip('already-compacted');
    }
    return this.worthRunning(this.plan(options, settings, ahead));
  }

  /** A plan whose preview (the summary at its expected size) does not shrink the context is refused before any model call. */
  private worthRunning(planned: Planned): Planned | Skip {
    if ('skip' in planned) return planned;
    const preview = this.previewOf(planned.plan.preparation);
    if (preview.shrinks) return planned;
    const refusal = wouldNotShrink({ tokensBefore: preview.estimatedTokensBefore, tokensAfter: preview.estimatedTokensAfter });
    return { skip: { why: refusal.why, message: refusal.message, figures: refusal.figures! } };
  }

  /** What to summarize now: the chosen cut, or the automatic one (nothing-to-compact when there is none). */
  private plan(options: RunOptions, settings: CompactionSettings, ahead = false): Planned {
    if (options.keepFrom !== undefined) {
      const chosen = this.prepareAt(settings, options.keepFrom);
      return chosen.ok ? { plan: { preparation: chosen.preparation, chosen } } : { skip: chosenSkip(chosen) };
    }
    const preparation = this.prepare(settings, options.reason, ahead);
    return preparation ? { plan: { preparation } } : { skip: { why: 'nothing-to-compact', message: SKIP_MESSAGES['nothing-to-compact'] } };
  }

  private prepareAt(settings: CompactionSettings, keepFrom: string): ChosenCutPreparation {
    return prepareCompactionAt(this.deps.store.getBranch(), settings, keepFrom, this.prepareOptions());
  }

  /**
   * Automatic compactions skip a session that fits in keepRecentTokens (a model call that saves
   * nothing). A manual one is an explicit request: it then keeps only the newest turn.
   */
  private prepare(settings: CompactionSettings, reason: CompactionReason, ahead = false): CompactionPreparation | undefined {
    const branch = this.deps.store.getBranch();
    const options = { ...this.prepareOptions(), ...(ahead ? { afterCompaction: true } : {}) };
    const preparation = prepareCompaction(branch, settings, options);
    if (preparation || reason !== 'manual') return preparation;
    return prepareCompaction(branch, settings, { ...options, keepRecentTokensOverride: newestTurnTokens(branch, this.deps.estimator) });
  }

  private prepareOptions() {
    return {
      ...(this.deps.estimator ? { estimator: this.deps.estimator } : {}),
      fixedOverheadTokens: this.deps.fixedOverheadTokens?.() ?? 0,
      userWordsTokens: userWordsBudget(this.deps.models().current?.contextWindow),
    };
  }

  private emit(event: CompactionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.deps.log?.(`compaction event listener failed: ${(error as Error).message}`);
      }
    }
  }
}

function chosenSkip(chosen: Extract<ChosenCutPreparation, { ok: false }>): { why: SkipReason; message: string } {
  return { why: chosen.why === 'nothing-to-compact' ? 'nothing-to-compact' : 'invalid-cut', message: chosen.message };
}
