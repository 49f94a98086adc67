// What every compaction strategy shares (issue 17: one strategy per file): the runner's dependencies, a
// run's options and plan, and the strategy contract. A strategy is one file that exports a
// `CompactionStrategy` and is registered in ./index.ts; it returns a typed `CompactionOutcome`.
import type { LlmMessage, Usage } from '../../core/messages';
import type { KeyResolver, ModelInfo, Provider, ThinkingLevel, ToolDefinition } from '../../llm/types';
import type { CompactionEntry, SessionEntry } from '../../session/entries';
import type { CompactionFields } from '../../session/store-types';
import type { CompactionHookRegistry, CompactionReason } from '../hooks';
import type { CompactionOutcome, ContextFigures, SkipReason } from '../outcome';
import type { ChosenCutPreparation, CompactionPreparation } from '../prepare';
import type { CompactionStrategy as StrategyName, CompactionSettings } from '../settings';
import type { CompactionResult } from '../summarize';
import type { SummarizerCost } from '../metered-provider';
import type { TokenEstimator } from '../tokens';

export type { StrategyName };

/** The store operations compaction needs (SessionStore satisfies this). */
export interface CompactionStore {
  getBranch(): SessionEntry[];
  appendCompaction(fields: CompactionFields): Promise<CompactionEntry>;
}

export interface RetryPolicy {
  /** retries per candidate after the first attempt */
  maxRetries: number;
  baseDelayMs: number;
  /** a wait longer than this moves on to the next candidate instead (when there is one) */
  switchCandidateAfterMs: number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface CompactionRunnerDeps {
  store: CompactionStore;
  settings: () => CompactionSettings;
  /** the session's current model and every model the user can use */
  models: () => { current: ModelInfo | undefined; available: readonly ModelInfo[] };
  /** a provider for a model, or undefined when it has no credentials */
  providerFor: (model: ModelInfo) => Provider | undefined | Promise<Provider | undefined>;
  hooks?: CompactionHookRegistry;
  estimator?: TokenEstimator;
  /** tokens of the system prompt + tools (improves the usage/estimate ratio) */
  fixedOverheadTokens?: () => number;
  thinkingLevel?: () => ThinkingLevel | undefined;
  /** live request context for the handoff strategy (cache-friendly); defaults to the session context */
  liveContext?: () => { systemPrompt: string; messages: LlmMessage[]; tools?: ToolDefinition[] };
  retry?: Partial<RetryPolicy>;
  log?: (message: string) => void;
  fetchImpl?: typeof fetch;
  /** API keys, for native compaction (./native-alongside.ts); without it native compaction is skipped */
  keys?: KeyResolver;
  /** timeout of the native compaction request (default 120 s) */
  nativeCompactionTimeoutMs?: number;
}

export interface RunOptions {
  reason: CompactionReason;
  customInstructions?: string;
  /** overflow/length recovery retries the turn afterwards (reported in the end event) */
  willRetry?: boolean;
  /**
   * Called with the generated result before it is saved (preview-and-edit UI). Return the result to
   * save (possibly with an edited summary) or undefined to cancel.
   */
  review?: (result: CompactionResult, preparation: CompactionPreparation, signal?: AbortSignal) => Promise<CompactionResult | undefined>;
  /**
   * "Compact Up To Here": keep the path from this entry on and summarize what comes before it (see
   * prepareCompactionAt for the rules). Always compacts in place.
   */
  keepFrom?: string;
  /** the user asked for this strategy (e.g. "/handoff"): it runs whatever the settings say, with no fallback */
  strategy?: StrategyName;
  /** a summary written ahead of time (background compaction) and checked still valid: committed as is */
  prepared?: PreparedSummary;
}

/** What a run summarizes: the preparation, and for a chosen cut where it came from. */
export interface CompactionPlan {
  preparation: CompactionPreparation;
  chosen?: Extract<ChosenCutPreparation, { ok: true }>;
}

/** A summary written for a plan and not yet saved. */
export interface PreparedSummary {
  plan: CompactionPlan;
  result: CompactionResult;
  fromHook: boolean;
  model?: ModelInfo;
  cost?: SummarizerCost;
  usage?: Usage;
}

export type Skip = { skip: { why: SkipReason; message: string; figures?: ContextFigures } };
export type Planned = Skip | { plan: CompactionPlan };

/** One run of a strategy: everything it may use. */
export interface StrategyRun {
  deps: CompactionRunnerDeps;
  hooks: CompactionHookRegistry;
  retry: RetryPolicy;
  options: RunOptions;
  settings: CompactionSettings;
  signal: AbortSignal;
  /** the plan made when the run was checked (strategies that need a cut) */
  plan: CompactionPlan | undefined;
  /** plans again (a strategy that falls back after time passed) */
  replan(): Planned;
}

export interface CompactionStrategy {
  readonly name: StrategyName;
  /** which automatic triggers it takes when the setting names it (default all; the rest compact in place) */
  handles?(reason: CompactionReason): boolean;
  /** why this strategy does not run for this request (checked before anything starts) */
  refuse?(options: RunOptions): SkipReason | undefined;
  /** whether the run needs a cut planned before it starts (and skips when there is none) */
  needsCut(options: RunOptions): boolean;
  run(run: StrategyRun): Promise<CompactionOutcome>;
}
