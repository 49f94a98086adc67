// One call to a summarizer model, shared by compaction and branch summaries: the summarizer system
// prompt, the caller's abort signal, and every way the call can end reduced to three outcomes that each
// caller maps onto its own errors.
import type { AssistantMessage, LlmMessage } from '../core/messages';
import { complete, type ModelInfo, type Provider, type ThinkingLevel, type ToolDefinition } from '../llm/types';
import { compactionPrompt } from './prompt-text';

export interface SummarizerCall {
  provider: Provider;
  model: ModelInfo;
  messages: LlmMessage[];
  maxTokens: number;
  thinkingLevel?: ThinkingLevel;
  signal?: AbortSignal;
  /**
   * The agent's own system prompt and tools, for a summary asked as the continuation of the agent's
   * conversation (its cached prefix is read, not billed again). Absent: the summarizer system prompt,
   * no tools, and no prompt cache (a one-off request).
   */
  continuation?: { systemPrompt: string; tools?: ToolDefinition[] };
  /** the caller retries failures itself: the provider must not retry them again (StreamRequest.callerRetries) */
  callerRetries?: boolean;
}

export type SummarizerOutcome =
  | { kind: 'ok'; reply: AssistantMessage; text: string }
  | { kind: 'cancelled' }
  /** `errorKind`: the provider's classification of the failure (overflow.ts), when it made one */
  | { kind: 'failed'; message: string; errorKind?: string; offTask?: true };

/** The reply's text blocks, joined; thinking and tool calls are not part of a summary. */
export function answerText(message: AssistantMessage): string {
  return message.content
    .filter((b): b is Extract<typeof b, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
}

export async function callSummarizerModel(call: SummarizerCall): Promise<SummarizerOutcome> {
  if (call.signal?.aborted) return { kind: 'cancelled' };
  // Reasoning is only requested from models that support it, and never at "off".
  const thinkingLevel = call.model.reasoning && call.thinkingLevel && call.thinkingLevel !== 'off' ? call.thinkingLevel : undefined;
  let reply: AssistantMessage;
  try {
    reply = await complete(call.provider, {
      model: call.model,
      systemPrompt: call.continuation?.systemPrompt ?? compactionPrompt('system'),
      messages: call.messages,
      maxTokens: call.maxTokens,
      ...(call.continuation?.tools ? { tools: call.continuation.tools } : {}),
      ...(call.continuation ? {} : { promptCache: 'none' as const }),
      ...(thinkingLevel ? { thinkingLevel } : {}),
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.callerRetries ? { callerRetries: true } : {}),
    });
  } catch (error) {
    if (call.signal?.aborted) return { kind: 'cancelled' };
    return { kind: 'failed', message: (error as Error)?.message ?? String(error) };
  }
  if (reply.stopReason === 'aborted' || call.signal?.aborted) return { kind: 'cancelled' };
  if (reply.stopReason === 'error') return { kind: 'failed', message: reply.errorMessage ?? 'unknown error', ...(typeof reply.errorKind === 'string' ? { errorKind: reply.errorKind } : {}) };
  const text = answerText(reply);
  if (reply.content.some((b) => b.type === 'toolCall')) return { kind: 'failed', message: 'the summarizer called a tool', offTask: true };
  if (text === '') return { kind: 'failed', message: 'the model returned no text', offTask: true };
  return { kind: 'ok', reply, text };
}
