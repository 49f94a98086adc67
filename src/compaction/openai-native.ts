// OpenAI native compaction (docs/providers.md "Native compaction"): when remote
// compaction is enabled and the model is OpenAI's own on the Responses API, the summarized messages are
// also sent to `POST {baseUrl}/responses/compact`, and the provider's replacement history (the real user
// messages plus one opaque, encrypted `compaction` item) is kept in the compaction entry as
// `preserveData.openaiRemoteCompaction` with `scope: "summarized"`. Any failure (HTTP error, timeout,
// malformed body, no key) is logged and ignored: the local summary is used as if it had never been tried.
//
// The replacement history is what the next Responses request sends in place of the local summary, the
// kept messages following it as usual (src/core/native-compaction.ts, src/llm/convert-responses.ts).
// The local summary is still generated: other providers, another model's switch, a rejected native
// context and pi reading the file all use it. Only the summarized messages are compacted (omp sends the
// kept ones too): the kept messages then go to every provider the same way.
import type { AgentMessage } from '../core/messages';
import { OPENAI_DEFAULT_BASE_URL, OPENAI_REMOTE_COMPACTION_KEY, nativeBaseUrl } from '../core/native-compaction';
import type { KeyResolver, ModelInfo } from '../llm/types';
import { toResponsesInput, type ResponsesItem } from '../llm/convert-responses';
import { convertToLlm } from '../session/convert';
import { checkKeyTransport } from '../llm/key-transport';
import { describeBytes, readBoundedBody } from './bounded-body';
import { CompactionCancelled } from './errors';

export { OPENAI_DEFAULT_BASE_URL };
export const NATIVE_COMPACTION_TIMEOUT_MS = 120_000;
/** The replacement history carries the kept messages and an encrypted item: generous, but bounded. */
export const NATIVE_COMPACTION_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const NATIVE_COMPACTION_STALL_MS = 60_000;
export { OPENAI_REMOTE_COMPACTION_KEY };
export type { ResponsesItem };

export interface OpenAIRemoteCompaction {
  provider: string;
  model: string;
  /** the base URL the request went to: the items are sent to this endpoint and model only */
  baseUrl: string;
  /** the filtered `output` of /responses/compact: what a Responses request would send as input */
  replacementHistory: ResponsesItem[];
  /** the last `compaction` (or `compaction_summary`) item of the output */
  compactionItem: ResponsesItem;
  /** what the items stand for: Arbor compacts only the summarized messages (omp: everything, no field) */
  scope?: 'summarized';
  createdAt: string;
}

/** OpenAI's own models on the Responses API (Chat Completions and local servers cannot use the items). */
export function supportsNativeCompaction(model: ModelInfo | undefined): model is ModelInfo {
  return model !== undefined && model.provider === 'openai' && model.api === 'openai-responses' && model.nativeCompaction !== false;
}

const USER_FRAGMENT = /^\s*<(system-reminder|environment|agents-md|skill|summary|conversation)[\s>]/;

/** Keeps compaction items, assistant messages and real user messages; requires a final compaction item. */
export function parseCompactResponse(body: unknown): { replacementHistory: ResponsesItem[]; compactionItem: ResponsesItem } {
  const output = body && typeof body === 'object' ? (body as { output?: unknown }).output : undefined;
  if (!Array.isArray(output)) throw new Error('the answer has no "output" array');
  const kept: ResponsesItem[] = [];
  let compactionItem: ResponsesItem | undefined;
  for (const raw of output) {
    if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') continue;
    const item = raw as ResponsesItem;
    if (item.type === 'compaction' && typeof item.encrypted_content === 'string' && item.encrypted_content !== '') {
      kept.push(item);
      compactionItem = item;
    } else if (item.type === 'compaction_summary') {
      kept.push(item);
      compactionItem = item;
    } else if (item.type === 'message' && item.role === 'assistant') {
      kept.push(item);
    } else if (item.type === 'message' && item.role === 'user' && !USER_FRAGMENT.test(itemText(item))) {
      kept.push(item);
    }
  }
  if (!compactionItem) throw new Error('the answer has no compaction item');
  return { replacementHistory: kept, compactionItem };
}

function itemText(item: ResponsesItem): string {
  const content = item.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
}

export interface NativeCompactionOptions {
  model: ModelInfo;
  keys: KeyResolver;
  /** the messages the compaction summarizes (summarized and turn prefix; the kept ones stay as they are) */
  messages: readonly AgentMessage[];
  /** the previous compaction on the path, as its summary message (with its native payloads) */
  previous?: AgentMessage;
  /** the session's system prompt */
  instructions?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

function estimateChars(items: readonly ResponsesItem[]): number {
  return JSON.stringify(items).length;
}

/**
 * The request input: the previous compaction (its native items when Arbor wrote them for this provider,
 * else its summary text), then the summarized messages, converted as a Responses request would be.
 */
export function nativeCompactionInput(options: Pick<NativeCompactionOptions, 'messages' | 'previous' | 'model'>): ResponsesItem[] {
  const head: AgentMessage[] = options.previous ? [options.previous] : [];
  return toResponsesInput(convertToLlm([...head, ...options.messages]), options.model);
}

/**
 * POSTs to /responses/compact. Throws on any failure (the caller decides to fall back); the error
 * messages never contain the key (it is only ever placed in the Authorization header).
 */
export async function requestNativeCompaction(options: NativeCompactionOptions): Promise<OpenAIRemoteCompaction> {
  const key = await options.keys.getKey(options.model.provider);
  if (!key) throw new Error(`no API key for ${options.model.provider}`);
  const input = nativeCompactionInput(options);
  if (input.length === 0) throw new Error('nothing to send');
  // chars/4 is a safe over-estimate for the provider's own limit check; a request that cannot fit
  // would only come back as an error.
  if (estimateChars(input) / 4 > options.model.contextWindow) throw new Error('the conversation is larger than the model window');
  const base = nativeBaseUrl(options.model.baseUrl);
  const transport = checkKeyTransport(base, true);
  if (!transport.ok) throw new Error(transport.message);
  const timeoutMs = options.timeoutMs ?? NATIVE_COMPACTION_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  let body: unknown;
  try {
    response = await fetchImpl(`${base}/responses/compact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: options.model.id, input, ...(options.instructions ? { instructions: options.instructions } : {}) }),
      redirect: 'error',
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`HTTP ${response.status}`);
    }
    const read = await readBoundedBody(response, { maxBytes: NATIVE_COMPACTION_MAX_RESPONSE_BYTES, stallMs: NATIVE_COMPACTION_STALL_MS }, signal);
    if (!read.ok && read.reason === 'too-large') throw new Error(`the answer is larger than ${describeBytes(NATIVE_COMPACTION_MAX_RESPONSE_BYTES)}`);
    if (!read.ok) throw new Error(read.reason === 'failed' ? read.detail : `the answer ${read.reason === 'stalled' ? 'stalled' : 'was cut off'}`);
    try {
      body = JSON.parse(read.text);
    } catch {
      throw new Error('the answer is not valid JSON');
    }
  } catch (error) {
    if (options.signal?.aborted) throw new CompactionCancelled();
    if (timeout.aborted) throw new Error(`timed out after ${timeoutMs} ms`);
    const message = (error as Error)?.message ?? String(error);
    throw new Error(message.split(key).join('[key]'));
  }
  const parsed = parseCompactResponse(body);
  return { provider: options.model.provider, model: options.model.id, baseUrl: base, ...parsed, scope: 'summarized', createdAt: new Date().toISOString() };
}
