// Short human descriptions of entries, shared by `tree`, `stats` and `export` (each entry kind's, in
// src/present/kinds/).
import type { SessionEntry } from '../session/entries';
import { kindOf } from '../present/kinds/index';

export { messageText } from '../present/kinds/message';

/** `user`, `assistant`, `toolResult`, … for messages; the entry type otherwise. */
export function entryKind(entry: SessionEntry): string {
  return kindOf(entry).cliKind(entry);
}

export function entryPreview(entry: SessionEntry, max = 60): string {
  const flat = String(kindOf(entry).cliText(entry) ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
