// Moving to another point of the conversation tree (docs/pi-compatibility.md "Branch summaries"), optionally summarizing the branch
// being left. Everything that can fail or be cancelled (hooks, the summarizer) runs before the store is
// touched, so a cancelled or failed navigation leaves the leaf where it was and the file unchanged.
import type { ImageContent, Usage } from '../core/messages';
import type { ModelInfo, Provider } from '../llm/types';
import type { BranchSummaryEntry, SessionEntry } from '../session/entries';
import type { TokenEstimator } from '../compaction/tokens';
import { collectEntriesForBranchSummary, type BranchReader } from './collect';
import { BranchSummaryCancelled, LeafMovedDuringSummary, NoSummarizerModel, UnknownNavigationTarget } from './errors';
import type { BeforeTreeNavigationResult, TreeNavigationHookRegistry } from './hooks';
import { generateBranchSummary, type BranchSummaryDetails } from './summarize';
import { resolveNavigationTarget } from './target';

/** The parts of the session store navigation uses (SessionStore satisfies it). */
export interface NavigableStore extends BranchReader {
  getLeafId(): string | null;
  branch(id: string): void;
  resetLeaf(): void;
  branchWithSummary(fromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: Usage): Promise<BranchSummaryEntry>;
  appendLabelChange(targetId: string, label: string | undefined): Promise<unknown>;
}

export interface NavigateOptions {
  /** summarize the branch being left into the new position */
  summarize?: boolean;
  customInstructions?: string;
  /** customInstructions replace our prompt instead of adding focus to it */
  replaceInstructions?: boolean;
  /** label to set on the summary entry, or on the target when there is no summary (pi) */
  label?: string;
  /** aborting cancels the navigation (while hooks run or the summary is generated) */
  signal?: AbortSignal;
}

/** The summarizer model; needed only when a summary is generated (not when a hook provides it). */
export interface BranchSummarizerDeps {
  provider: Provider;
  model: ModelInfo;
  /** `arbor.branchSummary.reserveTokens` */
  reserveTokens: number;
  estimator?: TokenEstimator;
}

export interface NavigateDeps {
  summarizer?: BranchSummarizerDeps;
  hooks?: TreeNavigationHookRegistry;
}

export interface NavigateResult {
  /** true when nothing happened because a hook or the user cancelled */
  cancelled: boolean;
  /** the cancellation was the user's abort during summarization (as opposed to a hook's cancel) */
  aborted?: boolean;
  /** a short, user-facing reason when cancelled */
  message?: string;
  /** text of the picked user/custom message, for editing and resending */
  editorText?: string;
  /** the picked user message's images, resent with it */
  editorImages?: ImageContent[];
  summaryEntry?: BranchSummaryEntry;
  /** the leaf after the navigation (the old leaf when cancelled or a no-op) */
  newLeafId: string | null;
  oldLeafId: string | null;
}

interface Plan {
  summarize: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
  hookSummary?: { summary: string; details?: unknown };
}

function cancelled(oldLeafId: string | null, message: string, aborted = false): NavigateResult {
  return { cancelled: true, ...(aborted ? { aborted } : {}), message, newLeafId: oldLeafId, oldLeafId };
}

/** Linked abort: the caller's signal cancels ours; hooks get ours. */
function linkedController(signal: AbortSignal | undefined): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (!signal) return { controller, dispose: () => {} };
  if (signal.aborted) controller.abort(signal.reason);
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => signal.removeEventListener('abort', onAbort) };
}

function applyHookOverrides(plan: Plan, result: BeforeTreeNavigationResult): void {
  if (result.customInstructions !== undefined) plan.customInstructions = result.customInstructions;
  if (result.replaceInstructions !== undefined) plan.replaceInstructions = result.replaceInstructions;
  if (result.label !== undefined) plan.label = result.label;
  if (plan.summarize && result.summary) plan.hookSummary = result.summary;
}

async function summaryFor(
  entries: readonly SessionEntry[],
  plan: Plan,
  deps: NavigateDeps,
  signal: AbortSignal,
): Promise<{ summary: string; details?: unknown; fromHook: boolean; usage?: Usage } | undefined> {
  if (!plan.summarize || entries.length === 0) return undefined;
  if (plan.hookSummary) return { ...plan.hookSummary, fromHook: true };
  if (!deps.summarizer) throw new NoSummarizerModel();
  const result = await generateBranchSummary(entries, {
    ...deps.summarizer,
    ...(plan.customInstructions !== undefined ? { customInstructions: plan.customInstructions } : {}),
    ...(plan.replaceInstructions !== undefined ? { replaceInstructions: plan.replaceInstructions } : {}),
    signal,
  });
  const details: BranchSummaryDetails = result.details;
  return { summary: result.summary, details, fromHook: false, ...(result.usage ? { usage: result.usage } : {}) };
}

