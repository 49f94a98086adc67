// OpenAI's own models through the Responses API (`client.responses.create({stream: true})`), the wire
// the `openai` provider uses unless a model says `openai-completions`. Stateless (`store: false`): the
// whole conversation is sent each turn, reasoning items included as encrypted content, so reasoning
// carries over between turns without OpenAI keeping anything. Key handling, retries and the idle
// watchdog are the Chat Completions provider's; only the body and the event stream differ.
import type { ModelInfo, StreamEvent, StreamRequest } from './types';
import type { WireOutcome, IdleWatchdog } from './attempt';
import type { MessageBuilder } from './message-builder';
import { OpenAICompletionsProvider } from './openai-completions';
import { toResponsesInput, toResponsesTools } from './convert-responses';
import { readSse } from './sse';
import { ProviderStreamError, errorFieldBody } from './stream-error';
import { ResponsesStreamState, type ResponsesEvent } from './responses-stream';

function effortOf(model: ModelInfo, request: StreamRequest): string | undefined {
  const level = request.thinkingLevel;
  return model.reasoning && level && level !== 'off' ? level : undefined;
}

export function responsesBody(model: ModelInfo, request: StreamRequest) {
  const tools = toResponsesTools(request.tools);
  const effort = effortOf(model, request);
  return {
    model: model.id,
    input: toResponsesInput(request.messages, model),
    ...(request.systemPrompt ? { instructions: request.systemPrompt } : {}),
    stream: true as const,
    store: false,
    max_output_tokens: request.maxTokens ?? model.maxOutputTokens,
    ...(tools ? { tools } : {}),
    ...(tools && request.toolChoice ? { tool_choice: request.toolChoice } : {}),
    ...(effort ? { reasoning: { effort, summary: 'auto' } } : {}),
    // Reasoning models think whether or not a level is set; their encrypted reasoning is replayed.
    ...(model.reasoning ? { include: ['reasoning.encrypted_content'] } : {}),
  };
}

function parseEvent(data: string): ResponsesEvent | undefined {
  const text = data.trim();
  if (!text || text === '[DONE]') return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { type?: unknown }).type === 'string') return parsed as ResponsesEvent;
  } catch {
    // reported below
  }
  throw new Error(`The provider sent a malformed stream event: ${text.slice(0, 200)}`);
}

export class OpenAIResponsesProvider extends OpenAICompletionsProvider {
  protected override async *wire(model: ModelInfo, request: StreamRequest, apiKey: string, builder: MessageBuilder, watchdog: IdleWatchdog): AsyncGenerator<StreamEvent, WireOutcome> {
    const client = await this.client(model, apiKey, watchdog);
    const response = await client.responses.create(responsesBody(model, request) as never, { signal: watchdog.signal }).asResponse();
    watchdog.kick();
    if (!response.body) throw new Error('The provider answered without a body (connection closed early)');
    const state = new ResponsesStreamState(builder);
    for await (const sse of readSse(response.body as unknown as AsyncIterable<Uint8Array>, () => watchdog.kick())) {
      if (sse.field === 'error') throw new ProviderStreamError(errorFieldBody(sse.data));
      const event = parseEvent(sse.data);
      if (event) yield* state.handle(event);
      if (state.end) break;
    }
    if (request.signal?.aborted || watchdog.timedOut) return { stopReason: 'aborted' };
    // Thrown, not returned: a cut before any delta is retried like a TCP reset (guardedAttempt).
    if (!state.end) throw new Error('The provider stream ended without response.completed (connection closed early)');
    const ended = builder.endAllTools();
    yield* ended.events;
    state.toolError ??= ended.error;
    return state.stop(builder.hasToolCalls());
  }
}
