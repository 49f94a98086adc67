// OpenAI native compaction (seed 001 "Remote summarization modes", llm-providers §2.4): when remote
// compaction is enabled and the model is OpenAI's own, the conversation is also sent to the provider's
// `POST {baseUrl}/responses/compact`, and the provider's replacement history (the real user messages
// plus one opaque, encrypted `compaction` item) is kept in the compaction entry as
// `preserveData.openaiRemoteCompaction`. Any failure (HTTP error, timeout, malformed body, no key) is
// logged and ignored: the local summary is used as if the native call had never been tried.
//
// Why the local summary is still generated, and what the replacement history is used for:
// Arbor talks to OpenAI through Chat Completions, and Chat Completions has no input type for a
// `compaction` item (its content is encrypted and only the Responses API can expand it). Sending the
// replacement history's plaintext user messages instead would give the model the user's words without
// any record of what was done about them, which is worse than the local checkpoint summary. So:
//   * the context for every model (OpenAI included) is rebuilt from the local summary;
//   * the replacement history round-trips untouched in the session file, and the next native
//     compaction sends it first (instead of the local summary text), so the provider's own compacted
//     state keeps accumulating across compactions as the Responses API intends;
//   * a future Responses-API provider can pass it as input directly (llm-providers §2.4: "pass output
//     as the next request's input").
// The seed lets a successful native call replace the local summary; we cannot, for the reason above.
import { systemMessageText, type AgentMessage, type LlmMessage } from '../core/messages';
import type { KeyResolver, ModelInfo } from '../llm/types';
import { convertToLlm } from '../session/convert';
import { compactionSummaryText } from '../session/convert';
import { checkKeyTransport } from '../llm/key-transport';
import { describeBytes, readBoundedBody } from './bounded-body';
import { CompactionCancelled } from './errors';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const NATIVE_COMPACTION_TIMEOUT_MS = 120_000;
/** The replacement history carries the kept messages and an encrypted item: generous, but bounded. */
export const NATIVE_COMPACTION_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const NATIVE_COMPACTION_STALL_MS = 60_000;
/** Preserve-data key on the compaction entry (same name as omp, so files stay interchangeable). */
export const OPENAI_REMOTE_COMPACTION_KEY = 'openaiRemoteCompaction';

/** A Responses API input/output item; opaque beyond the fields we read. */
export type ResponsesItem = Record<string, unknown> & { type: string };

export interface OpenAIRemoteCompaction {
  provider: string;
  model: string;
  /** the filtered `output` of /responses/compact: what a Responses request would send as input */
  replacementHistory: ResponsesItem[];
  /** the last `compaction` (or `compaction_summary`) item of the output */
  compactionItem: ResponsesItem;
  createdAt: string;
}

/** OpenAI's own models on OpenAI's API (not OpenAI-compatible local servers: they have no such endpoint). */
export function supportsNativeCompaction(model: ModelInfo | undefined): model is ModelInfo {
  return model !== undefined && model.provider === 'openai' && model.api === 'openai-completions';
}

/** call_id as the Responses API accepts it: [A-Za-z0-9_-], at most 64 characters. */
function callId(id: string): string {
  const clean = id.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean.length <= 64 ? clean : clean.slice(0, 64);
}

function textParts(content: LlmMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

/**
 * Converts the conversation to Responses input items. Thinking is dropped (Chat Completions gives us no
 * encrypted reasoning to send back). A function_call without its output, or an output without its call,
 * is dropped: the API rejects both.
 */
export function toResponsesInput(messages: readonly AgentMessage[]): ResponsesItem[] {
  const llm = convertToLlm(messages);
  const answered = new Set<string>();
  const called = new Set<string>();
  for (const m of llm) {
    if (m.role === 'toolResult') answered.add(callId(m.toolCallId));
    if (m.role === 'assistant') for (const b of m.content) if (b.type === 'toolCall') called.add(callId(b.id));
  }
  const items: ResponsesItem[] = [];
  for (const m of llm) {
    if (m.role === 'user') {
      const content =
        typeof m.content === 'string'
          ? [{ type: 'input_text', text: m.content }]
          : m.content.map((b) =>
              b.type === 'image' ? { type: 'input_image', detail: 'auto', image_url: `data:${b.mimeType};base64,${b.data}` } : { type: 'input_text', text: b.text },
            );
      if (content.length > 0) items.push({ type: 'message', role: 'user', content });
    } else if (m.role === 'system') {
      const text = systemMessageText(m);
      if (text) items.push({ type: 'message', role: 'developer', content: text });
    } else if (m.role === 'assistant') {
      const text = textParts(m.content);
      if (text.trim() !== '') items.push({ type: 'message', role: 'assistant', content: text });
      for (const b of m.content) {
        if (b.type !== 'toolCall' || !answered.has(callId(b.id))) continue;
        items.push({ type: 'function_call', call_id: callId(b.id), name: b.name, arguments: JSON.stringify(b.arguments ?? {}) });
      }
    } else if (called.has(callId(m.toolCallId))) {
      items.push({ type: 'function_call_output', call_id: callId(m.toolCallId), output: textParts(m.content) });
    }
  }
  return items;
}

/** The previous native compaction on the path, when it came from the same provider. */
export function previousNativeCompaction(preserveData: Record<string, unknown> | undefined, provider: string): OpenAIRemoteCompaction | undefined {
  const data = preserveData?.[OPENAI_REMOTE_COMPACTION_KEY];
  if (!data || typeof data !== 'object') return undefined;
  const record = data as Partial<OpenAIRemoteCompaction>;
  if (record.provider !== provider || !Array.isArray(record.replacementHistory)) return undefined;
  return record as OpenAIRemoteCompaction;
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
  /** everything on the path the compaction covers: summarized, turn prefix and kept messages */
  messages: readonly AgentMessage[];
  /** the previous compaction's summary, sent when there is no previous replacement history */
  previousSummary?: string;
  previous?: OpenAIRemoteCompaction;
  /** the session's system prompt */
  instructions?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  log?: (message: string) => void;
}

function estimateChars(items: readonly ResponsesItem[]): number {
  return JSON.stringify(items).length;
}

/** The request input: previous replacement history (or previous summary), then the conversation. */
export function nativeCompactionInput(options: Pick<NativeCompactionOptions, 'messages' | 'previous' | 'previousSummary'>): ResponsesItem[] {
  const head: ResponsesItem[] = options.previous
    ? options.previous.replacementHistory
    : options.previousSummary !== undefined
      ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: compactionSummaryText(options.previousSummary) }] }]
      : [];
  return [...head, ...toResponsesInput(options.messages)];
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
  const base = (options.model.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
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
  return { provider: options.model.provider, model: options.model.id, ...parsed, createdAt: new Date().toISOString() };
}

/** requestNativeCompaction that never fails: undefined (and a log line) instead; cancellation still throws. */
export async function tryNativeCompaction(options: NativeCompactionOptions): Promise<OpenAIRemoteCompaction | undefined> {
  try {
    const result = await requestNativeCompaction(options);
    options.log?.(`compaction: OpenAI native /responses/compact succeeded (${result.replacementHistory.length} items kept)`);
    return result;
  } catch (error) {
    if (error instanceof CompactionCancelled || options.signal?.aborted) throw new CompactionCancelled();
    options.log?.(`compaction: OpenAI native /responses/compact failed (${(error as Error).message}); using the local summary only`);
    return undefined;
  }
}
