// The figures a compaction marker shows, saved in the entry's `details` so a reload shows the same (issue
// 17): why it ran, the context tokens estimated right after it, the model that wrote the summary and what
// the summarizer calls cost. Another field (`usage`) may be added by the session layer; these stay here.
import type { ModelInfo } from '../llm/types';
import type { SummarizerCost } from './metered-provider';
import type { CompactionPreparation } from './prepare';
import type { CompactionResult } from './summarize';
import { contextTokensAfter } from './context-figures';
import { estimateTokens, type TokenEstimator } from './tokens';

export interface MarkerFacts {
  /** the trigger (`threshold`, `overflow`, `manual`, …) or `manual-cut` for a user-chosen cut */
  reason: string;
  preparation: CompactionPreparation;
  fixedOverheadTokens: number;
  estimator?: TokenEstimator;
  summarizer?: ModelInfo;
  cost?: SummarizerCost;
}

/** The result with the marker figures merged into its details (the file lists already there stay). */
export function withMarkerDetails(result: CompactionResult, facts: MarkerFacts): CompactionResult {
  const details = isRecord(result.details) ? result.details : {};
  return {
    ...result,
    details: {
      ...details,
      reason: facts.reason,
      tokensAfter: markerTokensAfter(result.summary, facts),
      ...(facts.summarizer ? { summarizer: { provider: facts.summarizer.provider, id: facts.summarizer.id } } : {}),
      ...(facts.cost ? { cost: { ...facts.cost } } : {}),
    },
  };
}

/** The summary plus the kept messages plus the system prompt and tools: the next request's context, as the preview and the meter count it. */
export function markerTokensAfter(summary: string, facts: Pick<MarkerFacts, 'preparation' | 'estimator' | 'fixedOverheadTokens'>): number {
  return contextTokensAfter({ text: summary }, facts.preparation.keptMessages, facts.estimator ?? estimateTokens, facts.fixedOverheadTokens);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
