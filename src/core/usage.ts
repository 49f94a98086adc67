// Context-size accounting shared by the providers' token counter, the compaction engine and the
// agent runtime: provider-reported usage is the truth, estimates only fill in what came after it.
import type { AgentMessage, AssistantMessage, Usage } from './messages';

/** Estimates the tokens one message costs in the context. Must be pure and cheap. */
export type TokenEstimator = (message: AgentMessage) => number;

/** Tokens a provider reported for a whole request + response (pi: totalTokens, else the parts). */
/** `a + b`, field by field (the summed usage of several calls). */
export function addUsage(a: Usage | undefined, b: Usage): Usage {
  const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
  if (!a) return { ...b, cost: { ...b.cost } };
  return {
    input: n(a.input) + n(b.input),
    output: n(a.output) + n(b.output),
    cacheRead: n(a.cacheRead) + n(b.cacheRead),
    cacheWrite: n(a.cacheWrite) + n(b.cacheWrite),
    totalTokens: n(a.totalTokens) + n(b.totalTokens),
    cost: {
      input: n(a.cost?.input) + n(b.cost?.input),
      output: n(a.cost?.output) + n(b.cost?.output),
      cacheRead: n(a.cost?.cacheRead) + n(b.cost?.cacheRead),
      cacheWrite: n(a.cost?.cacheWrite) + n(b.cost?.cacheWrite),
      total: n(a.cost?.total) + n(b.cost?.total),
    },
  };
}

export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
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

export function sumTokens(messages: readonly AgentMessage[], from: number, to: number, estimator: TokenEstimator): number {
  let total = 0;
  for (let i = from; i < to; i++) total += estimator(messages[i]!);
  return total;
}

/**
 * Reported usage of the newest valid reply plus estimates for what came after it (docs/pi-compatibility.md "Token accounting").
 * Work is proportional to the messages after that reply, so a per-turn check stays cheap.
 */
export function estimateContextTokens(messages: readonly AgentMessage[], estimator: TokenEstimator): ContextTokenEstimate {
  const index = lastUsageIndex(messages);
  if (index === -1) {
    const tokens = sumTokens(messages, 0, messages.length, estimator);
    return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens((messages[index] as AssistantMessage).usage);
  const trailingTokens = sumTokens(messages, index + 1, messages.length, estimator);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: index };
}
