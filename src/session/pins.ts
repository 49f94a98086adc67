// Pinned messages (docs/architecture.md, "Pins"): a pin or an unpin is a `custom` entry of type
// `arbor.pin` with `{ targetId, pinned }`, appended at the leaf like any other entry, so nothing is ever
// deleted and pi (which ignores unknown custom entries) reads the file unchanged. A pin holds on the
// branch it was made on: the newest pin or unpin of a target on the path wins. Compaction keeps pinned
// messages verbatim, outside its budget (src/compaction/user-words.ts); the chat and both trees show the mark.
import type { SessionEntry } from './entries';

/** `custom` entries with this type pin or unpin a message: `{ targetId, pinned }`. */
export const PIN_CUSTOM_TYPE = 'arbor.pin';

export interface PinChange {
  targetId: string;
  pinned: boolean;
}

/** What a pin entry does, or undefined for any other entry (a pin without `pinned: false` pins). */
export function pinChangeOf(entry: SessionEntry): PinChange | undefined {
  if (entry.type !== 'custom' || entry.customType !== PIN_CUSTOM_TYPE) return undefined;
  const data = entry.data as { targetId?: unknown; pinned?: unknown } | undefined;
  if (typeof data?.targetId !== 'string') return undefined;
  return { targetId: data.targetId, pinned: data.pinned !== false };
}

/** The data of a new pin entry. */
export function pinData(targetId: string, pinned: boolean): PinChange {
  return { targetId, pinned };
}

/** Ids of the messages pinned on this path, root first (a later unpin of the same target wins). */
export function pinnedEntryIds(path: readonly SessionEntry[]): Set<string> {
  const pinned = new Set<string>();
  for (const entry of path) {
    const change = pinChangeOf(entry);
    if (!change) continue;
    if (change.pinned) pinned.add(change.targetId);
    else pinned.delete(change.targetId);
  }
  return pinned;
}

/** Only the user's and the assistant's messages with text can be pinned (what compaction can keep). */
export function isPinnable(entry: SessionEntry): boolean {
  if (entry.type !== 'message') return false;
  const message = entry.message;
  if (message.role === 'user') return typeof message.content === 'string' ? message.content.trim() !== '' : message.content.some((b) => b.type === 'text' && b.text.trim() !== '');
  if (message.role === 'assistant') return message.content.some((b) => b.type === 'text' && b.text.trim() !== '');
  return false;
}
