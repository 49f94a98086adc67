// A provider's own compacted context, carried from a compaction entry to the provider that can read it
// (docs/architecture.md "Native compaction"). The entry keeps it in `preserveData` next to the local
// summary; context building puts it on the summary message; the Responses and Anthropic converters
// send it in place of the summary text, and every other provider (or model) sends the summary.
// Nothing here talks to a network: src/compaction/openai-native.ts and anthropic-native.ts fetch it.
import { anthropicCompactionBlock } from './native-anthropic-block';
import { openaiCompactItems } from './native-items';

/** preserveData key of OpenAI's `/responses/compact` output (omp's name, so files stay interchangeable). */
export const OPENAI_REMOTE_COMPACTION_KEY = 'openaiRemoteCompaction';
/** preserveData key of Anthropic's on-demand `compaction` block. */
export const ANTHROPIC_COMPACTION_KEY = 'anthropicCompaction';

export type NativeCompactionKind = 'openai' | 'anthropic';

export interface NativeCompactionPayload {
  kind: NativeCompactionKind;
  provider: string;
  model: string;
  /** the base URL the payload was made at, normalized (nativeBaseUrl); it goes nowhere else */
  baseUrl?: string;
  /** OpenAI: the replacement history items; Anthropic: the one compaction block */
  items: unknown[];
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * OpenAI's replacement history is used only when Arbor wrote it: Arbor compacts just the summarized
 * messages (`scope: "summarized"`) and sends the kept ones after the items; omp's covers the kept
 * messages too, which would then be sent twice.
 */
function openaiPayload(data: Record<string, unknown> | undefined): NativeCompactionPayload | undefined {
  if (!data || data.scope !== 'summarized') return undefined;
  if (typeof data.provider !== 'string' || typeof data.model !== 'string' || typeof data.baseUrl !== 'string') return undefined;
  // Only the shapes /responses/compact returns (src/core/native-items.ts).
  const items = openaiCompactItems(data.replacementHistory);
  if (!items) return undefined;
  return { kind: 'openai', provider: data.provider, model: data.model, baseUrl: nativeBaseUrl(data.baseUrl), items };
}

/** The default OpenAI endpoint, for a model without a base URL. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The default Anthropic endpoint, for a model without a base URL. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** A base URL as native payloads are bound to it: the provider's default when unset, no trailing slash. */
export function nativeBaseUrl(baseUrl: string | undefined, kind: NativeCompactionKind = 'openai'): string {
  return (baseUrl ?? (kind === 'anthropic' ? ANTHROPIC_DEFAULT_BASE_URL : OPENAI_DEFAULT_BASE_URL)).replace(/\/+$/, '');
}

/**
 * Anthropic's block is used only in the shape Anthropic returns (a signed `compaction` block, no other
 * field: native-anthropic-block.ts) and bound to the provider, model and base URL stored with it; a
 * session file cannot make Arbor send other text in place of the summary the chat shows.
 */
function anthropicPayload(data: Record<string, unknown> | undefined): NativeCompactionPayload | undefined {
  if (!data || typeof data.provider !== 'string' || typeof data.model !== 'string' || typeof data.baseUrl !== 'string') return undefined;
  const block = anthropicCompactionBlock(data.block);
  if (!block) return undefined;
  return { kind: 'anthropic', provider: data.provider, model: data.model, baseUrl: nativeBaseUrl(data.baseUrl, 'anthropic'), items: [block] };
}

/** The native payloads a compaction entry's preserveData holds (none when absent or malformed). */
export function nativePayloadsOf(preserveData: unknown): NativeCompactionPayload[] {
  const data = record(preserveData);
  const out = [openaiPayload(record(data?.[OPENAI_REMOTE_COMPACTION_KEY])), anthropicPayload(record(data?.[ANTHROPIC_COMPACTION_KEY]))];
  return out.filter((p): p is NativeCompactionPayload => p !== undefined);
}

/** What the chat marker says about a native context: whose it is, for which model, at which host. */
export interface NativeContextNote {
  provider: string;
  model: string;
  /** the host of the base URL it is bound to */
  host?: string;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** The marker's note for one payload. */
export function nativeContextNote(p: NativeCompactionPayload): NativeContextNote {
  return { provider: p.provider, model: p.model, ...(p.baseUrl ? { host: hostOf(p.baseUrl) } : {}) };
}

/** The native contexts a compaction entry would send in place of its summary, for the chat marker. */
export function nativeContextNotes(preserveData: unknown): NativeContextNote[] {
  return nativePayloadsOf(preserveData).map(nativeContextNote);
}

/** Field of the summary's user message (an in-memory extra, never written to a file). */
export const NATIVE_COMPACTION_FIELD = 'nativeCompaction';

/**
 * The items to send instead of this message, when it is a compaction summary with a payload of this
 * kind from the same provider, bound to the model and base URL of the request that made it.
 */
export function nativeItemsFor(
  message: Record<string, unknown>,
  model: { provider: string; id: string; baseUrl?: string; nativeCompaction?: boolean },
  kind: NativeCompactionKind,
): unknown[] | undefined {
  const payloads = message[NATIVE_COMPACTION_FIELD];
  if (!Array.isArray(payloads)) return undefined;
  const found = (payloads as NativeCompactionPayload[]).find((p) => p.kind === kind && p.provider === model.provider);
  if (!found) return undefined;
  return boundTo(found, model) ? found.items : undefined;
}

/** A native payload goes only to the model and endpoint that made it. */
function boundTo(payload: NativeCompactionPayload, model: { id: string; baseUrl?: string }): boolean {
  return payload.model === model.id && payload.baseUrl === nativeBaseUrl(model.baseUrl, payload.kind);
}

/** The heading Arbor's user-words section starts with (prompts/compaction/user-words.md). */
const USER_WORDS_HEADING = '## What the User Said (verbatim)';
const TRAILING_FILE_BLOCKS = /(?:\s*<(read-files|modified-files)>\n[\s\S]*?\n<\/\1>)+\s*$/;

/**
 * The user's kept words in a compaction summary message (docs/architecture.md, "What the user said"), or
 * undefined. A native payload replaces the summary text, and the provider wrote it from the summarized
 * messages alone: the words Arbor kept (also from earlier compactions) are sent next to it.
 */
export function keptUserWordsOf(message: Record<string, unknown>): string | undefined {
  const content = message.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (typeof b?.text === 'string' ? b.text : '')).join('\n') : '';
  const start = text.indexOf(`\n${USER_WORDS_HEADING}\n`);
  if (start < 0) return undefined;
  const end = text.lastIndexOf('\n</summary>');
  const section = text.slice(start + 1, end > start ? end : undefined).replace(TRAILING_FILE_BLOCKS, '');
  return section.trim() === '' ? undefined : section.trimEnd();
}
