// A provider-native compacted context goes to the model only if the user could see what it says: the
// readable messages inside OpenAI's replacement history (its user and assistant items) must each be the
// text of a message on the path before the compaction, which the chat shows (and "Show the original
// messages" opens). A payload whose messages say anything else is dropped, so the summary the chat shows
// is sent instead (docs/reliability.md, "session file (native payloads)"). The encrypted item itself is
// opaque; only the provider can read or make it.
import type { CompactionSummaryMessage } from '../core/messages';
import type { NativeCompactionPayload } from '../core/native-compaction';
import type { SessionEntry } from './entries';

/** Every text block (or string content) of the user and assistant messages among `entries`. */
function shownTexts(entries: readonly SessionEntry[]): Set<string> {
  const texts = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== 'message') continue;
    const message = entry.message as { role?: unknown; content?: unknown };
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    if (typeof message.content === 'string') texts.add(message.content);
    else if (Array.isArray(message.content)) {
      for (const block of message.content) if (block && typeof block === 'object' && typeof block.text === 'string') texts.add(block.text);
    }
  }
  return texts;
}

/** The texts a (shape-checked) OpenAI payload would show the model, one per message content part. */
function payloadTexts(payload: NativeCompactionPayload): string[] {
  return payload.items.flatMap((item) => {
    const record = item as { type?: unknown; content?: unknown };
    return record.type === 'message' && Array.isArray(record.content) ? record.content.map((part: { text?: unknown }) => String(part.text)) : [];
  });
}

/** The payloads whose readable messages the chat shows in `before` (Anthropic's block has none). */
export function seenPayloads(payloads: readonly NativeCompactionPayload[], before: readonly SessionEntry[]): NativeCompactionPayload[] {
  let shown: Set<string> | undefined;
  return payloads.filter((payload) => {
    if (payload.kind !== 'openai') return true;
    shown ??= shownTexts(before);
    return payloadTexts(payload).every((text) => shown!.has(text));
  });
}

/** The summary message with only the native payloads whose readable messages the chat shows before it. */
export function withSeenNative(summary: CompactionSummaryMessage, before: readonly SessionEntry[]): CompactionSummaryMessage {
  if (!summary.native) return summary;
  const kept = seenPayloads(summary.native, before);
  if (kept.length === summary.native.length) return summary;
  const { native: _dropped, ...rest } = summary;
  return kept.length > 0 ? { ...rest, native: kept } : rest;
}
