// Anthropic Messages through @anthropic-ai/sdk 1.x (API 2026-10-21: Bearer auth, no temperature),
// loaded lazily. Raw event stream: thinking (with signature), text, tool_use with partial JSON, usage
// including cache reads/writes. A stream without message_stop is an error, never a success.
import type { StopReason } from '../core/messages';
import type { KeyResolver, ModelInfo, Provider, StreamEvent, StreamRequest, ThinkingLevel } from './types';
import { toAnthropicMessages, toAnthropicSystem, toAnthropicTools } from './convert-anthropic';
import { guardedAttempt, failedMessage, ABORTED_TEXT, type WireOutcome, type IdleWatchdog } from './attempt';
import type { MessageBuilder } from './message-builder';
import { retryFor, runWithRetry } from './retry';
import { withNativeFallback } from './native-fallback';
import { checkKeyTransport, keyGuardedFetch } from './key-transport';
import { defaultBaseUrl } from './providers';
import { ANTHROPIC_COMPACTION_BETA } from './anthropic-compaction';
import { resolveProviderOptions, type ProviderOptions, type ResolvedProviderOptions } from './provider-options';


const THINKING_BUDGET: Record<Exclude<ThinkingLevel, 'off'>, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16_384,
  xhigh: 32_000,
};

/** Budget for manual extended thinking; must be >= 1024 and below max_tokens, else thinking stays off. */
export function thinkingBudget(level: ThinkingLevel | undefined, maxTokens: number): number | undefined {
  if (!level || level === 'off') return undefined;
  const budget = Math.min(THINKING_BUDGET[level], maxTokens - 1);
  return budget >= 1024 ? budget : undefined;
}

function mapStop(reason: string | null | undefined): { stop: StopReason; error?: string } {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return { stop: 'stop' };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { stop: 'length' };
    case 'tool_use':
      return { stop: 'toolUse' };
    case 'refusal':
      return { stop: 'error', error: 'The model refused to answer (stop_reason: refusal)' };
    default:
      return { stop: 'stop' };
  }
}

interface RawEvent {
  type: string;
  index?: number;
  message?: { usage?: UsageLike };
  content_block?: { type: string; id?: string; name?: string; data?: string; text?: string; thinking?: string };
  delta?: { type?: string; text?: string; thinking?: string; signature?: string; partial_json?: string; stop_reason?: string | null };
  usage?: UsageLike;
}

interface UsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

export class AnthropicMessagesProvider implements Provider {
  private readonly options: ResolvedProviderOptions;
  private lastKey: string | undefined;

  constructor(private readonly model: ModelInfo, private readonly keys: KeyResolver, options?: ProviderOptions) {
    this.options = resolveProviderOptions(options);
  }

  stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const model = { ...this.model, ...request.model, api: this.model.api };
    return withNativeFallback(request, (sent) =>
      runWithRetry(() => this.attempt(model, sent), retryFor(this.options.retry, request), sent.signal, () => failedMessage(model, 'aborted', ABORTED_TEXT)),
    );
  }

  private async *attempt(model: ModelInfo, request: StreamRequest) {
    let key: string | undefined;
    try {
      key = await this.keys.getKey(model.provider);
    } catch {
      key = undefined;
    }
    this.lastKey = key;
    if (!key) {
      const message = failedMessage(model, 'error', `No API key for provider "${model.provider}". Run "Arbor: Set API Key" or set the environment variable.`, { errorKind: 'auth' });
      return { message, streamed: false };
    }
    const transport = checkKeyTransport(this.baseUrl(model), true);
    if (!transport.ok) return { message: failedMessage(model, 'error', transport.message, { errorKind: 'invalid_request' }), streamed: false };
    return yield* guardedAttempt(
      { model, signal: request.signal, idleTimeoutMs: this.options.idleTimeoutMs, secrets: () => [this.lastKey] },
      (builder, watchdog) => this.wire(model, request, key, builder, watchdog),
    );
  }

  private baseUrl(model: ModelInfo): string {
    return this.options.baseUrl ?? model.baseUrl ?? defaultBaseUrl(model) ?? '';
  }

  buildBody(model: ModelInfo, request: StreamRequest) {
    const maxTokens = request.maxTokens ?? model.maxOutputTokens;
    const budget = model.reasoning ? thinkingBudget(request.thinkingLevel, maxTokens) : undefined;
    const cache = request.promptCache !== 'none';
    const system = toAnthropicSystem(request.systemPrompt, cache);
    const tools = toAnthropicTools(request.tools, cache);
    return {
      model: model.id,
      max_tokens: maxTokens,
      messages: toAnthropicMessages(request.messages, cache, model),
      stream: true as const,
      ...(system ? { system } : {}),
      ...(tools ? { tools } : {}),
      ...(tools && request.toolChoice ? { tool_choice: { type: request.toolChoice } } : {}),
      ...(budget ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
    };
  }

  private async *wire(model: ModelInfo, request: StreamRequest, apiKey: string, builder: MessageBuilder, watchdog: IdleWatchdog): AsyncGenerator<StreamEvent, WireOutcome> {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    // Loading the SDK is our time, not the provider's: the idle clock starts with the request.
    watchdog.kick();
    const client = new Anthropic({
      apiKey,
      baseURL: this.baseUrl(model),
      maxRetries: 0,
      timeout: 10 * 60_000,
      fetch: keyGuardedFetch(this.options.fetch ?? fetch, true),
    });
    const body = this.buildBody(model, request);
    // A replayed compaction block needs the compaction beta on every request (docs/architecture.md).
    const compacted = body.messages[0]?.content[0]?.type === 'compaction';
    const headers = compacted ? { 'anthropic-beta': ANTHROPIC_COMPACTION_BETA } : undefined;
    const stream = await client.messages.create(body as never, { signal: watchdog.signal, ...(headers ? { headers } : {}) });
    watchdog.kick();
    let stopReason: string | null | undefined;
    let sawStop = false;
    let toolError: string | undefined;
    const applyUsage = (u: UsageLike | undefined) => {
      if (!u) return;
      if (typeof u.input_tokens === 'number') builder.usage.input = u.input_tokens;
      if (typeof u.output_tokens === 'number') builder.usage.output = u.output_tokens;
      if (typeof u.cache_read_input_tokens === 'number') builder.usage.cacheRead = u.cache_read_input_tokens;
      if (typeof u.cache_creation_input_tokens === 'number') builder.usage.cacheWrite = u.cache_creation_input_tokens;
    };
    for await (const event of stream as unknown as AsyncIterable<RawEvent>) {
      watchdog.kick();
      switch (event.type) {
        case 'message_start':
          applyUsage(event.message?.usage);
          break;
        case 'content_block_start': {
          builder.closeBlocks();
          const block = event.content_block;
          if (block?.type === 'tool_use') yield* builder.toolStart(event.index ?? -1, block.id ?? '', block.name ?? '');
          else if (block?.type === 'redacted_thinking') builder.content.push({ type: 'thinking', thinking: '', thinkingSignature: block.data ?? '', redacted: true });
          else if (block?.type === 'text' && block.text) yield* builder.text(block.text);
          break;
        }
        case 'content_block_delta': {
          const d = event.delta ?? {};
          if (d.type === 'text_delta') yield* builder.text(d.text ?? '');
          else if (d.type === 'thinking_delta') yield* builder.thinking(d.thinking ?? '');
          else if (d.type === 'signature_delta') yield* builder.thinking('', d.signature ?? '');
          else if (d.type === 'input_json_delta') yield* builder.toolDelta(event.index ?? -1, d.partial_json ?? '');
          break;
        }
        case 'content_block_stop': {
          if (builder.hasTool(event.index ?? -1)) {
            const ended = builder.toolEnd(event.index ?? -1);
            toolError ??= ended.error;
            yield* ended.events;
          }
          builder.closeBlocks();
          break;
        }
        case 'message_delta':
          if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
          applyUsage(event.usage);
          break;
        case 'message_stop':
          sawStop = true;
          break;
      }
    }
    if (request.signal?.aborted || watchdog.timedOut) return { stopReason: 'aborted' };
    const leftover = builder.endAllTools();
    yield* leftover.events;
    // Thrown, not returned: a cut before any delta is retried like a TCP reset (guardedAttempt).
    if (!sawStop) throw new Error('The provider stream ended without message_stop (connection closed early)');
    const mapped = mapStop(stopReason);
    if (toolError && mapped.stop === 'toolUse') return { stopReason: 'error', errorMessage: toolError };
    return { stopReason: mapped.stop, errorMessage: mapped.error };
  }
}
