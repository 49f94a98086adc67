// The typed result of a compaction run, one home for every caller: the agent's triggers, the chat and the
// commands switch on `status` (and a skip's `why`), never on message text. A manual compaction that did
// not compact throws `CompactionNotDone`, which carries that same outcome.
import type { CompactionEntry } from '../session/entries';
import type { ModelInfo } from '../llm/types';
import type { CompactionReason } from './hooks';
import type { CompactionResult } from './summarize';

/** Where a user-chosen compaction cut: the entry asked for and the entry the kept part starts at. */
export interface ChosenCut {
  requestedEntryId: string;
  firstKeptEntryId: string;
  /** the chosen entry could not start the kept part; the cut moved back to the nearest one that can */
  snapped: boolean;
  /** why and where it moved (snapped only) */
  note?: string;
}

/**
 * `invalid-cut`: the chosen entry is off the path or already summarized; `turn-running`: a chosen cut waits for the agent to finish (the path would change under it);
 * `would-not-shrink`: the summary plus the kept part would be no smaller than the context now (./context-figures.ts), so nothing is saved.
 */
export type SkipReason = 'disabled' | 'already-compacted' | 'nothing-to-compact' | 'busy' | 'invalid-cut' | 'turn-running' | 'would-not-shrink';

/** The context now and after, for a `would-not-shrink` refusal (the figures the preview shows). */
export interface ContextFigures {
  tokensBefore: number;
  tokensAfter: number;
}

export type CompactionOutcome =
  | {
      status: 'compacted';
      entry: CompactionEntry;
      result: CompactionResult;
      fromHook: boolean;
      autoContinue: boolean;
      model?: ModelInfo;
      /** set when the cut was the user's (RunOptions.keepFrom) */
      cut?: ChosenCut;
    }
  | { status: 'handoff'; document: string; customType: 'handoff'; content: string }
  | { status: 'skipped'; why: SkipReason; message: string; figures?: ContextFigures }
  | { status: 'cancelled' }
  /** `errorMessage`: the whole sentence for the trigger (failureMessage); `detail`: the cause alone, for callers with their own wording */
  | { status: 'failed'; errorMessage: string; detail?: string };

export const SKIP_MESSAGES: Record<SkipReason, string> = {
  disabled: 'Automatic compaction is turned off.',
  'already-compacted': 'Already compacted.',
  'nothing-to-compact': 'Nothing to compact (session too small).',
  busy: 'A compaction is already running.',
  'invalid-cut': 'That entry cannot be compacted up to.',
  'turn-running': 'Wait for the agent to finish (or stop it) before compacting up to an entry.',
  'would-not-shrink': 'Not compacted: a summary would not make the context smaller. Nothing was saved.',
};

/** "12.3k" / "950": token counts in messages, as the chat's meter writes them. */
function tokensText(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(Math.round(tokens));
}

/** The refusal of a compaction that would not shrink the context, with both figures. */
export function wouldNotShrink(figures: ContextFigures): Extract<CompactionOutcome, { status: 'skipped' }> {
  const message = `Not compacted: a summary would not make the context smaller (~${tokensText(figures.tokensBefore)} now, ~${tokensText(figures.tokensAfter)} after). Nothing was saved.`;
  return { status: 'skipped', why: 'would-not-shrink', message, figures };
}

/** Failure wording per trigger, as omp words it (docs/pi-compatibility.md "When compaction runs"). */
export function failureMessage(reason: CompactionReason, detail: string): string {
  switch (reason) {
    case 'overflow':
      return `Context overflow recovery failed: ${detail}`;
    case 'length':
      return `Incomplete response recovery failed: ${detail}`;
    case 'threshold':
    case 'idle':
      return `Auto-compaction failed: ${detail}`;
    default:
      return `Compaction failed: ${detail}`;
  }
}


/** The outcomes of a run that shrank the context (in place, or by starting a new session). */
export type CompactionDoneOutcome = Extract<CompactionOutcome, { status: 'compacted' | 'handoff' }>;

export function isDone(outcome: CompactionOutcome | undefined): outcome is CompactionDoneOutcome {
  return outcome?.status === 'compacted' || outcome?.status === 'handoff';
}

/** The outcomes of a run that compacted nothing. */
export type CompactionNotDoneOutcome = Extract<CompactionOutcome, { status: 'skipped' | 'cancelled' | 'failed' }>;

/** Thrown by a manual compaction that compacted nothing; `outcome` says why (typed, for commands and chat). */
export class CompactionNotDone extends Error {
  constructor(readonly outcome: CompactionNotDoneOutcome) {
    super(describeNotDone(outcome));
    this.name = 'CompactionNotDone';
  }
}

export function failed(reason: CompactionReason, detail: string): Extract<CompactionOutcome, { status: 'failed' }> {
  return { status: 'failed', errorMessage: failureMessage(reason, detail), detail };
}

export function skipped(why: SkipReason): Extract<CompactionOutcome, { status: 'skipped' }> {
  return { status: 'skipped', why, message: SKIP_MESSAGES[why] };
}

function describeNotDone(outcome: CompactionNotDoneOutcome): string {
  switch (outcome.status) {
    case 'skipped':
      return outcome.message.replace(/\.$/, '');
    case 'cancelled':
      return 'Compaction cancelled';
    case 'failed':
      return outcome.errorMessage;
  }
}
