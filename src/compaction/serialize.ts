// Turns messages into plain text for the summarizer (docs/pi-compatibility.md "What a compaction summarizes"). Serializing (instead of sending
// the conversation as chat turns) keeps the summarizer from continuing the conversation, and lets tool
// output be cut to a bounded size.
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

function serializeAssistant(message: AssistantMessage): string[] {
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: string[] = [];
  for (const block of message.content) {
    if (block.type === 'thinking' && block.thinking) thinking.push(block.thinking);
    else if (block.type === 'text' && block.text) text.push(block.text);
    else if (block.type === 'toolCall') {
      const args = Object.entries(block.arguments ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      calls.push(`${block.name}(${args.join(', ')})`);
    }
  }
  const parts: string[] = [];
  if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join('\n')}`);
  if (text.length > 0) parts.push(`[Assistant]: ${text.join('\n')}`);
  if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join('; ')}`);
  return parts;
}

/** Serializes provider-level messages (run `convertToLlm` first so summaries/custom roles become user text). */
export function serializeConversation(messages: readonly LlmMessage[], toolResultMaxChars = TOOL_RESULT_MAX_CHARS): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = textOf(message.content);
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === 'assistant') {
      parts.push(...serializeAssistant(message));
    } else if (message.role === 'system') {
      const text = systemMessageText(message);
      if (text) parts.push(`[System]: ${text}`);
    } else if (message.role === 'toolResult') {
      const text = textOf(message.content);
      if (text) parts.push(`[Tool result]: ${truncateToolOutput(text, toolResultMaxChars)}`);
    }
  }
  return parts.join('\n\n');
}
