// "Warn before automatic compaction" (`arbor.compaction.warnBeforeAuto`, issue 6 "Preview and
// confirmation"): before a threshold or idle compaction the user is asked "compact now / later". Only
// maintenance asks; overflow and incomplete-output recovery never do, because the turn cannot go on
// without them. A "later" is remembered so the user is not asked again for every turn: the question comes
// back once the context has grown by a meaningful margin, or after any compaction (e.g. a manual one).

/** The automatic compactions that may be deferred. */
export type DeferrableReason = 'threshold' | 'idle';

export interface AutoCompactionQuestion {
  reason: DeferrableReason;
  /** context tokens now (threshold: the reply's context; idle: the newest prompt tokens) */
  contextTokens: number;
  /** the limit that was crossed (threshold: the compaction threshold; idle: idleThresholdTokens) */
  threshold: number;
  /** the model's context window */
  window: number;
}

export type AutoCompactionAnswer = 'compact' | 'defer';

/**
 * Asks the user before an automatic compaction (the VS Code layer shows a notification). The signal
 * aborts when the question no longer matters (the user stopped the agent, or started a new turn while an
 * idle question was open); an aborted question may resolve with anything, its answer is ignored.
 */
export interface CompactionConfirmer {
  confirm(question: AutoCompactionQuestion, signal: AbortSignal): Promise<AutoCompactionAnswer>;
}

/** How much the context must grow after a "later" before the user is asked again: 5% of the window. */
export const DEFER_GROWTH_SHARE = 0.05;

export function deferGrowthTokens(window: number): number {
  return Math.max(1, Math.ceil(window * DEFER_GROWTH_SHARE));
}

interface Deferral {
  /** context tokens when the user said "later" */
  tokens: number;
  /** the limit that was crossed then: once the context is back under it, the deferral is over */
  threshold: number;
  /** ask again from this size on */
  askAgainAt: number;
}

/** The user's latest "later", per agent session (a new or reopened session starts without one). */
export class CompactionDeferral {
  private current: Deferral | undefined;

  /** True while a "later" still covers an automatic compaction at `contextTokens`. */
  covers(contextTokens: number): boolean {
    return this.current !== undefined && contextTokens < this.current.askAgainAt;
  }

  get askAgainAt(): number | undefined {
    return this.current?.askAgainAt;
  }

  /** Remembers a "later"; returns the size from which the user will be asked again. */
  defer(question: AutoCompactionQuestion): number {
    const askAgainAt = question.contextTokens + deferGrowthTokens(question.window);
    this.current = { tokens: question.contextTokens, threshold: question.threshold, askAgainAt };
    return askAgainAt;
  }

  /**
   * The context was measured below the automatic threshold (after a navigation to a smaller branch, for
   * instance): the old "later" is over, so the next crossing asks again.
   */
  observeBelowThreshold(contextTokens: number): void {
    if (this.current && contextTokens <= this.current.threshold) this.current = undefined;
  }

  /** Any compaction (manual, automatic or recovery) ends the deferral. */
  clear(): void {
    this.current = undefined;
  }
}
