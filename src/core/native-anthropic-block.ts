// What a session file may make Arbor send to Anthropic in place of the compaction summary: the one
// `compaction` block on-demand compaction returns (docs/architecture.md "Native compaction";
// docs/reliability.md, "session file (native payloads)"). Only its own fields are accepted: a non-empty
// `content`, Anthropic's `signature` (the API checks it against the content, so a block Arbor did not
// get from Anthropic is refused there too), `encrypted_content` (a string or null) and no `tool_changes`.
// Anything else refuses the block, and the local summary the chat shows is sent instead.
import { MAX_ENCRYPTED_CHARS } from './native-items';

const MAX_TEXT = 4_000_000;
const MAX_SIGNATURE = 65_536;
const ALLOWED = ['type', 'content', 'encrypted_content', 'signature', 'tool_changes'];

export type AnthropicCompactionBlock = Record<string, unknown> & { type: 'compaction' };

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const bounded = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

function fieldsValid(raw: Record<string, unknown>): boolean {
  if (raw.type !== 'compaction' || !Object.keys(raw).every((key) => ALLOWED.includes(key))) return false;
  if (!bounded(raw.content, MAX_TEXT) || !bounded(raw.signature, MAX_SIGNATURE)) return false;
  if (raw.encrypted_content !== undefined && raw.encrypted_content !== null && !bounded(raw.encrypted_content, MAX_ENCRYPTED_CHARS)) return false;
  return raw.tool_changes === undefined || raw.tool_changes === null;
}

/** The block rebuilt from its known fields, or undefined when it is not the shape Anthropic returns. */
export function anthropicCompactionBlock(raw: unknown): AnthropicCompactionBlock | undefined {
  if (!isRecord(raw) || !fieldsValid(raw)) return undefined;
  const block: AnthropicCompactionBlock = { type: 'compaction', content: raw.content };
  if ('encrypted_content' in raw) block.encrypted_content = raw.encrypted_content;
  block.signature = raw.signature;
  return block;
}
