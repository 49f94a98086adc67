// Token accounting for compaction decisions. The default estimator is pi's chars/4 rule so that cut
// points land where pi would put them; a real tokenizer can be injected (src/llm/tokens.ts) where
// precision matters more than pi compatibility.
import type { AgentMessage, AssistantMessage, Usage } from '../core/messages';

/** Estimates the tokens one message costs in the context. Must be pure and cheap. */
export type TokenEstimator = (message: AgentMessage) => number;

/** pi counts an image as 4800 characters (about 1200 tokens) except inside user messages. */
const IMAGE_CHARS = 4800;

function blockChars(content: string | readonly { type: string; text?: unknown }[], countImages: boolean): number {
  if (typeof content === 'string') return content.length;
  let chars = 0;
  for (const block of content) {
    if (block.type === 'text' && typeof block.text === 'string') chars += block.text.length;
    else if (block.type === 'image' && countImages) chars += IMAGE_CHARS;
  }
  return chars;
}

function assistantChars(message: AssistantMessage): number {
  let chars = 0;
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else if (block.type === 'toolCall') chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
  }
  return chars;
}

/** Characters pi attributes to a message, per role (reference §3.2). */
export function messageChars(message: AgentMessage): number {
  switch (message.role) {
    case 'user':
      return blockChars(message.content, false);
    case 'assistant':
      return assistantChars(message);
    case 'custom':
    case 'toolResult':
      return blockChars(message.content, true);
    case 'bashExecution':
      return message.command.length + (message.output?.length ?? 0);
    case 'branchSummary':
    case 'compactionSummary':
      return message.summary.length;
    default:
      return 0;
  }
}

/** pi's estimate: ceil(chars / 4). */
export const estimateTokens: TokenEstimator = (message) => Math.ceil(messageChars(message) / 4);

/** Tokens a provider reported for a whole request + response. */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Tokens of the prompt side only (what the context occupied when the request was sent). */
export function promptTokens(usage: Usage): number {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return prompt > 0 ? prompt : calculateContextTokens(usage);
}

/** An assistant reply whose usage can be trusted: not aborted, not an error, and non-zero. */
export function hasValidUsage(message: AgentMessage): message is AssistantMessage {
  return (
    message.role === 'assistant' &&
    message.stopReason !== 'aborted' &&
    message.stopReason !== 'error' &&
    message.usage !== undefined &&
    calculateContextTokens(message.usage) > 0
  );
}

/** Index of the newest assistant message with valid usage, or -1. */
export function lastUsageIndex(messages: readonly AgentMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (hasValidUsage(messages[i]!)) return i;
  return -1;
}

export interface ContextTokenEstimate {
  /** best estimate of what the context costs now */
  tokens: number;
  /** provider-reported tokens of the newest valid assistant reply (0 without one) */
  usageTokens: number;
  /** estimated tokens of the messages after that reply (all messages without one) */
  trailingTokens: number;
  /** index of that reply in `messages`, or null when no usage is known */
  lastUsageIndex: number | null;
}

/** Reported usage of the newest reply plus estimates for what came after it (reference §3.2). */
export function estimateContextTokens(
  messages: readonly AgentMessage[],
  estimator: TokenEstimator = estimateTokens,
): ContextTokenEstimate {
  const index = lastUsageIndex(messages);
  if (index === -1) {
    const tokens = sumTokens(messages, 0, messages.length, estimator);
    return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens((messages[index] as AssistantMessage).usage);
  const trailingTokens = sumTokens(messages, index + 1, messages.length, estimator);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: index };
}

export function sumTokens(
  messages: readonly AgentMessage[],
  from: number,
  to: number,
  estimator: TokenEstimator = estimateTokens,
): number {
  let total = 0;
  for (let i = from; i < to; i++) total += estimator(messages[i]!);
  return total;
}
