// "Carry a summary across": bring the lessons of another branch into the current one without leaving
// it. The other branch (from its leaf back to where it split from the current path) is summarized and
// appended at the current leaf as a branch_summary, so the next turn sees it. Like navigation, the
// model runs before anything is written: a cancel or a failure leaves the session as it was.
import type { BranchSummaryEntry } from '../session/entries';
import { forkBranch } from '../session/catalog';
import { collectEntriesForBranchSummary, findCommonAncestor } from './collect';
import { BranchSummaryCancelled, LeafMovedDuringSummary, UnknownNavigationTarget } from './errors';
import type { BranchSummarizerDeps, NavigableStore } from './navigate';
import { generateBranchSummary } from './summarize';

export { forkBranch };

export interface CarryOptions {
  customInstructions?: string;
  replaceInstructions?: boolean;
  signal?: AbortSignal;
}

export interface CarryDeps extends CarryOptions {
  summarizer: BranchSummarizerDeps;
}

/** Nothing to carry: the source branch is the current path (or part of it). */
export class NothingToCarry extends Error {
  constructor(sourceLeafId: string) {
    super(`Entry ${sourceLeafId} is on the current path; there is no other branch to summarize`);
    this.name = 'NothingToCarry';
  }
}

export interface CarryResult {
  summaryEntry: BranchSummaryEntry;
  /** where the other branch split from the current path (null: separate roots) */
  commonAncestorId: string | null;
  /** the entries that were summarized, oldest first */
  summarizedEntryIds: string[];
}

/**
 * Summarizes the branch ending at `sourceLeafId` and appends the summary at the current leaf.
 * Throws BranchSummaryCancelled (signal aborted), BranchSummaryFailed, NothingToCarry,
 * UnknownNavigationTarget (unknown source) or LeafMovedDuringSummary.
 */
export async function insertBranchSummary(store: NavigableStore, sourceLeafId: string, deps: CarryDeps): Promise<CarryResult> {
  if (!store.getEntry(sourceLeafId)) throw new UnknownNavigationTarget(sourceLeafId);
  const currentLeafId = store.getLeafId();
  const { entries } = collectEntriesForBranchSummary(store, sourceLeafId, currentLeafId);
  if (entries.length === 0) throw new NothingToCarry(sourceLeafId);
  const result = await generateBranchSummary(entries, {
    ...deps.summarizer,
    ...(deps.customInstructions !== undefined ? { customInstructions: deps.customInstructions } : {}),
    ...(deps.replaceInstructions !== undefined ? { replaceInstructions: deps.replaceInstructions } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
    preamble: 'carry',
  });
  if (deps.signal?.aborted) throw new BranchSummaryCancelled();
  const leafNow = store.getLeafId();
  if (leafNow !== currentLeafId) throw new LeafMovedDuringSummary(currentLeafId, leafNow);
  const summaryEntry = await store.branchWithSummary(currentLeafId, result.summary, result.details, undefined, result.usage);
  return {
    summaryEntry,
    commonAncestorId: findCommonAncestor(store, sourceLeafId, currentLeafId),
    summarizedEntryIds: entries.map((e) => e.id),
  };
}
