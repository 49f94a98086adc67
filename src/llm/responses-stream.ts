// The events of an OpenAI Responses stream turned into MessageBuilder calls. Output items arrive as
// added → deltas → done, keyed by `output_index`, and may interleave: each item streams into its own
// block (opened when it is added, as pi does). The done item completes a block whose stream was only its
// beginning; the done message item's id and phase become the text block's signature; the done reasoning item (with `encrypted_content`) is
// kept whole as the thinking block's signature so it goes back next turn (src/llm/convert-responses.ts).
// Exactly one terminal event ends a good stream: completed or incomplete. `response.failed` and `error`
// throw, so they are classified like any provider error (overflow, rate limit, server error).
import type { StopReason, TextContent, ThinkingContent } from '../core/messages';
import { encodeTextSignature } from './text-signature';
import type { StreamEvent } from './types';
import type { MessageBuilder } from './message-builder';
import { ProviderStreamError } from './stream-error';

interface Item {
  type?: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  phase?: string;
  summary?: { text?: string }[];
  content?: { type?: string; text?: string; refusal?: string }[];
}

interface UsageLike {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

export interface ResponsesEvent {
  type: string;
  output_index?: number;
  summary_index?: number;
  delta?: string;
  item?: Item;
  response?: { status?: string; usage?: UsageLike | null; error?: unknown; incomplete_details?: { reason?: string } | null };
  error?: unknown;
}

export interface ResponsesEnd {
  status: 'completed' | 'incomplete';
  reason?: string;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Usage of a finished response: cached (and cache-written) input apart; reasoning is part of output and also kept apart. */
export function applyResponsesUsage(builder: MessageBuilder, u: UsageLike | null | undefined): void {
  if (!u) return;
  const input = count(u.input_tokens);
  const cached = Math.min(input, count(u.input_tokens_details?.cached_tokens));
  // Proxies such as GitHub Copilot's also report the input written to their cache (pi counts it apart).
  const written = Math.min(input - cached, count(u.input_tokens_details?.cache_write_tokens));
  builder.usage.input = input - cached - written;
  builder.usage.cacheRead = cached;
  builder.usage.cacheWrite = written;
  builder.usage.output = count(u.output_tokens);
  const reasoning = count(u.output_tokens_details?.reasoning_tokens);
  if (reasoning > 0) builder.usage.reasoning = reasoning;
}

/** The content block an output item streams into, by output_index. */
interface Slot {
  kind: 'text' | 'thinking';
  contentIndex: number;
}

function textOfItem(item: Item): string {
  return (item.content ?? []).map((c) => (c.type === 'refusal' ? c.refusal : c.text) ?? '').join('');
}

/** The rest of `final` after what was streamed, when the stream was its beginning ('' otherwise). */
function tailAfter(streamed: string, final: string): string {
  return final.length > streamed.length && final.startsWith(streamed) ? final.slice(streamed.length) : '';
}

export class ResponsesStreamState {
  end?: ResponsesEnd;
  private readonly slots = new Map<number, Slot>();
  private readonly argued = new Set<number>();
  toolError?: string;

  constructor(private readonly builder: MessageBuilder) {}

  *handle(event: ResponsesEvent): Generator<StreamEvent> {
    const b = this.builder;
    const at = event.output_index ?? -1;
    switch (event.type) {
      case 'response.output_item.added':
        return yield* this.itemAdded(at, event.item ?? {});
      case 'response.reasoning_summary_part.added':
        // pi joins the parts of a summary with a blank line.
        if ((event.summary_index ?? 0) > 0) yield* b.appendTo(this.slot(at, 'thinking'), '\n\n');
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return yield* b.appendTo(this.slot(at, 'thinking'), event.delta ?? '');
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return yield* b.appendTo(this.slot(at, 'text'), event.delta ?? '');
      case 'response.function_call_arguments.delta':
        this.argued.add(at);
        return yield* b.toolDelta(at, event.delta ?? '');
      case 'response.output_item.done':
        return yield* this.itemDone(at, event.item ?? {});
      case 'response.completed':
      case 'response.incomplete':
        applyResponsesUsage(b, event.response?.usage);
        this.end = { status: event.type === 'response.completed' ? 'completed' : 'incomplete', reason: event.response?.incomplete_details?.reason };
        return;
      case 'response.failed':
        applyResponsesUsage(b, event.response?.usage);
        throw new ProviderStreamError(event.response?.error ?? event.response ?? event);
      case 'error':
        throw new ProviderStreamError(event.error ?? event);
    }
  }

  /** The block of output item `at`, opened on first use when the stream skipped its `added` event. */
  private slot(at: number, kind: Slot['kind']): number {
    const found = this.slots.get(at);
    if (found?.kind === kind) return found.contentIndex;
    const contentIndex = this.builder.openBlock(kind);
    this.slots.set(at, { kind, contentIndex });
    return contentIndex;
  }

  private *itemAdded(at: number, item: Item): Generator<StreamEvent> {
    if (item.type === 'reasoning') this.slot(at, 'thinking');
    else if (item.type === 'message') this.slot(at, 'text');
    if (item.type !== 'function_call') return;
    const callId = item.call_id ?? `call_${at}`;
    yield* this.builder.toolStart(at, item.id ? `${callId}|${item.id}` : callId, item.name ?? '');
  }

  private *itemDone(at: number, item: Item): Generator<StreamEvent> {
    const b = this.builder;
    if (item.type === 'reasoning') {
      const index = this.slot(at, 'thinking');
      const block = b.content[index] as ThinkingContent;
      // pi's rule: the summary parts, else the raw reasoning text parts, each joined by a blank line.
      const done = (item.summary ?? []).map((p) => p.text ?? '').join('\n\n') || (item.content ?? []).map((c) => c.text ?? '').join('\n\n');
      yield* b.appendTo(index, block.thinking ? tailAfter(block.thinking, done) : done);
      block.thinkingSignature = JSON.stringify(item);
    } else if (item.type === 'message') {
      const index = this.slot(at, 'text');
      const block = b.content[index] as TextContent;
      const done = textOfItem(item);
      yield* b.appendTo(index, block.text ? tailAfter(block.text, done) : done);
      if (item.id) block.textSignature = encodeTextSignature(item.id, item.phase);
    } else if (item.type === 'function_call' && b.hasTool(at)) {
      if (!this.argued.has(at)) yield* b.toolDelta(at, item.arguments ?? '');
      const ended = b.toolEnd(at);
      this.toolError ??= ended.error;
      yield* ended.events;
    }
    this.slots.delete(at);
  }

  /** How the stream ended, as a stop reason (no terminal event is a cut stream: the caller throws). */
  stop(hasToolCalls: boolean): { stopReason: StopReason; errorMessage?: string } {
    const end = this.end!;
    if (end.status === 'incomplete') {
      if (end.reason === 'content_filter') return { stopReason: 'error', errorMessage: 'The provider stopped the reply (content filter)' };
      return { stopReason: 'length' };
    }
    if (this.toolError && hasToolCalls) return { stopReason: 'error', errorMessage: this.toolError };
    return { stopReason: hasToolCalls ? 'toolUse' : 'stop' };
  }
}
