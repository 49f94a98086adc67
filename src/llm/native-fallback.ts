// A context that starts with a provider's own compacted items (src/core/native-compaction.ts) can be
// refused: the items expired, a signature does not verify, the account or model does not take them.
// Such a request, rejected as invalid before anything streamed, is sent once more with the local
// summary in their place, so a native compaction can never leave a conversation stuck.
import type { LlmMessage } from '../core/messages';
import { NATIVE_COMPACTION_FIELD } from '../core/native-compaction';
import type { StreamEvent, StreamRequest } from './types';

export function hasNativeContext(messages: readonly LlmMessage[]): boolean {
  return messages.some((m) => Array.isArray((m as Record<string, unknown>)[NATIVE_COMPACTION_FIELD]));
}

/** The same request with every native payload removed (the summary text stays). */
export function withoutNativeContext(request: StreamRequest): StreamRequest {
  const messages = request.messages.map((m) => {
    if (!Array.isArray((m as Record<string, unknown>)[NATIVE_COMPACTION_FIELD])) return m;
    const { [NATIVE_COMPACTION_FIELD]: _dropped, ...rest } = m as Record<string, unknown>;
    return rest as unknown as LlmMessage;
  });
  return { ...request, messages };
}

function refusedBeforeOutput(event: StreamEvent): boolean {
  if (event.type !== 'done') return false;
  const m = event.message;
  return m.stopReason === 'error' && m.errorKind === 'invalid_request' && m.content.length === 0;
}

export async function* withNativeFallback(request: StreamRequest, run: (request: StreamRequest) => AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  if (!hasNativeContext(request.messages)) return yield* run(request);
  for await (const event of run(request)) {
    if (refusedBeforeOutput(event)) return yield* run(withoutNativeContext(request));
    yield event;
  }
}
