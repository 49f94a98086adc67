// What a branch switch would do, without calling a model: the data behind `arbor-session branch-plan`
// and a preview for the UI (how much of the abandoned branch the summarizer would read).
import { computeFileLists } from '../compaction/file-ops';
import type { TokenEstimator } from '../compaction/tokens';
import { collectEntriesForBranchSummary, type BranchReader } from './collect';
import { UnknownNavigationTarget } from './errors';
import { prepareBranchEntries } from './prepare';
import { resolveNavigationTarget } from './target';

export interface BranchPlan {
  commonAncestorId: string | null;
  /** abandoned entries, oldest first */
  collectedEntryIds: string[];
  /** collected entries whose messages fit the budget, oldest first */
  includedEntryIds: string[];
  /** where the leaf would go (null: before the first entry) */
  newLeafId: string | null;
  /** text returned for editing when the target is a user/custom message, else null */
  editorText: string | null;
  readFiles: string[];
  modifiedFiles: string[];
  tokenBudget: number;
  /** estimated tokens of the included messages */
  totalTokens: number;
}

export function planBranchNavigation(
  store: BranchReader,
  fromId: string | null,
  toId: string,
  tokenBudget: number,
  estimator?: TokenEstimator,
): BranchPlan {
  const target = store.getEntry(toId);
  if (!target) throw new UnknownNavigationTarget(toId);
  const { entries, commonAncestorId } = collectEntriesForBranchSummary(store, fromId, toId);
  const prepared = prepareBranchEntries(entries, tokenBudget, estimator);
  const lists = computeFileLists(prepared.fileOps);
  const resolved = resolveNavigationTarget(target);
  const newLeafId = resolved.newLeafId !== null && store.getEntry(resolved.newLeafId) ? resolved.newLeafId : null;
  return {
    commonAncestorId,
    collectedEntryIds: entries.map((e) => e.id),
    includedEntryIds: prepared.includedEntryIds,
    newLeafId: fromId === toId ? fromId : newLeafId,
    editorText: fromId === toId ? null : resolved.editorText ?? null,
    readFiles: lists.readFiles,
    modifiedFiles: lists.modifiedFiles,
    tokenBudget,
    totalTokens: prepared.totalTokens,
  };
}
