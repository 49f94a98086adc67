// OpenAI Chat Completions (and OpenAI-compatible local servers: Ollama, LM Studio, llama.cpp, vLLM)
// through the openai SDK, loaded lazily. Streams with include_usage; tool-call arguments arrive as
// deltas keyed by `index`; a stream that ends without a finish_reason is an error, never a success.
import type { LlmMessage, StopReason } from '../core/messages';
import type { KeyResolver, ModelInfo, Provider, StreamEvent, StreamRequest, ThinkingLevel } from './types';
import { toOpenAIMessages, toOpenAITools } from './convert-openai';
import { guardedAttempt, failedMessage, ABORTED_TEXT, type WireOutcome, type IdleWatchdog } from './attempt';
import type { MessageBuilder } from './message-builder';
import { retryFor, runWithRetry } from './retry';
import { withNativeFallback } from './native-fallback';
import { defaultBaseUrl } from './providers';
import { resolveProviderOptions, type ProviderOptions, type ResolvedProviderOptions } from './provider-options';
import { checkKeyTransport, keyGuardedFetch } from './key-transport';
import { countTextTokens, estimateMessageTokens } from './tokens';
import { readSse } from './sse';
import { ProviderStreamError } from './stream-error';
import { withNestedErrorBody } from './error-body';
import { applyOpenAIUsage, chunkUsage, parseChunk } from './openai-chunks';

/** Sent to local servers that need no key (the SDK refuses an empty one). */
export const LOCAL_DUMMY_KEY = 'arbor-local-no-key';


function reasoningEffort(model: ModelInfo, level: ThinkingLevel | undefined) {
  if (!model.reasoning || !level || level === 'off') return undefined;
  return level;
}

function mapFinish(reason: string | null | undefined, hasTools: boolean): { stop: StopReason; error?: string } {
  if (hasTools && (reason === 'stop' || reason === 'tool_calls' || reason === 'function_call')) return { stop: 'toolUse' };
  switch (reason) {
    case 'stop':
      return { stop: 'stop' };
    case 'length':
      return { stop: 'length' };
    case 'tool_calls':
    case 'function_call':
      return { stop: 'toolUse' };
    case 'content_filter':
      return { stop: 'error', error: 'The provider stopped the reply (content filter)' };
    default:
      return { stop: 'stop' };
  }
}

/** Rough prompt size for servers that report zero usage (cl100k when loaded, else chars/4). */
export function estimatePromptTokens(request: Pick<StreamRequest, 'systemPrompt' | 'messages' | 'tools'>): number {
  let total = countTextTokens(request.systemPrompt) + 3;
  for (const message of request.messages as LlmMessage[]) total += 4 + estimateMessageTokens(message);
  if (request.tools?.length) total += countTextTokens(JSON.stringify(request.tools));
  return total;
}

export class OpenAICompletionsProvider implements Provider {
  protected readonly options: ResolvedProviderOptions;
  private lastKey: string | undefined;

  constructor(private readonly model: ModelInfo, private readonly keys: KeyResolver, options?: ProviderOptions) {
    this.options = resolveProviderOptions(options);
  }

  private get compatible(): boolean {
    return this.model.api === 'openai-compatible';
  }

  stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const model = { ...this.model, ...request.model, api: this.model.api };
    return withNativeFallback(request, (sent) =>
      runWithRetry(() => this.attempt(model, sent), retryFor(this.options.retry, request), sent.signal, () => failedMessage(model, 'aborted', ABORTED_TEXT)),
    );
  }

  private async *attempt(model: ModelInfo, request: StreamRequest) {
    const key = await this.resolveKey(model);
    if (!key) {
      const message = failedMessage(model, 'error', `No API key for provider "${model.provider}". Run "Arbor: Set API Key" or set the environment variable.`, { errorKind: 'auth' });
      return { message, streamed: false };
    }
    // The placeholder sent to keyless local servers is no secret: such a server may be on the LAN.
    const transport = checkKeyTransport(this.baseUrl(model), key !== LOCAL_DUMMY_KEY);
    if (!transport.ok) return { message: failedMessage(model, 'error', transport.message, { errorKind: 'invalid_request' }), streamed: false };
    return yield* guardedAttempt(
      { model, signal: request.signal, idleTimeoutMs: this.options.idleTimeoutMs, secrets: () => [this.lastKey] },
      (builder, watchdog) => this.wire(model, request, key, builder, watchdog),
    );
  }

  protected baseUrl(model: ModelInfo): string {
    return this.options.baseUrl ?? model.baseUrl ?? defaultBaseUrl({ provider: model.provider, api: 'openai-completions' }) ?? '';
  }

  private async resolveKey(model: ModelInfo): Promise<string | undefined> {
    let key: string | undefined;
    try {
      key = await this.keys.getKey(model.provider);
    } catch {
      key = undefined;
    }
    if (!key && this.compatible) key = LOCAL_DUMMY_KEY;
    this.lastKey = key;
    return key;
  }

  private buildBody(model: ModelInfo, request: StreamRequest) {
    const maxTokens = request.maxTokens ?? model.maxOutputTokens;
    const effort = reasoningEffort(model, request.thinkingLevel);
    const tools = toOpenAITools(request.tools);
    return {
      model: model.id,
      messages: toOpenAIMessages(request.systemPrompt, request.messages),
      stream: true as const,
      stream_options: { include_usage: true },
      // Local servers (older llama.cpp/Ollama) know only max_tokens; OpenAI wants max_completion_tokens.
      ...(this.compatible ? { max_tokens: maxTokens } : { max_completion_tokens: maxTokens }),
      ...(tools ? { tools } : {}),
      ...(tools && request.toolChoice ? { tool_choice: request.toolChoice } : {}),
      ...(effort ? { reasoning_effort: effort } : {}),
    };
  }

  /** The SDK client for one attempt; loading the SDK is our time, so the idle clock starts after it. */
  protected async client(model: ModelInfo, apiKey: string, watchdog: IdleWatchdog) {
    const { default: OpenAI } = await import('openai');
    watchdog.kick();
    return new OpenAI({
      apiKey,
      baseURL: this.baseUrl(model),
      maxRetries: 0,
      timeout: 10 * 60_000,
      fetch: withNestedErrorBody(keyGuardedFetch(this.options.fetch ?? fetch, apiKey !== LOCAL_DUMMY_KEY)),
    });
  }

  protected async *wire(model: ModelInfo, request: StreamRequest, apiKey: string, builder: MessageBuilder, watchdog: IdleWatchdog): AsyncGenerator<StreamEvent, WireOutcome> {
    const client = await this.client(model, apiKey, watchdog);
    const body = this.buildBody(model, request);
    const response = await client.chat.completions.create(body as never, { signal: watchdog.signal }).asResponse();
    watchdog.kick();
    if (!response.body) throw new Error('The provider answered without a body (connection closed early)');
    let finish: string | null | undefined;
    let sawUsage = false;
    for await (const sse of readSse(response.body as unknown as AsyncIterable<Uint8Array>, () => watchdog.kick())) {
      const raw = parseChunk(sse);
      if (raw === 'done') break;
      const usage = chunkUsage(raw);
      if (usage) {
        applyOpenAIUsage(builder.usage, usage);
        sawUsage = true;
      }
      // An error after the finish (OpenRouter's "Token limit reached" after `length`) does not undo it.
      if (raw.error !== undefined && raw.error !== null) {
        if (finish) break;
        throw new ProviderStreamError(raw.error);
      }
      const choice = raw.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) yield* builder.thinking(reasoning);
      if (delta.content) yield* builder.text(delta.content);
      for (const call of delta.tool_calls ?? []) {
        if (!builder.hasTool(call.index)) {
          yield* builder.toolStart(call.index, call.id ?? `call_${call.index}_${Date.now().toString(36)}`, call.function?.name ?? '');
        }
        yield* builder.toolDelta(call.index, call.function?.arguments ?? '');
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (request.signal?.aborted || watchdog.timedOut) return { stopReason: 'aborted' };
    // Thrown, not returned: a cut before any delta is retried like a TCP reset (guardedAttempt).
    if (!finish) throw new Error('The provider stream ended without a finish_reason (connection closed early)');
    const ended = builder.endAllTools();
    yield* ended.events;
    const mapped = mapFinish(finish, builder.hasToolCalls());
    const extra: Record<string, unknown> = {};
    if (!sawUsage || builder.usage.input + builder.usage.output + builder.usage.cacheRead === 0) {
      builder.usage.input = estimatePromptTokens(request);
      builder.usage.output = estimateMessageTokens({ role: 'assistant', content: builder.content, api: model.api, provider: model.provider, model: model.id, usage: builder.usage, stopReason: 'stop', timestamp: 0 });
      extra.usageEstimated = true;
    }
    if (ended.error && mapped.stop === 'toolUse') return { stopReason: 'error', errorMessage: ended.error, extra };
    return { stopReason: mapped.stop, errorMessage: mapped.error, extra };
  }
}
