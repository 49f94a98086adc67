// LlmMessage[] -> the editor's chat messages. The API has no system role, so the system prompt leads
// as a user message; thinking is not sent back; tool results carry text only (images are described).
import type { AssistantMessage, ImageContent, LlmMessage, TextContent, ToolResultMessage } from '../../core/messages';
import { prepareMessages } from '../convert-common';
import type { ToolDefinition } from '../types';
import type { HostMessage, HostPart, HostTool } from './host';

function textOf(content: string | (TextContent | ImageContent)[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? b.text : `[image: ${b.mimeType}]`)).join('\n');
}

function assistantParts(message: AssistantMessage): HostPart[] {
  const parts: HostPart[] = [];
  for (const block of message.content) {
    if (block.type === 'text' && block.text) parts.push({ type: 'text', text: block.text });
    if (block.type === 'toolCall') parts.push({ type: 'toolCall', callId: block.id, name: block.name, input: block.arguments });
  }
  return parts;
}

function resultPart(message: ToolResultMessage): HostPart {
  return { type: 'toolResult', callId: message.toolCallId, text: textOf(message.content) || '(no output)' };
}

/** Appends, merging consecutive tool results into one user message as the API expects. */
function push(out: HostMessage[], role: HostMessage['role'], parts: HostPart[]): void {
  const last = out[out.length - 1];
  const mergeable = last && last.role === role && role === 'user' && parts.every((p) => p.type === 'toolResult');
  if (mergeable && last.parts.every((p) => p.type === 'toolResult')) last.parts.push(...parts);
  else if (parts.length > 0) out.push({ role, parts });
}

export function toHostMessages(systemPrompt: string, messages: readonly LlmMessage[]): HostMessage[] {
  const out: HostMessage[] = [];
  if (systemPrompt) out.push({ role: 'user', parts: [{ type: 'text', text: systemPrompt }] });
  for (const message of prepareMessages(messages)) {
    if (message.role === 'user') push(out, 'user', [{ type: 'text', text: textOf(message.content) }]);
    else if (message.role === 'assistant') push(out, 'assistant', assistantParts(message as AssistantMessage));
    else push(out, 'user', [resultPart(message as ToolResultMessage)]);
  }
  return out;
}

export function toHostTools(tools: readonly ToolDefinition[] | undefined): HostTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
}

/** The prompt as one text, for the model's own token count. */
export function promptText(messages: readonly HostMessage[]): string {
  return messages.flatMap((m) => m.parts.map((p) => (p.type === 'toolCall' ? `${p.name}(${JSON.stringify(p.input)})` : p.text))).join('\n');
}
