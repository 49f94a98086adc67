// LlmMessage[] -> Anthropic Messages. Thinking with a signature goes back as a thinking block (the API
// verifies it); thinking without one (another provider's) becomes plain text. Consecutive tool results
// are merged into one user message of tool_result blocks. Prompt caching: breakpoints on the last
// tool, the system prompt and the last block of the last message, so next turn the whole previous
// request is a cached prefix (Anthropic looks back ~20 blocks for an earlier breakpoint).
import { systemMessageText, type ImageContent, type LlmMessage, type TextContent } from '../core/messages';
import type { ModelInfo, ToolDefinition } from './types';
import { prepareMessages } from './convert-common';
import { keptUserWordsOf, nativeItemsFor } from '../core/native-compaction';
import { supportsAnthropicCompaction } from './anthropic-compaction';

const EPHEMERAL = { type: 'ephemeral' as const };

export type AnthropicBlock = Record<string, unknown> & { type: string };
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** Anthropic accepts only [a-zA-Z0-9_-] in tool ids; the mapping is deterministic on both sides. */
export function anthropicToolId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
}

function userBlocks(content: string | (TextContent | ImageContent)[]): AnthropicBlock[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const out: AnthropicBlock[] = [];
  for (const block of content) {
    if (block.type === 'text' && block.text) out.push({ type: 'text', text: block.text });
    else if (block.type === 'image') out.push({ type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } });
  }
  return out;
}

function assistantBlocks(message: Extract<LlmMessage, { role: 'assistant' }>): AnthropicBlock[] {
  const out: AnthropicBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'thinking') {
      if (block.redacted && block.thinkingSignature && message.api === 'anthropic-messages') out.push({ type: 'redacted_thinking', data: block.thinkingSignature });
      else if (block.thinkingSignature && message.api === 'anthropic-messages') {
        out.push({ type: 'thinking', thinking: block.thinking, signature: block.thinkingSignature });
      } else if (block.thinking) out.push({ type: 'text', text: block.thinking });
    } else if (block.type === 'text') {
      if (block.text) out.push({ type: 'text', text: block.text });
    } else if (block.type === 'toolCall') {
      out.push({ type: 'tool_use', id: anthropicToolId(block.id), name: block.name, input: block.arguments ?? {} });
    }
  }
  return out;
}

/** What the replay of a native compaction block is bound to (the block goes to its own model and endpoint). */
type NativeModel = Pick<ModelInfo, 'provider' | 'api' | 'id' | 'nativeCompaction'> & { baseUrl?: string };

/** The compaction block a summary message carries for this model, when it may be replayed to it. */
function compactionBlocks(message: LlmMessage, model: NativeModel | undefined): AnthropicBlock[] | undefined {
  if (!model || !supportsAnthropicCompaction(model)) return undefined;
  return nativeItemsFor(message, model, 'anthropic') as AnthropicBlock[] | undefined;
}

/**
 * With `model`, a compaction summary carrying Anthropic's own compaction block (src/core/native-compaction.ts)
 * is sent as that block, first in `messages` (the API requires it there) in an assistant turn.
 */
export function toAnthropicMessages(messages: readonly LlmMessage[], cache = true, model?: NativeModel): AnthropicMessageParam[] {
  const out: AnthropicMessageParam[] = [];
  let compaction: AnthropicMessageParam | undefined;
  let keptWords: string | undefined;
  for (const message of prepareMessages(messages)) {
    const native = compactionBlocks(message, model);
    if (native) {
      compaction = { role: 'assistant', content: native.map((b) => ({ ...b })) };
      keptWords = keptUserWordsOf(message as unknown as Record<string, unknown>);
    }
    else if (message.role === 'user') {
      const content = userBlocks(message.content);
      if (content.length) out.push({ role: 'user', content });
    } else if (message.role === 'assistant') {
      const content = assistantBlocks(message);
      if (content.length) out.push({ role: 'assistant', content });
    } else if (message.role === 'system') {
      // Anthropic takes one system prompt; a pi 1.5 system message later in the conversation goes in place
      // as user text, so the cached prefix before it is unchanged (docs/architecture.md).
      const text = systemMessageText(message);
      if (text) out.push({ role: 'user', content: [{ type: 'text', text: systemAsUserText(text) }] });
    } else {
      const result: AnthropicBlock = {
        type: 'tool_result',
        tool_use_id: anthropicToolId(message.toolCallId),
        content: userBlocks(message.content),
        is_error: message.isError,
      };
      const last = out[out.length - 1];
      if (last && last.role === 'user' && last.content.every((b) => b.type === 'tool_result')) last.content.push(result);
      else out.push({ role: 'user', content: [result] });
    }
  }
  if (compaction) out.unshift(compaction, ...withKeptWords(out, keptWords));
  if (cache) {
    const last = out[out.length - 1];
    const block = last?.content[last.content.length - 1];
    if (block && !['thinking', 'redacted_thinking', 'compaction'].includes(block.type)) block.cache_control = EPHEMERAL;
  }
  return out;
}

/**
 * The user's kept words go right after the compaction block: at the start of the first user turn when
 * one follows the block, else as a user turn of their own (returned, to insert after the block).
 */
function withKeptWords(out: AnthropicMessageParam[], words: string | undefined): AnthropicMessageParam[] {
  if (!words) return [];
  const block: AnthropicBlock = { type: 'text', text: words };
  if (out[0]?.role === 'user' && out[0].content.every((b) => b.type !== 'tool_result')) {
    out[0].content.unshift(block);
    return [];
  }
  return [{ role: 'user', content: [block] }];
}

/** How a mid-conversation system message reads when sent as user text. */
export function systemAsUserText(text: string): string {
  return `<system-message>\n${text}\n</system-message>`;
}

export function toAnthropicSystem(systemPrompt: string, cache = true): AnthropicBlock[] | undefined {
  if (!systemPrompt) return undefined;
  return [{ type: 'text', text: systemPrompt, ...(cache ? { cache_control: EPHEMERAL } : {}) }];
}

export function toAnthropicTools(tools: readonly ToolDefinition[] | undefined, cache = true): Record<string, unknown>[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters,
    ...(cache && i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}
