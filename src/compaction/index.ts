// Public API of the compaction engine, for the agent runtime and the VS Code layer.
export * from './settings';
export * from './thresholds';
export * from './growth-rate';
export * from './tokens';
export { findCutPoint, snapCutPoint, type CutPointResult, type ChosenCutResult } from './cut-point';
export {
  prepareCompaction,
  prepareCompactionAt,
  compactionCutTargets,
  measureContext,
  newestTurnTokens,
  type CompactionPreparation,
  type PrepareOptions,
  type ChosenCutPreparation,
  type ChosenCutRefusal,
} from './prepare';
export { answerText, callSummarizerModel, type SummarizerCall, type SummarizerOutcome } from './summarizer-call';
export { serializeConversation, truncateToolOutput, TOOL_RESULT_MAX_CHARS } from './serialize';
export * from './file-ops';
export { checkSummarySections, checkFileTags, REQUIRED_SECTIONS } from './guard';
export {
  compact,
  generateSummary,
  generateTurnPrefixSummary,
  generateShortSummary,
  buildSummaryPrompt,
  mergeSplitTurn,
  mergesSplitTurn,
  type CompactionResult,
  type CompactionDetails,
  type SummarizeOptions,
} from './summarize';
export * from './pruning';
export * from './hooks';
export * from './errors';
export { generateHandoff, handoffMessageContent, HANDOFF_CUSTOM_TYPE, type HandoffContext } from './handoff';
export { checkRemoteEndpoint, requestRemoteSummary, RemoteEndpointRefused, isLoopbackHost } from './remote';
export {
  supportsNativeCompaction,
  nativeCompactionInput,
  parseCompactResponse,
  requestNativeCompaction,
  OPENAI_REMOTE_COMPACTION_KEY,
  NATIVE_COMPACTION_TIMEOUT_MS,
  type OpenAIRemoteCompaction,
  type ResponsesItem,
} from './openai-native';
export { ANTHROPIC_COMPACTION_KEY, compactionBlockOf, requestAnthropicCompaction, supportsAnthropicCompaction, type AnthropicCompaction } from './anthropic-native';
export { OverflowGuard, OVERFLOW_GIVE_UP_MESSAGE } from './overflow-guard';
export { buildPreview, type CompactionPreview } from './preview';
export { TAIL_SLACK, bridgeable } from './bridge-commit';
export { bridgeDetailsOf, type BridgeDetails } from './bridge-origin';
export { modelCandidates } from './candidates';
export {
  CompactionRunner,
  failureMessage,
  autoContinuePrompt,
  DEFAULT_RETRY_POLICY,
  type CompactionRunnerDeps,
  type CompactionStore,
  type CompactionOutcome,
  type CompactionEvent,
  type CompactionAction,
  type PreparedSummary,
  type RunOptions,
  type RetryPolicy,
  type SkipReason,
  type ChosenCut,
  MANUAL_CUT_REASON,
} from './runner';
export { CompactionNotDone, failed, isDone, skipped, wouldNotShrink, SKIP_MESSAGES, type CompactionDoneOutcome, type CompactionNotDoneOutcome, type ContextFigures } from './outcome';
export { contextTokensAfter, estimatedContextTokens, shrinks } from './context-figures';
export { STRATEGIES, strategyFor } from './strategies';
export type { CompactionStrategy, StrategyName } from './strategies/types';
