// What the user sees before a manual compaction: what will be summarized and kept, and the estimated
// context size before → after.
import { stripFileOperations } from './file-ops';
import type { CompactionPreparation } from './prepare';
import { estimateTokens, sumTokens, type TokenEstimator } from './tokens';

export interface CompactionPreview {
  preparation: CompactionPreparation;
  summarizeCount: number;
  turnPrefixCount: number;
  keptCount: number;
  hasPreviousSummary: boolean;
  /** estimated tokens of what gets summarized (what the summarizer reads) */
  summarizedTokens: number;
  tokensBefore: number;
  /** kept part + an allowance for the summary itself + the system prompt and tools */
  estimatedTokensAfter: number;
}

/** Rough size of the summary to come: grows with what it covers, bounded by its output budget. */
function summaryAllowance(preparation: CompactionPreparation, summarizedTokens: number): number {
  const budget = Math.floor(0.8 * preparation.settings.reserveTokens);
  const previous = preparation.previousSummary ? Math.ceil(stripFileOperations(preparation.previousSummary).length / 4) : 0;
  return Math.min(budget, Math.max(previous, 400 + Math.ceil(summarizedTokens * 0.05)));
}

/**
 * `fixedOverheadTokens` (system prompt + tools) is counted after as it is before, so the preview's figures
 * measure what the marker and the meter measure (docs/architecture.md, compaction markers).
 */
export function buildPreview(preparation: CompactionPreparation, estimator: TokenEstimator = estimateTokens, fixedOverheadTokens = 0): CompactionPreview {
  const summarized = [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages];
  const summarizedTokens = sumTokens(summarized, 0, summarized.length, estimator);
  const keptTokens = sumTokens(preparation.keptMessages, 0, preparation.keptMessages.length, estimator);
  const after = keptTokens + summaryAllowance(preparation, summarizedTokens) + fixedOverheadTokens;
  return {
    preparation,
    summarizeCount: preparation.messagesToSummarize.length,
    turnPrefixCount: preparation.turnPrefixMessages.length,
    keptCount: preparation.keptMessages.length,
    hasPreviousSummary: preparation.previousSummary !== undefined,
    summarizedTokens,
    tokensBefore: preparation.tokensBefore,
    estimatedTokensAfter: Math.min(after, preparation.tokensBefore),
  };
}
