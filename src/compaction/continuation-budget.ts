// Which shape a summary request takes (docs/architecture.md, "Compaction cost"): asked as the continuation of
// the agent's cached conversation (the output budget the window leaves for it, and whether the model's cache
// prices make it cheaper than the transcript of the span), and in the transcript form whether a split turn
// goes in the history request. Pure arithmetic over the preparation and the model's prices.
import type { ModelInfo } from '../llm/types';
import { convertToLlm } from '../session/convert';
import type { CompactionPreparation } from './prepare';
import { serializeConversation } from './serialize';

/**
 * The output budget of a continuation: the history budget, or what the window has left after the context
 * when that is less (a context past the threshold leaves less than the reserve, and a checkpoint needs far
 * less than the reserve); undefined when not even MIN_CONTINUATION_OUTPUT is left.
 */
export function continuationOutput(budget: number, room: number): number | undefined {
  const tokens = Math.min(budget, Math.floor(room));
  return tokens >= Math.min(budget, MIN_CONTINUATION_OUTPUT) ? tokens : undefined;
}

/** A checkpoint of the summarizer's part (the user's words are Arbor's, not generated) fits in this. */
const MIN_CONTINUATION_OUTPUT = 4096;

/**
 * Whether reading the whole context from the cache costs less than sending the transcript of the span:
 * context × (cache read price / input price) against the transcript's tokens (chars / 4), with a margin
 * for a cache that expired or hits only in part. Anthropic and GPT-5-class caches (0.1×) pass, a 0.5×
 * cache (GPT-4o class) does not: reading 110k cached tokens costs more than 25k fresh ones.
 */
export function continuationIsCheaper(preparation: CompactionPreparation, model: ModelInfo, contextTokens: number): boolean {
  const { input, cacheRead } = model.pricing;
  if (!(input > 0) || !(cacheRead >= 0)) return false;
  const transcript = [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages];
  const transcriptTokens = serializeConversation(convertToLlm(transcript)).length / 4 + (preparation.previousSummary?.length ?? 0) / 4;
  return contextTokens * (cacheRead / input) < CONTINUATION_MARGIN * transcriptTokens;
}

/** The continuation must cost less than this share of the transcript form to be chosen. */
const CONTINUATION_MARGIN = 0.6;

/**
 * A split turn with history before it is summarized in the history request (one request, with a note that the
 * rest of the turn is kept) instead of a second request of its own: the summarizer sees the turn with its
 * history, and the session pays one prompt and one answer less (docs/architecture.md, "Compaction cost").
 * Without history before it, the previous summary is kept as it is and only the turn prefix is asked.
 */
export function mergesSplitTurn(preparation: Pick<CompactionPreparation, 'isSplitTurn' | 'messagesToSummarize' | 'turnPrefixMessages'>): boolean {
  return preparation.isSplitTurn && preparation.messagesToSummarize.length > 0 && preparation.turnPrefixMessages.length > 0;
}
