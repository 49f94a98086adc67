// When the agent runtime starts a compaction by itself (docs/pi-compatibility.md
// "When compaction runs"). Pure decisions over the live context messages; the
// session runs them. Work is proportional to the messages since the newest usage, never the session.
import type { AgentMessage, AssistantMessage } from '../core/messages';
import { calculateContextTokens, estimatedContextTokens, hasValidUsage, promptTokens } from '../compaction';
import { isContextOverflow } from '../llm/overflow';
import type { ModelInfo } from '../llm/types';

/**
 * Time of the latest compaction in a context built by the session store (its summary is always the
 * first message), or undefined when the context has none.
 */
export function latestCompactionTime(messages: readonly AgentMessage[]): number | undefined {
  const first = messages[0];
  return first?.role === 'compactionSummary' ? first.timestamp : undefined;
}

/** pi: a message not newer than the latest compaction describes the old, larger context. */
export function isOlderThanCompaction(message: AgentMessage, messages: readonly AgentMessage[]): boolean {
  const compactedAt = latestCompactionTime(messages);
  return compactedAt !== undefined && message.timestamp <= compactedAt;
}

/** Newest assistant reply whose usage is trustworthy and newer than the latest compaction. */
export function newestLiveUsage(messages: readonly AgentMessage[]): { message: AssistantMessage; index: number } | undefined {
  const compactedAt = latestCompactionTime(messages);
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (compactedAt !== undefined && message.timestamp <= compactedAt) return undefined;
    if (hasValidUsage(message)) return { message, index: i };
  }
  return undefined;
}

/** Newest assistant message of the context (any stop reason). */
export function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'assistant') return message;
  }
  return undefined;
}

export function isSameModel(message: AssistantMessage, model: ModelInfo): boolean {
  return message.provider === model.provider && message.model === model.id;
}

export type Recovery = 'overflow' | 'length';

/**
 * Which recovery a just-finished reply needs: an overflow error (or a `length` stop with no output and a
 * full window, the server truncating instead of generating), or an incomplete (`length`) reply. A
 * "successful" reply whose input exceeded the window is left to the threshold rule: it is a real answer.
 */
export function recoveryFor(message: AssistantMessage, model: ModelInfo): Recovery | undefined {
  if (!isSameModel(message, model)) return undefined;
  if (message.stopReason !== 'stop' && isContextOverflow(message, model.contextWindow)) return 'overflow';
  if (message.stopReason === 'length') return 'length';
  return undefined;
}

/** Context tokens a reply reports (prompt + output), the figure compared with the threshold. */
export function replyContextTokens(message: AssistantMessage): number {
  return calculateContextTokens(message.usage);
}

/** Prompt tokens of the newest live reply: what idle compaction compares with idleThresholdTokens. */
export function livePromptTokens(messages: readonly AgentMessage[]): number | undefined {
  const live = newestLiveUsage(messages);
  return live ? promptTokens(live.message.usage) : undefined;
}

/**
 * The context the meter shows: the newest live reply's usage plus estimates of what came after it, or
 * (`contextTokens` null) every message estimated plus the system prompt and tools, as a compaction marker
 * and the compaction preview count them, so the three agree (docs/architecture.md, compaction markers).
 */
export function contextTokensOf(
  messages: readonly AgentMessage[],
  estimate: (message: AgentMessage) => number,
  fixedOverheadTokens: () => number,
): { contextTokens: number | null; estimatedTokens: number } {
  const live = newestLiveUsage(messages);
  if (live) {
    let contextTokens = replyContextTokens(live.message);
    for (let i = live.index + 1; i < messages.length; i++) contextTokens += estimate(messages[i]!);
    return { contextTokens, estimatedTokens: contextTokens };
  }
  return { contextTokens: null, estimatedTokens: estimatedContextTokens(messages, estimate, fixedOverheadTokens()) };
}
