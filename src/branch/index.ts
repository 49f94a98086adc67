// Public API of branch navigation and branch summaries, for the agent runtime and the VS Code layer.
export { collectEntriesForBranchSummary, findCommonAncestor, type BranchCollection, type BranchReader } from './collect';
export { prepareBranchEntries, branchMessageOf, collectBranchFileOps, SUMMARY_EDGE_SHARE, type PreparedBranch } from './prepare';
export {
  generateBranchSummary,
  buildBranchSummaryPrompt,
  branchInstructions,
  branchTokenBudget,
  BRANCH_SUMMARY_MAX_TOKENS,
  FALLBACK_CONTEXT_WINDOW,
  type BranchSummaryDetails,
  type BranchSummaryResult,
  type GenerateBranchSummaryOptions,
} from './summarize';
export {
  navigateTree,
  type NavigableStore,
  type NavigateOptions,
  type NavigateDeps,
  type NavigateResult,
  type BranchSummarizerDeps,
} from './navigate';
export { resolveNavigationTarget, type NavigationTarget } from './target';
export { insertBranchSummary, forkBranch, NothingToCarry, type CarryDeps, type CarryOptions, type CarryResult } from './carry';
export { planStage, summarizeStage, stageRefused, type StagePlan, type StagePlanResult, type StageOutcome, type StageRefusal, type StageDeps, type StageSummaryDetails } from './stage';
export { planBranchNavigation, type BranchPlan } from './plan';
export * from './hooks';
export * from './errors';
export * from './settings';
