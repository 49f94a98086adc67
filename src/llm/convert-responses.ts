// LlmMessage[] -> OpenAI Responses input items (pi-compatible, see docs/architecture.md "OpenAI Responses").
// A reasoning item is stored as a thinking block whose `thinkingSignature` is the item's JSON, the
// output message id and phase as the text block's `textSignature` (src/llm/text-signature.ts), a tool call's id as `call_id|item_id`; all of
// them go back only to the model that wrote them (encrypted reasoning is bound to it). A compaction
// summary carrying OpenAI's native compacted items (src/core/native-compaction.ts) is replaced by them.
import { systemMessageText, type AssistantMessage, type ImageContent, type LlmMessage, type TextContent, type ToolResultMessage } from '../core/messages';
import type { ModelInfo, ToolDefinition } from './types';
import { prepareMessages } from './convert-common';
import { keptUserWordsOf, nativeItemsFor } from '../core/native-compaction';
import { reasoningItem } from '../core/native-items';
import { parseTextSignature, type TextSignature } from './text-signature';

/** A Responses API input/output item; opaque beyond the fields we read. */
export type ResponsesItem = Record<string, unknown> & { type: string };

/** call_id as the Responses API accepts it: [A-Za-z0-9_-], at most 64 characters (the item id dropped). */
export function responsesCallId(id: string): string {
  const clean = (id.split('|')[0] ?? '').replace(/[^A-Za-z0-9_-]/g, '_');
  return (clean.length <= 64 ? clean : clean.slice(0, 64)) || 'call';
}

function itemIdOf(toolCallId: string): string | undefined {
  const id = toolCallId.split('|')[1];
  return id ? id : undefined;
}

function inputParts(content: string | (TextContent | ImageContent)[]): Record<string, unknown>[] {
  if (typeof content === 'string') return content ? [{ type: 'input_text', text: content }] : [];
  return content.flatMap((b): Record<string, unknown>[] =>
    b.type === 'image'
      ? [{ type: 'input_image', detail: 'auto', image_url: `data:${b.mimeType};base64,${b.data}` }]
      : b.text ? [{ type: 'input_text', text: b.text }] : [],
  );
}

/** The reasoning item a thinking block carries, when it came from the Responses API. */
export function reasoningItemOf(signature: unknown): ResponsesItem | undefined {
  if (typeof signature !== 'string' || !signature.startsWith('{')) return undefined;
  try {
    // Rebuilt from its known fields: a session file cannot add others (src/core/native-items.ts).
    return reasoningItem(JSON.parse(signature));
  } catch {
    return undefined;
  }
}

/** A text block as the output message item it came from: its id, and its phase when the model gave one. */
function outputMessage(text: string, signed: TextSignature): ResponsesItem {
  const item: ResponsesItem = { type: 'message', role: 'assistant', id: signed.id, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  if (signed.phase) item.phase = signed.phase;
  return item;
}

function sameModel(message: AssistantMessage, model: Pick<ModelInfo, 'provider' | 'api' | 'id'>): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function assistantItems(message: AssistantMessage, model: Pick<ModelInfo, 'provider' | 'api' | 'id'>): ResponsesItem[] {
  const own = sameModel(message, model);
  const out: ResponsesItem[] = [];
  for (const block of message.content) {
    if (block.type === 'thinking') {
      const item = own ? reasoningItemOf(block.thinkingSignature) : undefined;
      if (item) out.push(item);
    } else if (block.type === 'text') {
      if (!block.text) continue;
      const signed = own ? parseTextSignature(block.textSignature) : undefined;
      out.push(signed ? outputMessage(block.text, signed) : { type: 'message', role: 'assistant', content: block.text });
    } else if (block.type === 'toolCall') {
      const id = own ? itemIdOf(block.id) : undefined;
      out.push({ type: 'function_call', call_id: responsesCallId(block.id), name: block.name, arguments: JSON.stringify(block.arguments ?? {}), ...(id ? { id } : {}) });
    }
  }
  return out;
}

function toolOutput(message: ToolResultMessage): ResponsesItem {
  const hasImage = message.content.some((b) => b.type === 'image');
  const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  const output = hasImage ? inputParts(message.content) : text;
  return { type: 'function_call_output', call_id: responsesCallId(message.toolCallId), output };
}

export function toResponsesInput(messages: readonly LlmMessage[], model: Pick<ModelInfo, 'provider' | 'api' | 'id'> & { baseUrl?: string }): ResponsesItem[] {
  const out: ResponsesItem[] = [];
  for (const message of prepareMessages(messages)) {
    if (message.role === 'user') {
      const native = nativeItemsFor(message, model, 'openai');
      if (native) {
        out.push(...(native as ResponsesItem[]));
        const words = keptUserWordsOf(message as unknown as Record<string, unknown>);
        if (words) out.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: words }] });
      } else {
        const content = inputParts(message.content);
        if (content.length) out.push({ type: 'message', role: 'user', content });
      }
    } else if (message.role === 'system') {
      const text = systemMessageText(message);
      if (text) out.push({ type: 'message', role: 'developer', content: text });
    } else if (message.role === 'assistant') out.push(...assistantItems(message, model));
    else out.push(toolOutput(message));
  }
  return out;
}

export function toResponsesTools(tools: readonly ToolDefinition[] | undefined) {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((t) => ({ type: 'function' as const, name: t.name, description: t.description, parameters: t.parameters, strict: false }));
}
