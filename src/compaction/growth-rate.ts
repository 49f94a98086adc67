// How fast the context grows and how long a summary takes (docs/architecture.md, "Background
// compaction"): the background band starts as far below the threshold as the context is expected to grow
// while a summary is written, so fast turns do not reach the threshold before the summary is ready.
// Pure and clock-free: callers pass the time of each observation (tests use a manual clock).

/** Summary time assumed before one was measured: a 1–2k-token summary at tens of tokens per second. */
export const DEFAULT_SUMMARY_MS = 20_000;
/** The expected growth is scaled by this, so a slightly slower summary or faster turn is still covered. */
export const GROWTH_MARGIN = 1.25;
/** Weight of the newest observation in the running averages. */
const SMOOTHING = 0.5;
/** A rate from fewer turns is noise (a first big paste, a session being loaded): the band stays put. */
export const MIN_GROWTH_SAMPLES = 3;

interface Observation {
  at: number;
  tokens: number;
}

/** What is known about the growth of one session's context. */
export interface GrowthEstimate {
  tokensPerSecond: number;
  tokensPerTurn: number;
  summaryMs: number;
  /** whether summaryMs was measured (false: DEFAULT_SUMMARY_MS) */
  summaryMeasured: boolean;
}

export class GrowthMeter {
  private last: Observation | undefined;
  private perSecond: number | undefined;
  private perTurn: number | undefined;
  private summary: number | undefined;
  private samples = 0;

  /**
   * The context measured at `at` (ms). A smaller context (a compaction, pruning) restarts the
   * measurement; the same figure again (one turn checked twice) is not a new observation.
   */
  observe(at: number, tokens: number): void {
    const last = this.last;
    if (last && tokens === last.tokens) return;
    this.last = { at, tokens };
    if (!last || tokens < last.tokens || at <= last.at) return;
    const added = tokens - last.tokens;
    this.samples++;
    this.perTurn = smooth(this.perTurn, added);
    this.perSecond = smooth(this.perSecond, (added * 1000) / (at - last.at));
  }

  /** A summary (background or not) took `ms` from request to answer. */
  summaryTook(ms: number): void {
    if (Number.isFinite(ms) && ms > 0) this.summary = smooth(this.summary, ms);
  }

  /** Undefined until the context was seen growing MIN_GROWTH_SAMPLES times. */
  estimate(): GrowthEstimate | undefined {
    if (this.perSecond === undefined || this.perTurn === undefined || this.samples < MIN_GROWTH_SAMPLES) return undefined;
    return {
      tokensPerSecond: this.perSecond,
      tokensPerTurn: this.perTurn,
      summaryMs: this.summary ?? DEFAULT_SUMMARY_MS,
      summaryMeasured: this.summary !== undefined,
    };
  }

  /**
   * Tokens the context is expected to gain while one summary is written, with the margin, plus one
   * turn (the threshold is checked at the end of a turn, so the crossing turn may overshoot it).
   */
  expectedGrowth(): number | undefined {
    const estimate = this.estimate();
    return estimate === undefined ? undefined : leadTokens(estimate);
  }
}

export function leadTokens(estimate: GrowthEstimate): number {
  return Math.ceil((estimate.tokensPerSecond * estimate.summaryMs * GROWTH_MARGIN) / 1000 + estimate.tokensPerTurn);
}

function smooth(previous: number | undefined, next: number): number {
  return previous === undefined ? next : previous * (1 - SMOOTHING) + next * SMOOTHING;
}