/**
 * Moves to `targetId`. Same target as the leaf: no-op. Unknown target: UnknownNavigationTarget.
 * A cancelled navigation resolves with `cancelled: true`; a failed summary rejects with
 * BranchSummaryFailed (or NoSummarizerModel); in both cases nothing was written.
 */
export async function navigateTree(
  store: NavigableStore,
  targetId: string,
  options: NavigateOptions = {},
  deps: NavigateDeps = {},
): Promise<NavigateResult> {
  const oldLeafId = store.getLeafId();
  if (targetId === oldLeafId) return { cancelled: false, newLeafId: oldLeafId, oldLeafId };
  const target = store.getEntry(targetId);
  if (!target) throw new UnknownNavigationTarget(targetId);

  const { entries, commonAncestorId } = collectEntriesForBranchSummary(store, oldLeafId, targetId);
  const plan: Plan = {
    summarize: options.summarize === true,
    ...(options.customInstructions !== undefined ? { customInstructions: options.customInstructions } : {}),
    ...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
    ...(options.label !== undefined ? { label: options.label } : {}),
  };
  const { controller, dispose } = linkedController(options.signal);
  let summary: Awaited<ReturnType<typeof summaryFor>>;
  try {
    if (deps.hooks) {
      const result = await deps.hooks.beforeTreeNavigation({
        preparation: { targetId, oldLeafId, commonAncestorId, entriesToSummarize: entries, userWantsSummary: plan.summarize, ...withoutSummary(plan) },
        signal: controller.signal,
      });
      if (result.cancel) return cancelled(oldLeafId, 'Navigation cancelled');
      applyHookOverrides(plan, result);
    }
    if (controller.signal.aborted) return cancelled(oldLeafId, 'Navigation cancelled', true);
    try {
      summary = await summaryFor(entries, plan, deps, controller.signal);
    } catch (error) {
      if (error instanceof BranchSummaryCancelled) return cancelled(oldLeafId, error.message, true);
      throw error;
    }
    if (controller.signal.aborted) return cancelled(oldLeafId, summary ? 'Branch summarization cancelled' : 'Navigation cancelled', true);
  } finally {
    dispose();
  }
  const leafNow = store.getLeafId();
  if (leafNow !== oldLeafId) throw new LeafMovedDuringSummary(oldLeafId, leafNow);

  const resolved = resolveNavigationTarget(target);
  // An orphan's missing parent cannot become the leaf: it is a root, so "before it" is before everything.
  const newPosition = resolved.newLeafId !== null && store.getEntry(resolved.newLeafId) ? resolved.newLeafId : null;
  let summaryEntry: BranchSummaryEntry | undefined;
  if (summary) {
    summaryEntry = await store.branchWithSummary(newPosition, summary.summary, summary.details, summary.fromHook ? true : undefined, summary.usage);
  } else if (newPosition === null) {
    store.resetLeaf();
  } else {
    store.branch(newPosition);
  }
  const label = plan.label?.trim();
  if (label) await store.appendLabelChange(summaryEntry?.id ?? targetId, label);

  const newLeafId = store.getLeafId();
  if (deps.hooks) {
    await deps.hooks.afterNavigation({
      newLeafId,
      oldLeafId,
      ...(summaryEntry ? { summaryEntry, fromHook: summary?.fromHook === true } : {}),
    });
  }
  return {
    cancelled: false,
    ...(resolved.editorText !== undefined ? { editorText: resolved.editorText } : {}),
    ...(resolved.editorImages ? { editorImages: resolved.editorImages } : {}),
    ...(summaryEntry ? { summaryEntry } : {}),
    newLeafId,
    oldLeafId,
  };
}

function withoutSummary(plan: Plan): Pick<Plan, 'customInstructions' | 'replaceInstructions' | 'label'> {
  const { customInstructions, replaceInstructions, label } = plan;
  return {
    ...(customInstructions !== undefined ? { customInstructions } : {}),
    ...(replaceInstructions !== undefined ? { replaceInstructions } : {}),
    ...(label !== undefined ? { label } : {}),
  };
}
