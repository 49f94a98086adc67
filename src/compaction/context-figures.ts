// One computation for the context figures a user compares (issue 25, docs/architecture.md "Compaction
// markers"): the preview's "before → after", the marker's, and the status-bar meter's. A context without
// trustworthy usage is its messages' estimates plus the system prompt and tools; after a compaction the
// messages are the summary message and the kept part. The preview counts an expected summary size where
// the marker counts the summary written; both go through `contextTokensAfter`, the meter through
// `estimatedContextTokens`, which it is made of. A compaction is worth saving only if it `shrinks` the
// context, judged in one unit: the estimate of the context now against the estimate after (a provider's
// count of "now" would compare its tokenizer, and its count of the tools, with chars/4).
import type { AgentMessage, CompactionSummaryMessage } from '../core/messages';
import type { CompactionPreparation } from './prepare';
import type { TokenEstimator } from './tokens';

/** Every message estimated, plus the system prompt and tools. */
export function estimatedContextTokens(messages: readonly AgentMessage[], estimator: TokenEstimator, fixedOverheadTokens: number): number {
  let total = fixedOverheadTokens;
  for (const message of messages) total += estimator(message);
  return total;
}

/** The message a compaction's summary becomes in the next context (its timestamp does not count). */
function summaryMessage(summary: string): CompactionSummaryMessage {
  return { role: 'compactionSummary', summary, tokensBefore: 0, timestamp: 0 };
}

/** A summary as written, or the size a summary is expected to have (the preview's allowance). */
export type SummarySize = { text: string } | { expectedTokens: number };

/** The context of the next request after a compaction: the summary message, the kept part, the overhead. */
export function contextTokensAfter(
  summary: SummarySize,
  kept: readonly AgentMessage[],
  estimator: TokenEstimator,
  fixedOverheadTokens: number,
): number {
  if ('text' in summary) return estimatedContextTokens([summaryMessage(summary.text), ...kept], estimator, fixedOverheadTokens);
  return estimatedContextTokens([summaryMessage(''), ...kept], estimator, fixedOverheadTokens) + summary.expectedTokens;
}

/**
 * The context now, estimated as `contextTokensAfter` estimates the context after: the previous summary, what
 * gets summarized, the kept part. A previous bridge's originals are summarized but not in the context (the
 * previous summary holds them shortened): not counted.
 */
export function estimatedTokensBefore(preparation: CompactionPreparation, estimator: TokenEstimator, fixedOverheadTokens: number): number {
  const previous = preparation.previousSummary !== undefined ? [summaryMessage(preparation.previousSummary)] : [];
  const inContext = preparation.messagesToSummarize.slice(preparation.bridgedMessages ?? 0);
  const messages = [...previous, ...inContext, ...preparation.turnPrefixMessages, ...preparation.keptMessages];
  return estimatedContextTokens(messages, estimator, fixedOverheadTokens);
}

/** Whether a compaction leaves the context smaller than it found it (anything else is refused). */
export function shrinks(tokensBefore: number, tokensAfter: number): boolean {
  return tokensAfter < tokensBefore;
}
