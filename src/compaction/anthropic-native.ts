// Anthropic's on-demand compaction (beta `compact-2026-09-04`, SDK 1.11 `compaction: {type: "summarize"}`):
// when remote compaction is enabled and the model supports it (src/llm/anthropic-compaction.ts), the
// summarized messages are also sent to Anthropic, which answers with one signed `compaction` block
// (stop_reason "compaction"). The block is kept in `preserveData.anthropicCompaction`; the next request
// to such a model sends it first in `messages` in place of the local summary, the kept messages after it
// word for word. Any failure is logged and ignored: the local summary stays what every context uses.
import { ANTHROPIC_COMPACTION_KEY, nativeBaseUrl } from '../core/native-compaction';
import { ANTHROPIC_COMPACTION_BETA, supportsAnthropicCompaction } from '../llm/anthropic-compaction';
import { toAnthropicMessages, toAnthropicSystem } from '../llm/convert-anthropic';
import { checkKeyTransport, keyGuardedFetch } from '../llm/key-transport';
import { defaultBaseUrl } from '../llm/providers';
import { convertToLlm } from '../session/convert';
import { CompactionCancelled } from './errors';
import type { NativeCompactionOptions } from './openai-native';

export { ANTHROPIC_COMPACTION_KEY, supportsAnthropicCompaction };

export interface AnthropicCompaction {
  provider: string;
  model: string;
  /** the base URL the block was made at (nativeBaseUrl): it is replayed to that endpoint only */
  baseUrl: string;
  /** the `compaction` block exactly as returned (content, encrypted_content, signature, tool_changes) */
  block: Record<string, unknown> & { type: 'compaction' };
  createdAt: string;
}

/** The same request as OpenAI's native compaction: the summarized messages, the previous summary message. */
export type AnthropicCompactionOptions = NativeCompactionOptions;

/** The compaction block of the answer, or an error saying why there is none. */
export function compactionBlockOf(answer: unknown): AnthropicCompaction['block'] {
  const record = answer as { stop_reason?: unknown; content?: unknown } | undefined;
  const block = Array.isArray(record?.content) ? (record.content as Record<string, unknown>[]).find((b) => b?.type === 'compaction') : undefined;
  if (!block) throw new Error(`the answer has no compaction block (stop_reason ${String(record?.stop_reason)})`);
  if (typeof block.content !== 'string' || block.content === '') throw new Error('the compaction block is empty (the compaction failed)');
  return block as AnthropicCompaction['block'];
}

async function callCompaction(options: AnthropicCompactionOptions, key: string, signal: AbortSignal): Promise<unknown> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const base = options.model.baseUrl ?? defaultBaseUrl(options.model) ?? '';
  const transport = checkKeyTransport(base, true);
  if (!transport.ok) throw new Error(transport.message);
  const client = new Anthropic({ apiKey: key, baseURL: base, maxRetries: 0, fetch: keyGuardedFetch(options.fetchImpl ?? fetch, true) });
  const head = options.previous ? [options.previous] : [];
  const system = toAnthropicSystem(options.instructions ?? '', false);
  const body = {
    model: options.model.id,
    max_tokens: Math.min(options.model.maxOutputTokens, 16_384),
    messages: toAnthropicMessages(convertToLlm([...head, ...options.messages]), false, options.model),
    ...(system ? { system } : {}),
    compaction: { type: 'summarize' },
    betas: [ANTHROPIC_COMPACTION_BETA],
  };
  return client.beta.messages.create(body as never, { signal });
}

/** Requests the compaction; throws on any failure (the caller falls back). The key never reaches a message. */
export async function requestAnthropicCompaction(options: AnthropicCompactionOptions): Promise<AnthropicCompaction> {
  const key = await options.keys.getKey(options.model.provider);
  if (!key) throw new Error(`no API key for ${options.model.provider}`);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 120_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const block = compactionBlockOf(await callCompaction(options, key, signal));
    const baseUrl = nativeBaseUrl(options.model.baseUrl ?? defaultBaseUrl(options.model), 'anthropic');
    return { provider: options.model.provider, model: options.model.id, baseUrl, block, createdAt: new Date().toISOString() };
  } catch (error) {
    if (options.signal?.aborted) throw new CompactionCancelled();
    if (timeout.aborted) throw new Error(`timed out after ${options.timeoutMs ?? 120_000} ms`);
    throw new Error(String((error as Error)?.message ?? error).split(key).join('[key]'));
  }
}
