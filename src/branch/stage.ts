// "Summarize from here" (docs/architecture.md, "Summarize from here"): close a finished stage. The entries
// from a chosen entry of the active path to the leaf are summarized into one `branch_summary` entry, a
// child of the chosen entry's parent, and the leaf moves onto it. Nothing is deleted: the originals stay
// as the branch beside it (`details.stage.leafId` is their leaf), one click away in the tree and from the
// marker. pi reads the entry as any branch summary (`fromId`: the attach point, as pi writes it); the
// `details.stage` field says it closed a stage. The model runs
// before anything is written, so a cancel or a failure leaves the file byte for byte as it was.
import type { AgentMessage } from '../core/messages';
import { pinnedEntryIds } from '../session/pins';
import { planUserWords, userWordsBudget, type UserWords, type UserWordsPlan } from '../compaction/user-words';
import { estimateTokens } from '../compaction/tokens';
import type { BranchSummaryEntry, SessionEntry } from '../session/entries';
import { messageFromEntry } from '../session/context';
import { BranchSummaryCancelled, BranchSummaryFailed, NoSummarizerModel } from './errors';
import type { BranchSummarizerDeps, NavigableStore } from './navigate';
import { branchMessageOf } from './prepare';
import { generateBranchSummary, type BranchSummaryDetails } from './summarize';

export type StageRefusal = 'off-path' | 'nothing-to-summarize' | 'spans-compaction' | 'busy' | 'leaf-moved';

export type StageOutcome =
  | { status: 'summarized'; entry: BranchSummaryEntry; summarizedEntryIds: string[] }
  | { status: 'refused'; why: StageRefusal; message: string }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

const REFUSALS: Record<StageRefusal, string> = {
  'off-path': 'Only an entry of the current branch can start a stage: switch to its branch first.',
  'nothing-to-summarize': 'Nothing to summarize from this entry on: no messages follow it.',
  'spans-compaction': 'The stage contains a compaction: summarize from an entry after it.',
  busy: 'Wait for the agent to finish (or stop it) before summarizing a stage.',
  'leaf-moved': 'The conversation moved on while the stage was being summarized; nothing was written.',
};

export function stageRefused(why: StageRefusal): Extract<StageOutcome, { status: 'refused' }> {
  return { status: 'refused', why, message: REFUSALS[why] };
}

/** What Summarize from here would do: shown in the preview, then carried out by `summarizeStage`. */
export interface StagePlan {
  /** the chosen entry: the stage starts here */
  fromEntryId: string;
  /** the summary's parent (the chosen entry's parent; null: the stage starts at the root) */
  parentId: string | null;
  /** the leaf the stage ends at (the originals' tip) */
  leafId: string;
  /** the stage's entries, oldest first */
  entries: SessionEntry[];
  /** messages the summarizer reads, and their estimated tokens */
  messageCount: number;
  tokens: number;
  /** the user's words, kept verbatim (docs/architecture.md, "What the user said"): every user and pinned message of the stage */
  userWords: UserWordsPlan;
}

export type StagePlanResult = { status: 'planned'; plan: StagePlan } | Extract<StageOutcome, { status: 'refused' }>;

/**
 * Where on `path` a stage can start (inclusive indices; none when `from > to`): after the newest compaction
 * (a stage cannot contain one) and no later than the newest entry that carries a message (something must
 * be summarized). `planStage` refuses every other start, and the menus and the chat offer "Summarize from
 * Here" on exactly these (`stageStartIds`): one predicate for the command and for where it is offered.
 */
export function stageStartRange(path: readonly SessionEntry[]): { from: number; to: number } {
  let from = 0;
  let to = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type === 'compaction') {
      from = i + 1;
      break;
    }
    if (to === -1 && branchMessageOf(entry) !== undefined) to = i;
  }
  return { from, to };
}

/** The ids of `path` a stage can start at (see `stageStartRange`). */
export function stageStartIds(path: readonly SessionEntry[]): Set<string> {
  const { from, to } = stageStartRange(path);
  const ids = new Set<string>();
  for (let i = from; i <= to; i++) ids.add(path[i]!.id);
  return ids;
}

/** Plans a stage from `fromEntryId` to the end of `path` (the active path, root first). Pure. */
export function planStage(path: readonly SessionEntry[], fromEntryId: string): StagePlanResult {
  const start = path.findIndex((entry) => entry.id === fromEntryId);
  if (start === -1) return stageRefused('off-path');
  const range = stageStartRange(path);
  if (start < range.from) return stageRefused('spans-compaction');
  if (start > range.to) return stageRefused('nothing-to-summarize');
  const entries = path.slice(start);
  const messages = entries.map(branchMessageOf).filter((m): m is AgentMessage => m !== undefined);
  return {
    status: 'planned',
    plan: {
      fromEntryId,
      parentId: start > 0 ? path[start - 1]!.id : null,
      leafId: path[path.length - 1]!.id,
      entries,
      messageCount: messages.length,
      tokens: messages.reduce((sum, message) => sum + estimateTokens(message), 0),
      userWords: planUserWords(undefined, spanOf(entries), pinnedEntryIds(path), userWordsBudget(undefined)),
    },
  };
}

function spanOf(entries: readonly SessionEntry[]): { id: string; message: AgentMessage }[] {
  return entries.flatMap((entry) => {
    const message = entry.type === 'message' ? messageFromEntry(entry) : undefined;
    return message ? [{ id: entry.id, message }] : [];
  });
}

export interface StageDeps {
  summarizer?: BranchSummarizerDeps;
  customInstructions?: string;
  signal?: AbortSignal;
  /** the chosen entry's label, kept in the details (the marker names the stage by it) */
  label?: string;
}

/** What a stage summary's `details` hold beyond a branch summary's file lists (pi ignores the rest). */
export interface StageSummaryDetails extends BranchSummaryDetails {
  /** the stage's first entry and its leaf (the originals), and the first entry's label */
  stage: { fromEntryId: string; leafId: string; label?: string };
  /** the stage's user and pinned messages, verbatim (carried on by a later compaction that summarizes the stage) */
  userWords?: UserWords;
}

/** Summarizes the planned stage and appends the summary; a typed outcome, never a thrown cancel. */
export async function summarizeStage(store: NavigableStore, plan: StagePlan, deps: StageDeps): Promise<StageOutcome> {
  if (store.getLeafId() !== plan.leafId) return stageRefused('leaf-moved');
  let generated;
  try {
    if (!deps.summarizer) throw new NoSummarizerModel();
    generated = await generateBranchSummary(plan.entries, {
      ...deps.summarizer,
      ...(deps.customInstructions ? { customInstructions: deps.customInstructions } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      preamble: 'stage',
      userWords: plan.userWords,
    });
  } catch (error) {
    if (error instanceof BranchSummaryCancelled) return { status: 'cancelled' };
    if (error instanceof BranchSummaryFailed || error instanceof NoSummarizerModel) return { status: 'failed', message: error.message };
    throw error;
  }
  if (deps.signal?.aborted) return { status: 'cancelled' };
  if (store.getLeafId() !== plan.leafId) return stageRefused('leaf-moved');
  const details: StageSummaryDetails = {
    ...generated.details,
    stage: { fromEntryId: plan.fromEntryId, leafId: plan.leafId, ...(deps.label ? { label: deps.label } : {}) },
    ...(generated.userWords ? { userWords: generated.userWords } : {}),
  };
  const entry = await store.branchWithSummary(plan.parentId, generated.summary, details);
  return { status: 'summarized', entry, summarizedEntryIds: plan.entries.map((e) => e.id) };
}
