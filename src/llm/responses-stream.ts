// The events of an OpenAI Responses stream turned into MessageBuilder calls. Output items arrive as
// added → deltas → done, keyed by `output_index`; the done reasoning item (with `encrypted_content`) is
// kept whole as the thinking block's signature so it goes back next turn (src/llm/convert-responses.ts).
// Exactly one terminal event ends a good stream: completed or incomplete. `response.failed` and `error`
// throw, so they are classified like any provider error (overflow, rate limit, server error).
import type { StopReason, TextContent } from '../core/messages';
import type { StreamEvent } from './types';
import type { MessageBuilder } from './message-builder';
import { ProviderStreamError } from './stream-error';

interface Item {
  type?: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  summary?: { text?: string }[];
}

interface UsageLike {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
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

/** Usage of a finished response: cached input apart; reasoning is part of output and also kept apart. */
export function applyResponsesUsage(builder: MessageBuilder, u: UsageLike | null | undefined): void {
  if (!u) return;
  const input = count(u.input_tokens);
  const cached = Math.min(input, count(u.input_tokens_details?.cached_tokens));
  builder.usage.input = input - cached;
  builder.usage.cacheRead = cached;
  builder.usage.output = count(u.output_tokens);
  const reasoning = count(u.output_tokens_details?.reasoning_tokens);
  if (reasoning > 0) builder.usage.reasoning = reasoning;
}

export class ResponsesStreamState {
  end?: ResponsesEnd;
  private readonly thought = new Set<number>();
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
        if ((event.summary_index ?? 0) > 0) yield* b.thinking('\n\n');
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.thought.add(at);
        return yield* b.thinking(event.delta ?? '');
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return yield* b.text(event.delta ?? '');
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

  private *itemAdded(at: number, item: Item): Generator<StreamEvent> {
    this.builder.closeBlocks();
    if (item.type !== 'function_call') return;
    const callId = item.call_id ?? `call_${at}`;
    yield* this.builder.toolStart(at, item.id ? `${callId}|${item.id}` : callId, item.name ?? '');
  }

  private *itemDone(at: number, item: Item): Generator<StreamEvent> {
    const b = this.builder;
    if (item.type === 'reasoning') {
      const summary = (item.summary ?? []).map((s) => s.text ?? '').join('\n\n');
      if (!this.thought.has(at) && summary) yield* b.thinking(summary);
      yield* b.thinking('', JSON.stringify(item));
    } else if (item.type === 'message' && item.id) {
      const text = [...b.content].reverse().find((c): c is TextContent => c.type === 'text');
      if (text) text.textSignature = item.id;
    } else if (item.type === 'function_call' && b.hasTool(at)) {
      if (!this.argued.has(at)) yield* b.toolDelta(at, item.arguments ?? '');
      const ended = b.toolEnd(at);
      this.toolError ??= ended.error;
      yield* ended.events;
    }
    b.closeBlocks();
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
