// Which session entries carry a message, and which entries open a new user turn.
// Entry → message mapping is the context builder's (`messageFromEntry`): compaction entries produce no
// message (the previous summary travels separately as `previousSummary`), and empty branch summaries
// still yield one so they count as turn boundaries.
import type { AgentMessage } from '../core/messages';
import type { SessionEntry } from '../session/entries';
import { messageFromEntry } from '../session/context';

/** The message an entry contributes to the summarized / kept span, if any (docs/pi-compatibility.md "What a compaction summarizes"). */
export const compactionMessageOf: (entry: SessionEntry) => AgentMessage | undefined = messageFromEntry;

export function messagesOf(entries: readonly SessionEntry[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (const entry of entries) {
    const message = compactionMessageOf(entry);
    if (message) out.push(message);
  }
  return out;
}

/** A valid place to start the kept part: anything but tool results and metadata (docs/pi-compatibility.md "What a compaction summarizes"). */
export function isCutPoint(entry: SessionEntry): boolean {
  if (entry.type === 'custom_message' || entry.type === 'branch_summary') return true;
  if (entry.type !== 'message') return false;
  const role = (entry as Extract<SessionEntry, { type: 'message' }>).message.role;
  return role !== 'toolResult';
}

/** An entry that starts a user turn: user or `!cmd` messages, injected custom messages, branch summaries. */
export function isTurnStart(entry: SessionEntry): boolean {
  if (entry.type === 'custom_message' || entry.type === 'branch_summary') return true;
  if (entry.type !== 'message') return false;
  const role = (entry as Extract<SessionEntry, { type: 'message' }>).message.role;
  return role === 'user' || role === 'bashExecution' || role === 'custom';
}

/** Settings changes, labels, extension state: entries that never reach the model. */
export function isMetadata(entry: SessionEntry): boolean {
  return entry.type !== 'message' && entry.type !== 'compaction' && !isCutPoint(entry);
}
