// Turns abandoned entries into summarizer input within a token budget (docs/pi-compatibility.md "Branch summaries").
// Newest entries win: the summary is about where the branch ended up. Tool results are left out
// (the assistant's calls and replies say what mattered), and an earlier summary near the budget edge is
// still taken while the budget is under 90 % used, because it stands for everything before it.
import type { AgentMessage } from '../core/messages';
import type { SessionEntry } from '../session/entries';
import { compactionSummaryMessage, messageFromEntry } from '../session/context';
import { isExtensionSummary } from '../session/entry-fields';
import { addFileOpsFromDetails, addFileOpsFromMessage, createFileOps, type FileOperations } from '../compaction/file-ops';
import { estimateTokens, type TokenEstimator } from '../compaction/tokens';

/** Share of the budget below which an oversized summary entry is still included. */
export const SUMMARY_EDGE_SHARE = 0.9;

export interface PreparedBranch {
  /** oldest first */
  messages: AgentMessage[];
  /** cumulative: tool calls of every collected entry plus earlier generated summaries' details */
  fileOps: FileOperations;
  totalTokens: number;
  /** ids of the entries whose messages are in `messages`, oldest first */
  includedEntryIds: string[];
}

/** The summarizer-input message of an entry, or undefined (tool results, metadata, empty summaries). */
export function branchMessageOf(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === 'compaction') return entry.summary ? compactionSummaryMessage(entry) : undefined;
  if (entry.type === 'branch_summary' && !entry.summary) return undefined;
  const message = messageFromEntry(entry);
  if (!message || message.role === 'toolResult') return undefined;
  return message;
}

function isSummaryEntry(entry: SessionEntry): boolean {
  return entry.type === 'compaction' || entry.type === 'branch_summary';
}

/**
 * File operations of all entries, regardless of the budget. Nested branch summaries add theirs (not when
 * a hook wrote them); a compaction's lists are not used: they reach back before the common ancestor,
 * and the abandoned branch's own messages are all here to count from.
 */
export function collectBranchFileOps(entries: readonly SessionEntry[]): FileOperations {
  const ops = createFileOps();
  for (const entry of entries) {
    if (entry.type === 'branch_summary') {
      addFileOpsFromDetails(ops, entry.details, isExtensionSummary(entry));
    } else if (entry.type === 'message') {
      const message = messageFromEntry(entry);
      if (message) addFileOpsFromMessage(ops, message);
    }
  }
  return ops;
}

/**
 * `tokenBudget` <= 0 means no limit. Walks newest → oldest and stops at the first message that does
 * not fit (a summary entry that does not fit is still taken under the 0.9 rule, then the walk stops).
 */
export function prepareBranchEntries(
  entries: readonly SessionEntry[],
  tokenBudget = 0,
  estimator: TokenEstimator = estimateTokens,
): PreparedBranch {
  const fileOps = collectBranchFileOps(entries);
  const messages: AgentMessage[] = [];
  const includedEntryIds: string[] = [];
  let totalTokens = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const message = branchMessageOf(entry);
    if (!message) continue;
    const tokens = estimator(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      if (isSummaryEntry(entry) && totalTokens < tokenBudget * SUMMARY_EDGE_SHARE) {
        messages.push(message);
        includedEntryIds.push(entry.id);
        totalTokens += tokens;
      }
      break;
    }
    messages.push(message);
    includedEntryIds.push(entry.id);
    totalTokens += tokens;
  }
  messages.reverse();
  includedEntryIds.reverse();
  return { messages, fileOps, totalTokens, includedEntryIds };
}
