// The conversation view of one session entry: what the chat shows of it, built by the entry's kind
// (src/present/kinds/). Built from loosely checked data (the loader accepts any entry with a valid base and
// required fields), so every field goes through the normalisation in normalize-view.ts; what had to be
// repaired is listed in the view's `problems`.
import type { SessionEntry } from '../session/entries';
import { kindOf } from '../present/kinds/index';
import { noteEntryId, type ViewProblems } from '../present/normalize-view';
import type { ConversationEntry } from './view-model';

/** Whether the chat shows `entry` (conversationEntry gives it a view), without building anything. */
export function isShownInConversation(entry: SessionEntry): boolean {
  return kindOf(entry).isShown(entry);
}

/**
 * The conversation view of one entry, or undefined for entries the chat does not show (model/thinking
 * changes, labels, custom data, hidden custom messages). Repairs made to show it are in `view.problems`.
 */
export function conversationEntry(entry: SessionEntry, label?: string): ConversationEntry | undefined {
  const kind = kindOf(entry);
  if (!kind.isShown(entry)) return undefined;
  const problems: ViewProblems = [];
  noteEntryId(entry.id, problems);
  const view = kind.view(entry, label, problems);
  if (view && problems.length > 0) view.problems = problems;
  return view;
}
