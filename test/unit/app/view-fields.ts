// Test helpers: the pairing fields of a conversation view whatever its kind (a reply's tool calls, the
// call entry a result answers), so a test can scan a mixed list without narrowing each view.
import type { ConversationEntry, ToolCallView } from '../../../src/app/view-model';

export function toolCallsOf(view: ConversationEntry): ToolCallView[] {
  return view.kind === 'assistant' ? view.toolCalls : [];
}

export function callEntryIdOf(view: ConversationEntry): string | undefined {
  return view.kind === 'toolResult' ? view.callEntryId : undefined;
}
