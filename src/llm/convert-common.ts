// Provider-neutral clean-up before converting to a wire format. Failed or aborted assistant replies
// are not replayed (their partial tool calls would have no results), results of calls that are not
// replayed are dropped, and a call that never got a result gets a synthetic error result: every API
// rejects a tool call without a matching result.
import type { AssistantMessage, LlmMessage, ToolResultMessage } from '../core/messages';

function isReplayable(message: LlmMessage): boolean {
  return !(message.role === 'assistant' && (message.stopReason === 'error' || message.stopReason === 'aborted'));
}

function missingResult(id: string, name: string, timestamp: number): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: name,
    content: [{ type: 'text', text: 'No result provided (the tool call was interrupted).' }],
    isError: true,
    timestamp,
  };
}

export function prepareMessages(messages: readonly LlmMessage[]): LlmMessage[] {
  const kept = messages.filter(isReplayable);
  const out: LlmMessage[] = [];
  let pending: { id: string; name: string }[] = [];
  const known = new Set<string>();
  const flushPending = (timestamp: number) => {
    for (const call of pending) out.push(missingResult(call.id, call.name, timestamp));
    pending = [];
  };
  for (const message of kept) {
    if (message.role === 'toolResult') {
      if (!known.has(message.toolCallId)) continue;
      pending = pending.filter((c) => c.id !== message.toolCallId);
      out.push(message);
      continue;
    }
    flushPending(message.timestamp);
    if (message.role === 'assistant') {
      for (const block of (message as AssistantMessage).content) {
        if (block.type === 'toolCall') {
          known.add(block.id);
          pending.push({ id: block.id, name: block.name });
        }
      }
    }
    out.push(message);
  }
  flushPending(Date.now());
  return out;
}
