// Token estimation. Provider-reported usage is the truth; this only estimates what came after the
// last reported usage. The BPE tokenizer (cl100k, ~1 MB of tables) is loaded lazily on first need;
// until it is loaded the estimate is chars/4, synchronously. Estimates are cached per message object
// (messages are treated as immutable: whoever changes one makes a copy), so a threshold check costs
// only the messages it has not seen before, never a re-count of the whole session.
import type { AgentMessage, AssistantMessage, Usage } from '../core/messages';
import { estimateContextTokens, type ContextTokenEstimate } from '../core/usage';
import { providerById, providerForApi } from './providers';
import type { ProviderApi } from './types';

type Counter = (text: string) => number;

let counter: Counter | undefined;
let loading: Promise<void> | undefined;

/**
 * What one image counts for in estimates (the meter, thresholds): 1200 tokens, whatever its size. The
 * providers bill images by their pixels (Anthropic about width*height/750, capped near 1600 for an image
 * they downscale; OpenAI tiles), which only the usage they report tells; 1200 is pi's figure (4800 chars/4).
 */
export const IMAGE_TOKENS = 1200;

/** Loads cl100k in the background; safe to call many times. Never rejects. */
export function loadTokenizer(): Promise<void> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base')
    .then((mod) => {
      // Special tokens such as "<|endoftext|>" count as ordinary text instead of throwing.
      const options = { disallowedSpecial: new Set<string>() };
      counter = (text) => mod.countTokens(text, options);
    })
    .catch(() => {
      /* stays on the chars/4 fallback */
    });
  return loading;
}

export function isTokenizerLoaded(): boolean {
  return counter !== undefined;
}

/** Tokens in a text: cl100k when loaded, else ceil(chars/4). Never throws. */
export function countTextTokens(text: string): number {
  if (!text) return 0;
  if (counter) {
    try {
      return counter(text);
    } catch {
      /* fall through to the heuristic */
    }
  }
  return Math.ceil(text.length / 4);
}

function blocksTokens(content: string | readonly { type: string; text?: unknown }[]): number {
  if (typeof content === 'string') return countTextTokens(content);
  let total = 0;
  for (const block of content) {
    if (block.type === 'text' && typeof block.text === 'string') total += countTextTokens(block.text);
    else if (block.type === 'image') total += IMAGE_TOKENS;
  }
  return total;
}

function assistantTokens(message: AssistantMessage): number {
  let total = 0;
  for (const block of message.content) {
    if (block.type === 'text') total += countTextTokens(block.text);
    else if (block.type === 'thinking') total += countTextTokens(block.thinking);
    else if (block.type === 'toolCall') total += countTextTokens(block.name + JSON.stringify(block.arguments ?? {}));
  }
  return total;
}

function computeTokens(message: AgentMessage): number {
  switch (message.role) {
    case 'user':
    case 'custom':
    case 'toolResult':
      return blocksTokens(message.content);
    case 'assistant':
      return assistantTokens(message);
    case 'bashExecution':
      return countTextTokens(message.command) + countTextTokens(message.output);
    case 'branchSummary':
    case 'compactionSummary':
      return countTextTokens(message.summary);
    default:
      return 0;
  }
}

const cache = new WeakMap<object, { tokens: number; exact: boolean }>();

/** Estimated tokens of one message, cached per message object (re-counted once when cl100k arrives). */
export function estimateMessageTokens(message: AgentMessage): number {
  const exact = counter !== undefined;
  const hit = cache.get(message);
  if (hit && (hit.exact || !exact)) return hit.tokens;
  const tokens = computeTokens(message);
  cache.set(message, { tokens, exact });
  return tokens;
}

export { calculateContextTokens } from '../core/usage';
export type { ContextTokenEstimate as ContextTokens } from '../core/usage';

/**
 * What the model currently sees: usage of the newest valid assistant reply plus tokenizer estimates
 * for the messages after it. Work is proportional to the messages after that reply (cached per message).
 */
export function contextTokens(messages: readonly AgentMessage[]): ContextTokenEstimate {
  return estimateContextTokens(messages, estimateMessageTokens);
}

/** Estimates that stand in for a Claude count (trailing messages, zero-usage fallbacks) get this margin. */
export { CLAUDE_ESTIMATE_MARGIN } from './providers/anthropic';

/** An estimate scaled by the margin of the model's provider (or of the provider owning its API). */
export function applyModelMargin(tokens: number, model: { api: string; provider: string }): number {
  const margin = providerById(model.provider)?.estimateMargin ?? providerForApi(model.api as ProviderApi)?.estimateMargin ?? 1;
  return margin === 1 ? tokens : Math.ceil(tokens * margin);
}
