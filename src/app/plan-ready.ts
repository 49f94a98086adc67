// When the chat offers "Run this plan" (docs/architecture.md, "Approval modes"): the one rule, decided on
// the host and sent to the webview as `planReady` in the chat state (the webview only shows it). Offered
// when the agent is idle, the mode is Plan, and the newest message on the current branch is a finished
// reply with text that was written while the session was in Plan mode. Not after an error or a stopped
// reply, not in an empty session, not while a turn runs; once the plan is run the mode is no longer Plan,
// and the reply that carries it out was not written in Plan mode, so it stays hidden after that.
import { approvalModeOf, type ApprovalMode } from '../core/approval-modes';
import type { MessageEntry, SessionEntry } from '../session/entries';

/** What the rule reads of a session (a SessionStore has it). */
export interface PlanSession {
  getLeafEntry(): SessionEntry | undefined;
  getEntry(id: string): SessionEntry | undefined;
  /** every entry in file order (the order they were written in) */
  getEntries(): SessionEntry[];
}

export interface PlanReadyInput {
  mode: ApprovalMode;
  busy: boolean;
  session: PlanSession | undefined;
}

export function planReady({ mode, busy, session }: PlanReadyInput): boolean {
  if (mode !== 'plan' || busy || !session) return false;
  const reply = newestMessage(session);
  return reply !== undefined && isFinishedReply(reply) && modeWhenWritten(session.getEntries(), reply) === 'plan';
}

/** The newest message entry on the branch, skipping bookkeeping (mode, model, label, compaction entries). */
function newestMessage(session: PlanSession): MessageEntry | undefined {
  const seen = new Set<string>();
  for (let entry = session.getLeafEntry(); entry && !seen.has(entry.id); entry = entry.parentId ? session.getEntry(entry.parentId) : undefined) {
    seen.add(entry.id);
    if (entry.type === 'message') return entry as MessageEntry;
  }
  return undefined;
}

/** An assistant reply that ended on its own (not an error, a stop, a cut-off or a tool call) and says something. */
function isFinishedReply(entry: MessageEntry): boolean {
  const message = entry.message;
  if (message.role !== 'assistant' || message.stopReason !== 'stop') return false;
  return message.content.some((block) => block.type === 'text' && block.text.trim() !== '');
}

/** The mode recorded last before `reply` in file order (a mode is written before the request it applies to); Ask when none. */
function modeWhenWritten(entries: readonly SessionEntry[], reply: SessionEntry): ApprovalMode {
  let i = entries.length - 1;
  while (i >= 0 && entries[i] !== reply && entries[i]!.id !== reply.id) i--;
  for (i--; i >= 0; i--) {
    const mode = approvalModeOf(entries[i]!);
    if (mode) return mode;
  }
  return 'ask';
}
