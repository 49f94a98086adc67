// The summary itself: tried over the model candidates (the configured summarizer, the current model,
// the others), retrying transient errors with backoff, all calls metered so the marker shows the real
// cost. Used by the in-place strategy in the foreground and by background compaction ahead of time.
import type { Usage } from '../../core/messages';
import type { ModelInfo } from '../../llm/types';
import { modelCandidates } from '../candidates';
import { CompactionCancelled, SummarizationFailed } from '../errors';
import { MeteredProvider, newMeter, type SummarizerCost } from '../metered-provider';
import type { CompactionPreparation } from '../prepare';
import { compact, type CompactionResult, type ConversationPrefix } from '../summarize';
import type { StrategyRun } from './types';

export interface Summarized {
  result: CompactionResult;
  model: ModelInfo;
  cost: SummarizerCost;
  usage: Usage | undefined;
}

type SummaryRun = Pick<StrategyRun, 'deps' | 'retry' | 'options' | 'settings' | 'signal'>;

export async function summarizeWithCandidates(
  run: SummaryRun,
  preparation: CompactionPreparation,
  custom: { prompt?: string; context?: string[] },
): Promise<Summarized> {
  const { current, available } = run.deps.models();
  const meter = newMeter();
  const candidates = modelCandidates(run.settings.summarizerModel, current, available);
  let lastError: Error = new Error('no model with credentials is available to write the summary');
  for (let c = 0; c < candidates.length; c++) {
    const model = candidates[c]!;
    const unmetered = await run.deps.providerFor(model);
    if (!unmetered) continue;
    const provider = new MeteredProvider(unmetered, meter);
    const hasNext = c < candidates.length - 1;
    for (let attempt = 0; ; attempt++) {
      if (run.signal.aborted) throw new CompactionCancelled();
      try {
        const prefix = continuationPrefix(run, model, preparation);
        const result = await compact(preparation, { provider, model, ...summarizeOptions(run, custom), ...(prefix ? { prefix } : {}) });
        return { result, model, cost: meter.cost, usage: meter.usage };
      } catch (error) {
        if (error instanceof CompactionCancelled) throw error;
        lastError = error as Error;
        const delay = run.retry.baseDelayMs * 2 ** attempt;
        if (!retryable(error, attempt, delay, hasNext, run)) break;
        run.deps.log?.(`compaction: ${model.provider}/${model.id} failed (${lastError.message}); retrying in ${delay} ms`);
        await run.retry.sleep(delay, run.signal);
      }
    }
    if (hasNext) run.deps.log?.(`compaction: ${model.provider}/${model.id} failed (${lastError.message}); trying the next model`);
  }
  throw lastError;
}

/**
 * The agent's live request, when the summary is written by the agent's own model on a provider that
 * caches prompts (cache reads cheaper than input, from the model table): its prefix is then read from the
 * cache instead of billed again (docs/architecture.md, "Compaction cost"). Not when the span holds a
 * previous bridge's originals: the live context has them only shortened, the transcript has them whole
 * ("Background compaction").
 */
function continuationPrefix(run: SummaryRun, model: ModelInfo, preparation: CompactionPreparation): ConversationPrefix | undefined {
  if (preparation.bridgedMessages > 0) return undefined;
  const current = run.deps.models().current;
  if (!run.deps.liveContext || !current || current.provider !== model.provider || current.id !== model.id) return undefined;
  if (!cachesPrompts(model)) return undefined;
  const live = run.deps.liveContext();
  // no turn yet in this window (no system prompt sent): nothing is cached to continue
  return live.systemPrompt ? live : undefined;
}

export function cachesPrompts(model: ModelInfo): boolean {
  return model.pricing.cacheRead > 0 && model.pricing.cacheRead < model.pricing.input;
}

/** A transient failure is retried on the same model unless retries ran out or the next model is quicker. */
function retryable(error: unknown, attempt: number, delay: number, hasNext: boolean, run: SummaryRun): boolean {
  const transient = error instanceof SummarizationFailed && error.transient;
  return transient && attempt < run.retry.maxRetries && !(hasNext && delay > run.retry.switchCandidateAfterMs);
}

function summarizeOptions(run: SummaryRun, custom: { prompt?: string; context?: string[] }) {
  const thinkingLevel = run.deps.thinkingLevel?.();
  const { settings, options, deps } = run;
  return {
    signal: run.signal,
    ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
    ...(custom.context ? { additionalContext: custom.context } : {}),
    ...(custom.prompt ? { promptOverride: custom.prompt } : {}),
    ...(thinkingLevel ? { thinkingLevel } : {}),
    ...(settings.remoteEnabled && settings.remoteEndpoint
      ? { remote: { endpoint: settings.remoteEndpoint, ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}) } }
      : {}),
    ...(deps.log ? { log: deps.log } : {}),
  };
}
