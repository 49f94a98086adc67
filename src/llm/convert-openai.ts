// LlmMessage[] -> OpenAI Chat Completions messages. Thinking is not sent back (Chat Completions has no
// field for it); tool results become `tool` messages; images in tool results follow as a user message
// because `tool` messages only carry text.
import { systemMessageText, type ImageContent, type LlmMessage, type TextContent } from '../core/messages';
import type { ToolDefinition } from './types';
import { prepareMessages } from './convert-common';

export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

export type OpenAIChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

function parts(content: string | (TextContent | ImageContent)[]): string | OpenAIContentPart[] {
  if (typeof content === 'string') return content;
  const out: OpenAIContentPart[] = [];
  for (const block of content) {
    if (block.type === 'text') out.push({ type: 'text', text: block.text });
    else if (block.type === 'image') out.push({ type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } });
  }
  return out.length === 1 && out[0]!.type === 'text' ? out[0]!.text : out;
}

/** A Responses tool call id is `call_id|item_id` (pi's form): Chat Completions gets the call id. */
function chatToolId(id: string): string {
  return id.split('|')[0] || id;
}

export function toOpenAIMessages(systemPrompt: string, messages: readonly LlmMessage[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = [];
  if (systemPrompt) out.push({ role: 'system', content: systemPrompt });
  let pendingImages: OpenAIContentPart[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    out.push({ role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...pendingImages] });
    pendingImages = [];
  };
  for (const message of prepareMessages(messages)) {
    if (message.role !== 'toolResult') flushImages();
    if (message.role === 'user') {
      out.push({ role: 'user', content: parts(message.content) });
    } else if (message.role === 'assistant') {
      const text = message.content.filter((b) => b.type === 'text').map((b) => (b as TextContent).text).join('');
      const calls = message.content.flatMap((b) =>
        b.type === 'toolCall'
          ? [{ id: chatToolId(b.id), type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.arguments ?? {}) } }]
          : [],
      );
      if (!text && calls.length === 0) continue;
      out.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
    } else if (message.role === 'system') {
      // pi 1.5 system messages stay in place (docs/architecture.md): Chat Completions accepts them anywhere.
      out.push({ role: 'system', content: systemMessageText(message) });
    } else {
      const text = message.content.filter((b) => b.type === 'text').map((b) => (b as TextContent).text).join('\n');
      const images = message.content.filter((b): b is ImageContent => b.type === 'image');
      for (const image of images) pendingImages.push({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } });
      out.push({ role: 'tool', tool_call_id: chatToolId(message.toolCallId), content: text || (images.length ? '(image attached below)' : '') });
    }
  }
  flushImages();
  return out;
}

export function toOpenAITools(tools: readonly ToolDefinition[] | undefined) {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));
}
