// One reply from a provider: its stream turned into the agent's message events, and always a reply at the
// end (a provider that throws, or ends without one, gives a failed reply to persist). Apart from
// agent-session.ts so the loop there reads as turns, not as stream plumbing.
import type { AssistantMessage } from '../core/messages';
import type { ModelInfo, Provider, StreamRequest, ThinkingLevel } from '../llm/types';
import type { AgentEvent } from './events';

const THINKING_LEVELS: readonly ThinkingLevel[] = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/** Streams `request`, emitting each delta and retry as an agent event; resolves with the final reply. */
export async function streamToReply(
  provider: Provider,
  request: StreamRequest,
  emit: (event: AgentEvent) => void,
  now: () => number,
): Promise<AssistantMessage> {
  const model = request.model;
  emit({ type: 'message_start', role: 'assistant' });
  let final: AssistantMessage | undefined;
  try {
    for await (const event of provider.stream(request)) {
      switch (event.type) {
        case 'text_delta':
          emit({ type: 'message_delta', kind: 'text', contentIndex: event.contentIndex, delta: event.delta });
          break;
        case 'thinking_delta':
          emit({ type: 'message_delta', kind: 'thinking', contentIndex: event.contentIndex, delta: event.delta });
          break;
        case 'toolcall_start':
          emit({ type: 'message_delta', kind: 'toolcall_start', contentIndex: event.contentIndex, id: event.id, name: event.name });
          break;
        case 'toolcall_delta':
          emit({ type: 'message_delta', kind: 'toolcall', contentIndex: event.contentIndex, delta: event.delta });
          break;
        case 'toolcall_end':
          emit({ type: 'message_delta', kind: 'toolcall_end', contentIndex: event.contentIndex, toolCall: event.toolCall });
          break;
        case 'retry':
          emit({ type: 'retry', attempt: event.attempt, maxAttempts: event.maxAttempts, delayMs: event.delayMs, errorMessage: event.errorMessage });
          break;
        case 'done':
          final = event.message;
          break;
      }
    }
  } catch (error) {
    // Providers promise not to throw; if one does anyway, the turn still ends with a persisted reply.
    final = failedReply(model, request.signal?.aborted ? 'aborted' : 'error', (error as Error)?.message ?? String(error), now());
  }
  final ??= failedReply(model, request.signal?.aborted ? 'aborted' : 'error', 'The provider stream ended without a reply.', now());
  return final;
}

/** The request's thinking level, when the session's level is one the providers know. */
export function thinkingOf(level: string): { thinkingLevel?: ThinkingLevel } {
  return THINKING_LEVELS.includes(level as ThinkingLevel) ? { thinkingLevel: level as ThinkingLevel } : {};
}

function failedReply(model: ModelInfo, stopReason: 'error' | 'aborted', errorMessage: string, now: number): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason,
    errorMessage,
    timestamp: now,
  };
}
