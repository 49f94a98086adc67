// The two steps of an in-place compaction, kept apart so background compaction can run the first ahead
// of time (docs/architecture.md, "Background compaction"): `summarizePlan` writes the summary and
// touches nothing on disk; `commitSummary` reviews it, adds the marker figures and appends the entry.
import { CompactionCancelled } from '../errors';
import { estimatedTokensBefore, shrinks } from '../context-figures';
import { estimateTokens } from '../tokens';
import { markerTokensAfter, withMarkerDetails } from '../marker-details';
import { wouldNotShrink, type ChosenCut, type CompactionOutcome } from '../outcome';
import type { CompactionResult } from '../summarize';
import { formatFileOperations } from '../file-ops';
import { summarizerPart, withUserWords } from '../user-ledger';
import { bridgeSectionOf } from '../bridge';
import type { UserWords } from '../user-words';
import { startNativeCompaction } from './native-alongside';
import { summarizeWithCandidates } from './summarizer-candidates';
import type { CompactionPlan, PreparedSummary, StrategyRun } from './types';

export type { PreparedSummary };

/** `details.reason` of a compaction whose cut the user chose ("Compact Up To Here"). */
export const MANUAL_CUT_REASON = 'manual-cut';

type StepRun = Omit<StrategyRun, 'plan' | 'replan'>;

/** Hooks, then the summary (a hook's, or the model's with native compaction alongside). Writes nothing. */
export async function summarizePlan(run: StepRun, plan: CompactionPlan): Promise<PreparedSummary> {
  const { preparation } = plan;
  const branch = run.deps.store.getBranch();
  const reason = run.options.reason;
  const custom = run.options.customInstructions;
  const before = await run.hooks.beforeCompact({ reason, preparation, branchEntries: branch, ...(custom ? { customInstructions: custom } : {}), signal: run.signal });
  if (before.cancel) throw new CompactionCancelled();
  if (before.compaction) return { plan, result: { ...before.compaction }, fromHook: true };
  const hooked = await run.hooks.compacting({ reason, preparation, messages: [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages] });
  const native = startNativeCompaction(run, preparation, branch);
  let summarized;
  try {
    summarized = await summarizeWithCandidates(run, preparation, hooked);
  } catch (error) {
    native.abort();
    throw error;
  }
  const result = summarized.result;
  const remote = await native.result;
  if (remote) result.preserveData = { ...result.preserveData, ...remote };
  if (hooked.preserveData) result.preserveData = { ...result.preserveData, ...hooked.preserveData };
  return { plan, result, fromHook: false, model: summarized.model, cost: summarized.cost, ...(summarized.usage ? { usage: summarized.usage } : {}) };
}

