// What a compaction or branch-summary marker says (issue 17, "markers tell the truth"): the summarizer and
// what it cost, saved in the entry's `details` (src/compaction/marker-details.ts), and the context after a
// compaction. That figure is the estimate saved in the entry until the next request exists; then it is the
// next request's prompt tokens as the provider counted them, less the estimate of what was added after the
// compaction (the user's next prompt, an auto-continue note). Derived from the reply already in the file,
// so nothing is appended or rewritten and a reload shows the same.
import { estimateTokens, hasValidUsage, promptTokens } from '../compaction/tokens';
import type { SessionEntry } from '../session/entries';
import { messageFromEntry as messageOf } from '../session/context';
import type { BranchSummaryView, CompactionView, ConversationEntry } from './view-types';

/** How far after a compaction its next reply is looked for (a turn's entries; bounds a pathological path). */
export const MEASURE_SCAN_LIMIT = 2_000;

/** Summarizer label and cost from an entry's details (compaction or branch summary). */
export function addSummarizerFigures(view: CompactionView | BranchSummaryView, details: Record<string, unknown>): void {
  const summarizer = details.summarizer as { provider?: unknown; id?: unknown } | undefined;
  if (summarizer && typeof summarizer.id === 'string' && summarizer.id) view.model = summarizer.id;
  const cost = (details.cost as { total?: unknown } | undefined)?.total;
  if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) view.cost = cost;
}

/** The estimate saved with a compaction (details.tokensAfter, else the entry's pi 1.5 field). */
export function savedTokensAfter(entry: { tokensAfter?: unknown }, details: Record<string, unknown>): number | undefined {
  const value = typeof details.tokensAfter === 'number' ? details.tokensAfter : entry.tokensAfter;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/** The measured context after the compaction at `path[index]`, or undefined while no reply reported usage. */
export function measuredTokensAfter(path: readonly SessionEntry[], index: number): number | undefined {
  let added = 0;
  const end = Math.min(path.length, index + 1 + MEASURE_SCAN_LIMIT);
  for (let i = index + 1; i < end; i++) {
    const entry = path[i]!;
    if (entry.type === 'compaction' || entry.type === 'branch_summary') return undefined;
    const message = messageOf(entry);
    if (!message) continue;
    if (message.role !== 'assistant') added += estimateTokens(message);
    else if (hasValidUsage(message)) return Math.max(0, promptTokens(message.usage) - added);
  }
  return undefined;
}

/** Sets the measured figure on every compaction view of `views` (built from `path`). */
export function measureCompactions(views: readonly ConversationEntry[], path: readonly SessionEntry[], indexOf: (id: string) => number): void {
  for (const view of views) {
    if (view.kind !== 'compaction') continue;
    const measured = measuredTokensAfter(path, indexOf(view.id));
    if (measured === undefined) continue;
    view.tokensAfter = measured;
    delete view.tokensAfterEstimated;
  }
}

/** Whether `entry` is the first reply with usage after a compaction (its marker's figure just became real). */
export function measuresCompaction(entry: SessionEntry, getEntry: (id: string) => SessionEntry | undefined): boolean {
  const message = messageOf(entry);
  if (message?.role !== 'assistant' || !hasValidUsage(message)) return false;
  let id = entry.parentId;
  for (let steps = 0; id !== null && steps < MEASURE_SCAN_LIMIT; steps++) {
    const previous = getEntry(id);
    if (!previous) return false;
    if (previous.type === 'compaction') return true;
    const earlier = messageOf(previous);
    if (earlier?.role === 'assistant' && hasValidUsage(earlier)) return false;
    id = previous.parentId;
  }
  return false;
}
