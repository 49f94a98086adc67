// What a session file may make Arbor send to OpenAI as opaque provider items: the replacement history of
// `/responses/compact` (docs/architecture.md "Native compaction") and a thinking block's reasoning item.
// A session file is outside input (docs/reliability.md, "Native payloads"): compact items are accepted
// only with the fields the provider itself returns, so a file cannot smuggle a developer message, a
// remote file or an image URL, or any unknown field, to the model in place of what the chat shows
// (anything else refuses the whole payload: the local summary is sent). Reasoning items are rebuilt from
// their known fields (unknown ones dropped), or not sent when a known field has the wrong shape.

type Item = Record<string, unknown> & { type: string };

/** OpenAI's own limit on one `encrypted_content` string. */
export const MAX_ENCRYPTED_CHARS = 10_485_760;
const MAX_ITEM_ID = 512;
const MAX_TEXT = 4_000_000;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_TEXT;
const itemId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ITEM_ID && /^[A-Za-z0-9_+/=.-]+$/.test(v);
const encrypted = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ENCRYPTED_CHARS;

/** The fields each item may have, as the compact endpoint returns them; any other field refuses the payload. */
const ALLOWED: Record<string, readonly string[]> = {
  message: ['type', 'role', 'id', 'status', 'content'],
  compaction: ['type', 'id', 'encrypted_content', 'created_by'],
  compaction_summary: ['type', 'id', 'encrypted_content', 'created_by'],
  input_text: ['type', 'text'],
  output_text: ['type', 'text', 'annotations', 'logprobs'],
};

function onlyKnownFields(raw: Record<string, unknown>): boolean {
  const allowed = ALLOWED[String(raw.type)];
  return !!allowed && Object.keys(raw).every((key) => allowed.includes(key));
}

const emptyList = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0);

/** Text parts of one kind only (`input_text` for the user, `output_text` for the assistant), nothing else. */
function textParts(content: unknown, kind: 'input_text' | 'output_text'): Item[] | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const parts: Item[] = [];
  for (const part of content) {
    if (!isRecord(part) || part.type !== kind || !onlyKnownFields(part) || !text(part.text)) return undefined;
    if (!emptyList(part.annotations) || !emptyList(part.logprobs)) return undefined;
    parts.push(kind === 'output_text' ? { type: kind, text: part.text, annotations: [] } : { type: kind, text: part.text });
  }
  return parts;
}

function messageItem(raw: Record<string, unknown>): Item | undefined {
  const kind = raw.role === 'user' ? 'input_text' : raw.role === 'assistant' ? 'output_text' : undefined;
  const content = kind && textParts(raw.content, kind);
  if (!content) return undefined;
  const item: Item = { type: 'message', role: raw.role as string, content };
  if (itemId(raw.id)) item.id = raw.id;
  if (raw.status === 'completed') item.status = 'completed';
  return item;
}

function compactionItem(raw: Record<string, unknown>): Item | undefined {
  if (!encrypted(raw.encrypted_content)) return undefined;
  const item: Item = { type: raw.type as string, encrypted_content: raw.encrypted_content };
  if (itemId(raw.id)) item.id = raw.id;
  return item;
}

/**
 * The replacement history as `/responses/compact` returns it: user messages (input text only),
 * assistant messages (output text only) and at least one `compaction` item. Undefined when any item
 * has another shape: the whole payload is refused, never partly sent.
 */
export function openaiCompactItems(items: unknown): Item[] | undefined {
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const out: Item[] = [];
  for (const raw of items) {
    if (!isRecord(raw) || !onlyKnownFields(raw)) return undefined;
    const item = raw.type === 'message' ? messageItem(raw) : raw.type === 'compaction' || raw.type === 'compaction_summary' ? compactionItem(raw) : undefined;
    if (!item) return undefined;
    out.push(item);
  }
  return out.some((i) => i.type !== 'message') ? out : undefined;
}

function summaryParts(value: unknown, kind: 'summary_text' | 'reasoning_text'): Item[] | undefined {
  if (value === undefined || value === null) return kind === 'summary_text' ? [] : undefined;
  if (!Array.isArray(value)) return undefined;
  const parts: Item[] = [];
  for (const part of value) {
    if (!isRecord(part) || part.type !== kind || !text(part.text)) return undefined;
    parts.push({ type: kind, text: part.text });
  }
  return parts;
}

/**
 * A Responses reasoning item rebuilt from its known fields (type, id, summary, encrypted_content,
 * content); unknown fields are dropped. Undefined when a known field has the wrong shape.
 */
export function reasoningItem(raw: unknown): Item | undefined {
  if (!isRecord(raw) || raw.type !== 'reasoning' || !itemId(raw.id)) return undefined;
  const summary = summaryParts(raw.summary, 'summary_text');
  if (!summary) return undefined;
  const item: Item = { type: 'reasoning', id: raw.id, summary };
  if (raw.encrypted_content !== undefined && raw.encrypted_content !== null) {
    if (!encrypted(raw.encrypted_content)) return undefined;
    item.encrypted_content = raw.encrypted_content;
  }
  if (raw.content !== undefined && raw.content !== null) {
    const content = summaryParts(raw.content, 'reasoning_text');
    if (!content) return undefined;
    item.content = content;
  }
  return item;
}
