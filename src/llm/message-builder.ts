// Accumulates one assistant reply while it streams and turns provider-neutral deltas into the
// StreamEvents the UI consumes. Both wire protocols feed it; the final message is normalized here.
import { emptyUsage, type AssistantMessage, type StopReason, type TextContent, type ThinkingContent, type ToolCall, type Usage } from '../core/messages';
import type { ModelInfo, StreamEvent } from './types';
import { costFor } from './cost';

interface PendingToolCall {
  contentIndex: number;
  id: string;
  name: string;
  json: string;
}

export class MessageBuilder {
  readonly content: (TextContent | ThinkingContent | ToolCall)[] = [];
  usage: Usage = emptyUsage();
  streamed = false;
  private openText?: number;
  private openThinking?: number;
  private readonly tools = new Map<string | number, PendingToolCall>();

  constructor(private readonly model: ModelInfo) {}

  text(delta: string): StreamEvent[] {
    if (!delta) return [];
    this.openThinking = undefined;
    if (this.openText === undefined) {
      this.openText = this.content.push({ type: 'text', text: '' }) - 1;
    }
    (this.content[this.openText] as TextContent).text += delta;
    this.streamed = true;
    return [{ type: 'text_delta', contentIndex: this.openText, delta }];
  }

  thinking(delta: string, signature?: string): StreamEvent[] {
    if (!delta && !signature) return [];
    this.openText = undefined;
    if (this.openThinking === undefined) {
      this.openThinking = this.content.push({ type: 'thinking', thinking: '' }) - 1;
    }
    const block = this.content[this.openThinking] as ThinkingContent;
    if (signature) block.thinkingSignature = (block.thinkingSignature ?? '') + signature;
    if (!delta) return [];
    block.thinking += delta;
    this.streamed = true;
    return [{ type: 'thinking_delta', contentIndex: this.openThinking, delta }];
  }

  /**
   * Opens a text or thinking block that later deltas address by index, not by "the open block": the
   * Responses API interleaves output items (a reasoning item can finish after the message item).
   */
  openBlock(kind: 'text' | 'thinking'): number {
    this.closeBlocks();
    return this.content.push(kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' }) - 1;
  }

  /** Appends to a block opened with openBlock. */
  appendTo(contentIndex: number, delta: string): StreamEvent[] {
    const block = this.content[contentIndex];
    if (!delta || !block || block.type === 'toolCall') return [];
    this.streamed = true;
    if (block.type === 'text') {
      block.text += delta;
      return [{ type: 'text_delta', contentIndex, delta }];
    }
    block.thinking += delta;
    return [{ type: 'thinking_delta', contentIndex, delta }];
  }

  /** Starts a new text or thinking block even if one of the same kind is open (Anthropic block boundaries). */
  closeBlocks(): void {
    this.openText = undefined;
    this.openThinking = undefined;
  }

  toolStart(key: string | number, id: string, name: string): StreamEvent[] {
    this.closeBlocks();
    const contentIndex = this.content.push({ type: 'toolCall', id, name, arguments: {} }) - 1;
    this.tools.set(key, { contentIndex, id, name, json: '' });
    this.streamed = true;
    return [{ type: 'toolcall_start', contentIndex, id, name }];
  }

  hasTool(key: string | number): boolean {
    return this.tools.has(key);
  }

  toolDelta(key: string | number, delta: string): StreamEvent[] {
    const pending = this.tools.get(key);
    if (!pending || !delta) return [];
    pending.json += delta;
    return [{ type: 'toolcall_delta', contentIndex: pending.contentIndex, delta }];
  }

  /** Parses the accumulated argument JSON; returns an error text if it is not a JSON object. */
  toolEnd(key: string | number): { events: StreamEvent[]; error?: string } {
    const pending = this.tools.get(key);
    if (!pending) return { events: [] };
    this.tools.delete(key);
    const block = this.content[pending.contentIndex] as ToolCall;
    let error: string | undefined;
    try {
      const parsed: unknown = pending.json.trim() ? JSON.parse(pending.json) : {};
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) block.arguments = parsed as Record<string, unknown>;
      else error = `tool call ${pending.name}: arguments are not a JSON object`;
    } catch {
      error = `tool call ${pending.name}: arguments are not valid JSON`;
      block.arguments = {};
      block.partialArguments = pending.json;
    }
    return { events: [{ type: 'toolcall_end', contentIndex: pending.contentIndex, toolCall: { ...block } }], error };
  }

  /** Ends every tool call still open (OpenAI has no per-call stop event). */
  endAllTools(): { events: StreamEvent[]; error?: string } {
    const events: StreamEvent[] = [];
    let error: string | undefined;
    for (const key of [...this.tools.keys()]) {
      const r = this.toolEnd(key);
      events.push(...r.events);
      error ??= r.error;
    }
    return { events, error };
  }

  hasToolCalls(): boolean {
    return this.content.some((b) => b.type === 'toolCall');
  }

  finish(stopReason: StopReason, errorMessage?: string, extra: Record<string, unknown> = {}): AssistantMessage {
    const usage = { ...this.usage };
    usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    usage.cost = costFor(usage, this.model);
    const message: AssistantMessage = {
      role: 'assistant',
      content: this.content.map((b) => ({ ...b })),
      api: this.model.api,
      provider: this.model.provider,
      model: this.model.id,
      usage,
      stopReason,
      timestamp: Date.now(),
      ...extra,
    };
    if (errorMessage !== undefined) message.errorMessage = errorMessage;
    return message;
  }
}
