// What the user sees before a manual compaction: what will be summarized and kept, and the estimated
// context size before → after.
import { contextTokensAfter, estimatedTokensBefore, shrinks } from './context-figures';
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
  /** the size the summary is expected to have (its allowance) */
  summaryTokens: number;
  /** kept part + the summary message at its expected size + the system prompt and tools (./context-figures.ts) */
  estimatedTokensAfter: number;
  /** the context now in the same unit as `estimatedTokensAfter` (equals `tokensBefore` when no usage is reported) */
  estimatedTokensBefore: number;
  /** whether the compaction would leave the context smaller; a run refuses it otherwise ('would-not-shrink') */
  shrinks: boolean;
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
  const summaryTokens = summaryAllowance(preparation, summarizedTokens);
  const after = contextTokensAfter({ expectedTokens: summaryTokens }, preparation.keptMessages, estimator, fixedOverheadTokens);
  const before = estimatedTokensBefore(preparation, estimator, fixedOverheadTokens);
  return {
    preparation,
    summarizeCount: preparation.messagesToSummarize.length,
    turnPrefixCount: preparation.turnPrefixMessages.length,
    keptCount: preparation.keptMessages.length,
    hasPreviousSummary: preparation.previousSummary !== undefined,
    summarizedTokens,
    tokensBefore: preparation.tokensBefore,
    summaryTokens,
    estimatedTokensAfter: after,
    estimatedTokensBefore: before,
    shrinks: shrinks(before, after),
  };
}