/** The user's review (when asked), the marker figures, then the entry: the only write of a compaction. */
export async function commitSummary(run: StepRun, prepared: PreparedSummary): Promise<CompactionOutcome> {
  const { signal, options, deps } = run;
  const { preparation, chosen } = prepared.plan;
  let result = prepared.result;
  if (signal.aborted) throw new CompactionCancelled();
  if (options.review) {
    const reviewed = await options.review(forReview(result), preparation, signal);
    if (!reviewed || signal.aborted) throw new CompactionCancelled();
    result = afterReview(reviewed, result);
  }
  // The summary as written (and edited) must leave the context smaller, or nothing is saved.
  const fixedOverheadTokens = deps.fixedOverheadTokens?.() ?? 0;
  const tokensAfter = markerTokensAfter(result.summary, { preparation, fixedOverheadTokens, ...(deps.estimator ? { estimator: deps.estimator } : {}) });
  const tokensBefore = estimatedTokensBefore(preparation, deps.estimator ?? estimateTokens, fixedOverheadTokens);
  if (!shrinks(tokensBefore, tokensAfter)) {
    deps.log?.(`compaction: refused, the summary would not shrink the context (~${tokensBefore} → ~${tokensAfter} tokens)`);
    return wouldNotShrink({ tokensBefore, tokensAfter });
  }
  result = withMarkerDetails(result, {
    reason: chosen?.ok ? MANUAL_CUT_REASON : options.reason,
    preparation,
    fixedOverheadTokens,
    ...(deps.estimator ? { estimator: deps.estimator } : {}),
    ...(prepared.model ? { summarizer: prepared.model } : {}),
    ...(prepared.cost ? { cost: prepared.cost } : {}),
  });
  assertStillOnBranch(run, preparation.firstKeptEntryId);
  const entry = await deps.store.appendCompaction({
    summary: result.summary,
    firstKeptEntryId: result.firstKeptEntryId,
    tokensBefore: result.tokensBefore,
    ...(result.details !== undefined ? { details: result.details } : {}),
    ...(prepared.fromHook ? { fromHook: true } : {}),
    ...(result.shortSummary ? { shortSummary: result.shortSummary } : {}),
    ...(result.preserveData ? { preserveData: result.preserveData } : {}),
    ...(prepared.usage ? { usage: prepared.usage } : {}),
    reason: options.reason,
    tokensAfter: (result.details as { tokensAfter: number }).tokensAfter,
  });
  await run.hooks.compact({ reason: options.reason, entry, fromHook: prepared.fromHook });
  return {
    status: 'compacted',
    entry,
    result,
    fromHook: prepared.fromHook,
    autoContinue: options.reason === 'threshold' && run.settings.autoContinue,
    ...(prepared.model ? { model: prepared.model } : {}),
    ...(chosen?.ok ? { cut: chosenCut(chosen, entry.firstKeptEntryId) } : {}),
  };
}

/** The user may have moved to another branch while the summary was written. */
function assertStillOnBranch(run: StepRun, firstKeptEntryId: string): void {
  if (!run.deps.store.getBranch().some((e) => e.id === firstKeptEntryId)) {
    throw new Error('the session moved to another branch while compacting; nothing was saved');
  }
}

function chosenCut(chosen: NonNullable<CompactionPlan['chosen']>, firstKeptEntryId: string): ChosenCut {
  return {
    requestedEntryId: chosen.requestedEntryId,
    firstKeptEntryId,
    snapped: chosen.snapped,
    ...(chosen.note ? { note: chosen.note } : {}),
  };
}

/** The user's kept words Arbor wrote into the result (docs/architecture.md, "What the user said"), if any. */
function keptWords(result: CompactionResult): UserWords | undefined {
  const words = (result.details as { userWords?: UserWords } | undefined)?.userWords;
  return words && words.verbatim.length + words.ledger.length > 0 ? words : undefined;
}

/** What "Edit summary before saving" shows: the summarizer's part only (the bridge and the user's words are Arbor's, not edited). */
function forReview(result: CompactionResult): CompactionResult {
  return arborSections(result) ? { ...result, summary: summarizerPart(result.summary) } : result;
}

function arborSections(result: CompactionResult): boolean {
  return keptWords(result) !== undefined || bridgeSectionOf(result.summary) !== '';
}

/** The edited summary with the bridge, the user's kept words and the file lists put back after it. */
function afterReview(reviewed: CompactionResult, original: CompactionResult): CompactionResult {
  if (!arborSections(original)) return reviewed;
  const words = keptWords(original) ?? { verbatim: [], ledger: [] };
  const bridge = bridgeSectionOf(original.summary);
  const body = bridge === '' ? summarizerPart(reviewed.summary) : `${summarizerPart(reviewed.summary)}\n\n${bridge}`;
  const details = original.details as { readFiles?: string[]; modifiedFiles?: string[] } | undefined;
  const lists = { readFiles: details?.readFiles ?? [], modifiedFiles: details?.modifiedFiles ?? [] };
  return { ...reviewed, summary: withUserWords(body, words) + formatFileOperations(lists) };
}
