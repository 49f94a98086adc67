// The compaction runtime: one compaction at a time, cancellable, over model candidates with retries
// for transient errors, with hooks and start/end events for the UI. Nothing is written to the session
// until a summary is complete, so a failed or cancelled compaction leaves the file byte-identical.
import type { LlmMessage, Usage } from '../core/messages';
import type { KeyResolver, ModelInfo, Provider, ThinkingLevel, ToolDefinition } from '../llm/types';
import type { CompactionEntry, SessionEntry } from '../session/entries';
import type { CompactionFields } from '../session/store';
import { contextFromPath } from '../session/context';
import { convertToLlm } from '../session/convert';
import { modelCandidates } from './candidates';
import { withMarkerDetails } from './marker-details';
import { MeteredProvider, newMeter, type SummarizerCost } from './metered-provider';
import { CompactionCancelled, SummarizationFailed } from './errors';
import { generateHandoff, handoffMessageContent } from './handoff';
import { CompactionHookRegistry, type CompactionReason } from './hooks';
import { startNativeCompaction } from './native-runner';
import { SKIP_MESSAGES, failureMessage, type ChosenCut, type CompactionOutcome, type SkipReason } from './outcome';
import { newestTurnTokens, prepareCompaction, prepareCompactionAt, type ChosenCutPreparation, type ChosenCutRefusal, type CompactionPreparation } from './prepare';
import { buildPreview, type CompactionPreview } from './preview';
import { compactionPrompt } from './prompt-text';
import type { CompactionSettings } from './settings';
import { compact, type CompactionResult } from './summarize';
import type { TokenEstimator } from './tokens';

export type { CompactionReason } from './hooks';
export { failureMessage, type ChosenCut, type CompactionOutcome, type SkipReason } from './outcome';

/** The store operations compaction needs (SessionStore satisfies this). */
export interface CompactionStore {
  getBranch(): SessionEntry[];
  appendCompaction(fields: CompactionFields): Promise<CompactionEntry>;
}

