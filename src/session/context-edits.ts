// pi 1.5's `context_edit` entries (docs/architecture.md, sessions): an edit on the branch replaces an
// earlier entry's content, or omits the entry (replacement null), whenever the context is built; the file
// keeps the original. The latest edit of a target wins. Compaction summarizes the projected content too.
import type { AgentMessage } from '../core/messages';
import type { ContextEditEntry, SessionEntry } from './entries';

export type ContextEdits = ReadonlyMap<string, ContextEditEntry>;

/** Edits among `entries` by target id (later ones win). */
export function contextEditsOf(entries: Iterable<SessionEntry>): Map<string, ContextEditEntry> {
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of entries) if (entry.type === 'context_edit') edits.set(entry.targetId, entry);
  return edits;
}

const EDITABLE_ROLES = new Set(['user', 'assistant', 'toolResult', 'custom']);

/** `message` as the model sees it after `edit`: undefined when omitted, else possibly with new content. */
export function applyContextEdit(message: AgentMessage, edit: ContextEditEntry | undefined): AgentMessage | undefined {
  if (!edit) return message;
  const replacement = edit.replacement;
  if (replacement === null) return undefined;
  if (!EDITABLE_ROLES.has(message.role)) return message;
  const asBlocks = (message.role === 'assistant' || message.role === 'toolResult') && typeof replacement.content === 'string';
  const content = asBlocks ? [{ type: 'text', text: replacement.content }] : replacement.content;
  return { ...message, content } as AgentMessage;
}
