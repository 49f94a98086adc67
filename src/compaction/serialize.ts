// Turns messages into plain text for the summarizer (docs/pi-compatibility.md "What a compaction summarizes"). Serializing (instead of sending
// the conversation as chat turns) keeps the summarizer from continuing the conversation, and lets tool
// output and tool-call arguments be cut to a bounded size. A tool result identical to the previous result of
// the same call (same tool, same arguments, same output) is sent as a reference to it, since its text is
// already in the transcript (docs/architecture.md, "Compaction cost").
import { systemMessageText, type AssistantMessage, type LlmMessage, type ToolResultMessage, type UserMessage } from '../core/messages';

export const TOOL_RESULT_MAX_CHARS = 2000;

export function truncateToolOutput(text: string, maxChars = TOOL_RESULT_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/** The text blocks, then an "[image]" mark per image (the summarizer reads text only, but should know). */
function textOf(content: UserMessage['content'] | ToolResultMessage['content']): string {
  if (typeof content === 'string') return content;
  const text = content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const images = content.filter((b) => b.type === 'image').map(() => '[image]');
  return images.length === 0 ? text : `${text}${text ? '\n' : ''}${images.join(' ')}`;
}

/**
 * One argument as `key=value`, its value cut like tool output: a write's whole file or an edit's text is on
 * disk and in the tool result; the summary needs what changed, not every character of it.
 */
export function formatArgument(key: string, value: unknown, maxChars = TOOL_RESULT_MAX_CHARS): string {
  if (typeof value === 'string' && value.length > maxChars) {
    return `${key}=${JSON.stringify(value.slice(0, maxChars))}[... ${value.length - maxChars} more characters truncated]`;
  }
  const json = JSON.stringify(value) ?? 'undefined';
  if (json.length <= maxChars) return `${key}=${json}`;
  return `${key}=${json.slice(0, maxChars)}[... ${json.length - maxChars} more characters truncated]`;
}

/** A call as the transcript shows it: `name(key=value, ...)`. */
function callText(name: string, args: Record<string, unknown> | undefined, maxChars: number): string {
  return `${name}(${Object.entries(args ?? {}).map(([k, v]) => formatArgument(k, v, maxChars)).join(', ')})`;
}

function serializeAssistant(message: AssistantMessage, maxChars: number): string[] {
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: string[] = [];
  for (const block of message.content) {
    if (block.type === 'thinking' && block.thinking) thinking.push(block.thinking);
    else if (block.type === 'text' && block.text) text.push(block.text);
    else if (block.type === 'toolCall') calls.push(callText(block.name, block.arguments, maxChars));
  }
  const parts: string[] = [];
  if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join('\n')}`);
  if (text.length > 0) parts.push(`[Assistant]: ${text.join('\n')}`);
  if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join('; ')}`);
  return parts;
}

/**
 * Remembers each call's identity (tool and whole arguments) and the last output seen for it, so a result
 * repeating the previous result of the same call is told apart from one whose output changed (a file read
 * again after an edit is not identical, and is sent whole).
 */
class RepeatedResults {
  private readonly calls = new Map<string, { key: string; shown: string }>();
  private readonly lastOutput = new Map<string, string>();

  constructor(private readonly maxChars: number) {}

  noteCalls(message: AssistantMessage): void {
    for (const block of message.content) {
      if (block.type !== 'toolCall') continue;
      const key = `${block.name}\u0000${JSON.stringify(block.arguments ?? {})}`;
      this.calls.set(block.id, { key, shown: callText(block.name, block.arguments, this.maxChars) });
    }
  }

  /** The reference to send instead of `text`, when it repeats the previous output of the same call and is longer than the reference. */
  reference(message: ToolResultMessage, text: string): string | undefined {
    const call = this.calls.get(message.toolCallId);
    if (!call) return undefined;
    // an image's bytes are not in the text: two results that both read "[image]" may differ
    const output = message.content.some((b) => b.type === 'image') ? undefined : `${message.isError ? 'error' : 'ok'}\u0000${text}`;
    const previous = this.lastOutput.get(call.key);
    if (output === undefined) this.lastOutput.delete(call.key);
    else this.lastOutput.set(call.key, output);
    if (output === undefined || previous !== output) return undefined;
    const shown = call.shown.length <= REFERENCE_CALL_CHARS ? call.shown : `${message.toolName} call with the same arguments`;
    const reference = `[same output as the previous ${shown} above]`;
    return reference.length < truncateToolOutput(text, this.maxChars).length ? reference : undefined;
  }
}

/** A reference names the call when the call is this short; a longer one is named by its tool only. */
const REFERENCE_CALL_CHARS = 160;

/** Serializes provider-level messages (run `convertToLlm` first so summaries/custom roles become user text). */
export function serializeConversation(messages: readonly LlmMessage[], toolResultMaxChars = TOOL_RESULT_MAX_CHARS): string {
  const parts: string[] = [];
  const repeats = new RepeatedResults(toolResultMaxChars);
  for (const message of messages) {
    if (message.role === 'user') {
      const text = textOf(message.content);
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === 'assistant') {
      repeats.noteCalls(message);
      parts.push(...serializeAssistant(message, toolResultMaxChars));
    } else if (message.role === 'system') {
      const text = systemMessageText(message);
      if (text) parts.push(`[System]: ${text}`);
    } else if (message.role === 'toolResult') {
      const text = textOf(message.content);
      if (text) parts.push(`[Tool result]: ${repeats.reference(message, text) ?? truncateToolOutput(text, toolResultMaxChars)}`);
    }
  }
  return parts.join('\n\n');
}