export interface RetryPolicy {
  /** retries per candidate after the first attempt */
  maxRetries: number;
  baseDelayMs: number;
  /** a wait longer than this moves on to the next candidate instead (when there is one) */
  switchCandidateAfterMs: number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

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

export interface CompactionRunnerDeps {
  store: CompactionStore;
  settings: () => CompactionSettings;
  /** the session's current model and every model the user can use */
  models: () => { current: ModelInfo | undefined; available: readonly ModelInfo[] };
  /** a provider for a model, or undefined when it has no credentials */
  providerFor: (model: ModelInfo) => Provider | undefined | Promise<Provider | undefined>;
  hooks?: CompactionHookRegistry;
  estimator?: TokenEstimator;
  /** tokens of the system prompt + tools (improves the usage/estimate ratio) */
  fixedOverheadTokens?: () => number;
  thinkingLevel?: () => ThinkingLevel | undefined;
  /** live request context for the handoff strategy (cache-friendly); defaults to the session context */
  liveContext?: () => { systemPrompt: string; messages: LlmMessage[]; tools?: ToolDefinition[] };
  retry?: Partial<RetryPolicy>;
  log?: (message: string) => void;
  fetchImpl?: typeof fetch;
  /** API keys, for native compaction (src/compaction/native-runner.ts); without it native compaction is skipped */
  keys?: KeyResolver;
  /** timeout of the native compaction request (default 120 s) */
  nativeCompactionTimeoutMs?: number;
}

export interface RunOptions {
  reason: CompactionReason;
  customInstructions?: string;
  /** overflow/length recovery retries the turn afterwards (reported in the end event) */
  willRetry?: boolean;
  /**
   * Called with the generated result before it is saved (preview-and-edit UI). Return the result to
   * save (possibly with an edited summary) or undefined to cancel.
   */
  review?: (result: CompactionResult, preparation: CompactionPreparation) => Promise<CompactionResult | undefined>;
  /**
   * "Compact Up To Here": keep the path from this entry on and summarize what comes before it (see
   * prepareCompactionAt for the rules). Always compacts in place (never a handoff).
   */
  keepFrom?: string;
  /** a manual handoff ("/handoff"): this strategy whatever the settings say, with no fallback */
  strategy?: 'handoff';
}

/** `details.reason` of a compaction whose cut the user chose ("Compact Up To Here"). */
export const MANUAL_CUT_REASON = 'manual-cut';

/** What a run summarizes: the preparation, and for a chosen cut where it came from. */
interface CompactionPlan {
  preparation: CompactionPreparation;
  chosen?: Extract<ChosenCutPreparation, { ok: true }>;
}

export type CompactionEvent =
  | { type: 'start'; reason: CompactionReason; action: 'context-full' | 'handoff' }
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
    return preparation ? buildPreview(preparation, this.deps.estimator) : undefined;
  }

  async run(options: RunOptions): Promise<CompactionOutcome> {
    const settings = this.deps.settings();
    const checked = this.check(options, settings);
    if ('skip' in checked) return { status: 'skipped', ...checked.skip };
    const handoff = strategyFor(options, settings) === 'handoff';
    const controller = new AbortController();
    this.controller = controller;
    this.emit({ type: 'start', reason: options.reason, action: handoff ? 'handoff' : 'context-full' });
    let outcome: CompactionOutcome;
    try {
      // The plan made by the check is used as is unless a handoff ran first and fell back (time passed).
      outcome = handoff
        ? ((await this.runHandoff(options, controller.signal)) ?? (await this.fallBackFromHandoff(options, settings, controller.signal)))
        : await this.runContextFull(options, settings, controller.signal, checked.plan);
    } catch (error) {
      outcome =
        error instanceof CompactionCancelled || controller.signal.aborted
          ? { status: 'cancelled' }
          : { status: 'failed', errorMessage: failureMessage(options.reason, (error as Error)?.message ?? String(error)) };
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

  /** Why this run is skipped, or what it will summarize (prepared once: preparing walks the whole path). */
  private check(options: RunOptions, settings: CompactionSettings): { skip: { why: SkipReason; message: string } } | { plan: CompactionPlan | undefined } {
    const skip = (why: SkipReason) => ({ skip: { why, message: SKIP_MESSAGES[why] } });
    const reason = options.reason;
    if (this.running) return skip('busy');
    if (reason !== 'manual') {
      if (settings.strategy === 'off') return skip('disabled');
      if (!settings.enabled && reason !== 'idle') return skip('disabled');
    }
    // A manual handoff needs no cut: the whole live context goes into the document.
    if (options.strategy === 'handoff') return { plan: undefined };
    // A chosen cut may follow a compaction directly: it moves the kept start further forward.
    if (options.keepFrom === undefined) {
      const branch = this.deps.store.getBranch();
      if (branch[branch.length - 1]?.type === 'compaction') return skip('already-compacted');
    }
    return this.plan(options, settings);
  }

  /** What to summarize now: the chosen cut, or the automatic one (nothing-to-compact when there is none). */
  private plan(options: RunOptions, settings: CompactionSettings): { skip: { why: SkipReason; message: string } } | { plan: CompactionPlan } {
    if (options.keepFrom !== undefined) {
      const chosen = this.prepareAt(settings, options.keepFrom);
      return chosen.ok ? { plan: { preparation: chosen.preparation, chosen } } : { skip: chosenSkip(chosen)! };
    }
    const preparation = this.prepare(settings, options.reason);
    return preparation ? { plan: { preparation } } : { skip: { why: 'nothing-to-compact', message: SKIP_MESSAGES['nothing-to-compact'] } };
  }

  private prepareAt(settings: CompactionSettings, keepFrom: string): ChosenCutPreparation {
    return prepareCompactionAt(this.deps.store.getBranch(), settings, keepFrom, {
      ...(this.deps.estimator ? { estimator: this.deps.estimator } : {}),
      fixedOverheadTokens: this.deps.fixedOverheadTokens?.() ?? 0,
    });
  }

  /**
   * Automatic compactions skip a session that fits in keepRecentTokens (a model call that saves
   * nothing). A manual one is an explicit request: it then keeps only the newest turn.
   */
  private prepare(settings: CompactionSettings, reason: CompactionReason): CompactionPreparation | undefined {
    const branch = this.deps.store.getBranch();
    const options = {
      ...(this.deps.estimator ? { estimator: this.deps.estimator } : {}),
      fixedOverheadTokens: this.deps.fixedOverheadTokens?.() ?? 0,
    };
    const preparation = prepareCompaction(branch, settings, options);
    if (preparation || reason !== 'manual') return preparation;
    return prepareCompaction(branch, settings, { ...options, keepRecentTokensOverride: newestTurnTokens(branch, this.deps.estimator) });
  }

  private async runContextFull(options: RunOptions, settings: CompactionSettings, signal: AbortSignal, planned?: CompactionPlan): Promise<CompactionOutcome> {
    const branch = this.deps.store.getBranch();
    const checked = planned ? { plan: planned } : this.plan(options, settings);
    if ('skip' in checked) return { status: 'skipped', ...checked.skip };
    const { preparation, chosen } = checked.plan;

    const before = await this.hooks.beforeCompact({
      reason: options.reason,
      preparation,
      branchEntries: branch,
      ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
      signal,
    });
    if (before.cancel) throw new CompactionCancelled();
    let result: CompactionResult;
    let fromHook = false;
    let model: ModelInfo | undefined;
    let usage: Usage | undefined;
    let cost: SummarizerCost | undefined;
    if (before.compaction) {
      result = { ...before.compaction };
      fromHook = true;
    } else {
      const custom = await this.hooks.compacting({
        reason: options.reason,
        preparation,
        messages: [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages],
      });
      // Native compaction runs alongside the local summary; it never fails the compaction.
      const native = startNativeCompaction(this.deps, preparation, branch, settings, signal);
      try {
        ({ result, model, cost, usage } = await this.summarizeWithCandidates(preparation, settings, options, custom, signal));
      } catch (error) {
        native.abort();
        throw error;
      }
      const remote = await native.result;
      if (remote) result.preserveData = { ...result.preserveData, ...remote };
      if (custom.preserveData) result.preserveData = { ...result.preserveData, ...custom.preserveData };
    }
    if (signal.aborted) throw new CompactionCancelled();
    if (options.review) {
      const reviewed = await options.review(result, preparation);
      if (!reviewed || signal.aborted) throw new CompactionCancelled();
      result = reviewed;
    }
    result = withMarkerDetails(result, {
      reason: chosen?.ok ? MANUAL_CUT_REASON : options.reason,
      preparation,
      fixedOverheadTokens: this.deps.fixedOverheadTokens?.() ?? 0,
      ...(this.deps.estimator ? { estimator: this.deps.estimator } : {}),
      ...(model ? { summarizer: model } : {}),
      ...(cost ? { cost } : {}),
    });
    this.assertStillOnBranch(preparation.firstKeptEntryId);
    const entry = await this.deps.store.appendCompaction({
      summary: result.summary,
      firstKeptEntryId: result.firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      ...(result.details !== undefined ? { details: result.details } : {}),
      ...(fromHook ? { fromHook: true } : {}),
      ...(result.shortSummary ? { shortSummary: result.shortSummary } : {}),
      ...(result.preserveData ? { preserveData: result.preserveData } : {}),
      ...(usage ? { usage } : {}),
      reason: options.reason,
      tokensAfter: (result.details as { tokensAfter: number }).tokensAfter,
    });
    await this.hooks.compact({ reason: options.reason, entry, fromHook });
    return {
      status: 'compacted',
      entry,
      result,
      fromHook,
      autoContinue: options.reason === 'threshold' && settings.autoContinue,
      ...(model ? { model } : {}),
      ...(chosen?.ok ? { cut: chosenCut(chosen, entry.firstKeptEntryId) } : {}),
    };
  }

  /** The user may have moved to another branch while the summary was written. */
  private assertStillOnBranch(firstKeptEntryId: string): void {
    if (!this.deps.store.getBranch().some((e) => e.id === firstKeptEntryId)) {
      throw new Error('the session moved to another branch while compacting; nothing was saved');
    }
  }

  private async summarizeWithCandidates(
    preparation: CompactionPreparation,
    settings: CompactionSettings,
    options: RunOptions,
    custom: { prompt?: string; context?: string[] },
    signal: AbortSignal,
  ): Promise<{ result: CompactionResult; model: ModelInfo; cost: SummarizerCost; usage: Usage | undefined }> {
    const { current, available } = this.deps.models();
    const meter = newMeter();
    const candidates = modelCandidates(settings.summarizerModel, current, available);
    let lastError: Error = new Error('no model with credentials is available to write the summary');
    for (let c = 0; c < candidates.length; c++) {
      const model = candidates[c]!;
      const unmetered = await this.deps.providerFor(model);
      if (!unmetered) continue;
      const provider = new MeteredProvider(unmetered, meter);
      const hasNext = c < candidates.length - 1;
      for (let attempt = 0; ; attempt++) {
        if (signal.aborted) throw new CompactionCancelled();
        try {
          const thinkingLevel = this.deps.thinkingLevel?.();
          const result = await compact(preparation, {
            provider,
            model,
            signal,
            ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
            ...(custom.context ? { additionalContext: custom.context } : {}),
            ...(custom.prompt ? { promptOverride: custom.prompt } : {}),
            ...(thinkingLevel ? { thinkingLevel } : {}),
            ...(settings.remoteEnabled && settings.remoteEndpoint
              ? { remote: { endpoint: settings.remoteEndpoint, ...(this.deps.fetchImpl ? { fetchImpl: this.deps.fetchImpl } : {}) } }
              : {}),
            ...(this.deps.log ? { log: this.deps.log } : {}),
          });
          return { result, model, cost: meter.cost, usage: meter.usage };
        } catch (error) {
          if (error instanceof CompactionCancelled) throw error;
          lastError = error as Error;
          const transient = error instanceof SummarizationFailed && error.transient;
          const delay = this.retry.baseDelayMs * 2 ** attempt;
          if (!transient || attempt >= this.retry.maxRetries || (hasNext && delay > this.retry.switchCandidateAfterMs)) break;
          this.deps.log?.(`compaction: ${model.provider}/${model.id} failed (${lastError.message}); retrying in ${delay} ms`);
          await this.retry.sleep(delay, signal);
        }
      }
      if (hasNext) this.deps.log?.(`compaction: ${model.provider}/${model.id} failed (${lastError.message}); trying the next model`);
    }
    throw lastError;
  }

  /** No handoff document: an automatic handoff compacts in place instead; a manual one fails. */
  private async fallBackFromHandoff(options: RunOptions, settings: CompactionSettings, signal: AbortSignal): Promise<CompactionOutcome> {
    if (options.strategy === 'handoff') return { status: 'failed', errorMessage: failureMessage(options.reason, 'no model produced a handoff document') };
    return this.runContextFull(options, settings, signal);
  }

  /** Handoff document, or undefined to fall back to context-full (no model, no document). */
  private async runHandoff(options: RunOptions, signal: AbortSignal): Promise<CompactionOutcome | undefined> {
    const { current } = this.deps.models();
    const provider = current ? await this.deps.providerFor(current) : undefined;
    if (!current || !provider) return undefined;
    const context = this.deps.liveContext?.() ?? {
      systemPrompt: compactionPrompt('system'),
      messages: convertToLlm(contextFromPath(this.deps.store.getBranch()).messages),
    };
    const document = await generateHandoff(context, {
      provider,
      model: current,
      signal,
      automatic: options.reason !== 'manual',
      ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
    });
    if (signal.aborted) throw new CompactionCancelled();
    if (!document) {
      this.deps.log?.('compaction: the handoff produced no document; compacting in place instead');
      return undefined;
    }
    return { status: 'handoff', document, customType: 'handoff', content: handoffMessageContent(document) };
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

/** Which strategy a run takes: a manual handoff, or the setting's handoff for automatic triggers, else in place. */
function strategyFor(options: RunOptions, settings: CompactionSettings): 'handoff' | 'context-full' {
  if (options.strategy === 'handoff') return 'handoff';
  const automatic = options.reason === 'threshold' || options.reason === 'idle' || options.reason === 'length';
  return options.keepFrom === undefined && settings.strategy === 'handoff' && automatic ? 'handoff' : 'context-full';
}

function chosenSkip(chosen: ChosenCutPreparation): { why: SkipReason; message: string } | undefined {
  if (chosen.ok) return undefined;
  return { why: chosen.why === 'nothing-to-compact' ? 'nothing-to-compact' : 'invalid-cut', message: chosen.message };
}

function chosenCut(chosen: Extract<ChosenCutPreparation, { ok: true }>, firstKeptEntryId: string): ChosenCut {
  return {
    requestedEntryId: chosen.requestedEntryId,
    firstKeptEntryId,
    snapped: chosen.snapped,
    ...(chosen.note ? { note: chosen.note } : {}),
  };
}
