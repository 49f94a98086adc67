// Background compaction (issue 17; docs/architecture.md, "Background compaction"): once the context enters
// the band below the threshold, the threshold compaction's summary is written ahead of time, while the
// user goes on. The band adapts to the measured growth (tokens per second and per turn) and summary time
// (../compaction/growth-rate.ts), and the summary keeps less than keepRecentTokens by the growth expected
// before the commit, so the committed context is about what a foreground compaction leaves. At the
// threshold a ready summary is committed without waiting, if it is still valid: the path it summarized is
// still a prefix of the current path, no compaction came after it, the settings and model are the same,
// and the kept part has not outgrown its allowance. At the commit, what came while it was written beyond
// keepRecentTokens is bridged: shortened into the summary text, no model call (CompactionRunner.bridged);
// right after a commit the next summary starts when the context is in the band. A summary that cannot be
// bridged and was started too early (before the summary time was known) is written once more closer to
// the threshold, the first kept as a fallback. Anything else takes the normal path. Nothing is written
// before the commit; a failure is only logged.
import {
  GrowthMeter,
  TAIL_SLACK,
  backgroundBandStart,
  bridgeDetailsOf,
  bridgeable,
  compactionThreshold,
  inBackgroundBand,
  type CompactionRunner,
  type CompactionSettings,
  type PreparedSummary,
} from '../compaction';
import type { ModelInfo } from '../llm/types';
import type { SessionEntry } from '../session/entries';


export interface BackgroundHost {
  runner: CompactionRunner;
  branch(): readonly SessionEntry[];
  settings(): CompactionSettings;
  model(): ModelInfo;
  /** the clock of the growth measurement (default Date.now) */
  now?: () => number;
  log?: (message: string) => void;
}

/** What the summary was written from. */
interface Snapshot {
  leafId: string;
  length: number;
  tokens: number;
  key: string;
  /** the keepRecentTokens its plan used */
  kept: number;
  /** the growth it may absorb before the commit (kept part included) */
  allowance: number;
}

interface Job {
  snapshot: Snapshot;
  controller: AbortController;
  done: Promise<PreparedSummary | undefined>;
  ready?: PreparedSummary;
}

/** Why a background summary can no longer be committed. */
export type Staleness = 'path' | 'compacted' | 'settings' | 'growth';

export class BackgroundCompaction {
  private job: Job | undefined;
  /** a ready summary kept while a better-placed one is written (at most one per compaction) */
  private fallback: Job | undefined;
  private rewritten = false;
  /** a failed summary is not retried in the background until the next compaction */
  private failed = false;
  /** growth of the context and time of a summary, measured in this session */
  readonly growth = new GrowthMeter();

  constructor(private readonly host: BackgroundHost) {}

  /** The job in flight (tests and the bench wait for it). */
  get pending(): Promise<PreparedSummary | undefined> | undefined {
    return this.job?.done;
  }

  /** A check below the threshold: starts the summary when the context is in the band and none is valid. */
  consider(tokens: number): void {
    this.growth.observe(this.now(), tokens);
    if (this.failed || !inBackgroundBand(tokens, this.host.model().contextWindow, this.host.settings(), this.growth.expectedGrowth())) return;
    const job = this.job;
    if (job && this.staleness(job.snapshot, tokens) === undefined) {
      if (this.worthRewriting(job, tokens)) this.rewrite(job, tokens);
      return;
    }
    if (job) this.cancel('it went stale before the threshold');
    this.start(tokens);
  }

  /**
   * Below the threshold: a ready, valid summary whose kept part has grown to keepRecentTokens is committed
   * now rather than at the threshold, so the context it leaves is what a foreground compaction leaves
   * (committed at the threshold, the turns that came meanwhile would stay in the context too).
   */
  commitDue(tokens: number): boolean {
    const job = this.job;
    if (!job?.ready || this.staleness(job.snapshot, tokens) !== undefined) return false;
    // Only in the band as measured now: a summary written too early (before its time was known) would
    // compact far below the threshold, and more often than the foreground path.
    // Checked once a turn: within half a turn of keepRecentTokens is as close as it gets (the foreground cut
    // overshoots keepRecentTokens by part of a turn as well).
    const halfTurn = (this.growth.estimate()?.tokensPerTurn ?? 0) / 2;
    return tokens >= this.bandStart() && keptAfter(job.snapshot, tokens) >= this.host.settings().keepRecentTokens - halfTurn;
  }

  /**
   * At the threshold: the summary to commit, or undefined for the normal path. A valid one still being
   * written is awaited unless a ready fallback is valid: its remainder is never longer than writing a new
   * one, and costs no new tokens.
   */
  async take(tokens: number): Promise<PreparedSummary | undefined> {
    this.growth.observe(this.now(), tokens);
    const job = this.job;
    if (!job) return undefined;
    const before = this.staleness(job.snapshot, tokens);
    if (before) return this.discard(before, tokens);
    if (!job.ready) {
      const fallback = this.validFallback(tokens);
      if (fallback) return this.commit(fallback, tokens, 'the newer one is not ready');
    }
    const prepared = job.ready ?? (await job.done);
    if (this.job !== job || !prepared) return undefined;
    const after = this.staleness(job.snapshot, tokens);
    if (after) return this.discard(after, tokens);
    return this.commit(job, tokens);
  }

  /** Stop, another session, a compaction of its own: the summary in flight (or ready) is dropped. */
  cancel(why: string): void {
    const jobs = [this.job, this.fallback].filter((j): j is Job => j !== undefined);
    this.job = undefined;
    this.fallback = undefined;
    for (const job of jobs) job.controller.abort();
    if (jobs.length > 0) this.host.log?.(`background compaction cancelled: ${why}`);
  }

  /** The leaf moved: a summary of a path that is no longer a prefix of the current one is dropped. */
  leafMoved(): void {
    if (this.fallback && this.pathStale(this.fallback.snapshot)) this.fallback = undefined;
    if (this.job && this.pathStale(this.job.snapshot)) this.cancel('the leaf moved');
  }

  /**
   * A background summary was committed: the next one starts now when the context is in the band. With fast
   * turns the next threshold comes about one summary time later, and a turn's delay is what it would wait.
   */
  committed(tokens: number): void {
    this.reset();
    this.consider(tokens);
  }

  /** A compaction ran: a later band may try again. */
  reset(): void {
    this.failed = false;
    this.rewritten = false;
  }

  private now(): number {
    return (this.host.now ?? Date.now)();
  }

  /**
   * The committed context would exceed keepRecentTokens by more than the slack, and now it would not; only
   * for a summary that cannot be bridged (a hook's, or one with a native payload).
   */
  private worthRewriting(job: Job, tokens: number): boolean {
    // A summary that can be bridged is committed with the bridge instead: a second one is only billed.
    if (!job.ready || bridgeable(job.ready) || this.rewritten || !this.readyBeforeThreshold(tokens)) return false;
    const keep = this.host.settings().keepRecentTokens;
    const { kept, tokens: at } = job.snapshot;
    // The ready one is committed once in the band with keepRecentTokens kept (commitDue); a fresh one
    // keeps keepRecentTokens, or its least plus the growth while it is written.
    const due = Math.max(this.bandStart(), at + keep - kept, tokens);
    const committedTail = kept + due - at;
    const fresh = Math.max(keep, this.keepFor(tokens) + this.summaryGrowth(tokens));
    return committedTail > keep * TAIL_SLACK && committedTail - fresh >= keep / 4;
  }

  /**
   * Whether a summary started now is expected to be ready before the threshold (by the measured growth
   * while one is written). When it is not, a rewrite only bills a summary that is never committed: at the
   * threshold the ready one is committed without waiting for it (take).
   */
  private readyBeforeThreshold(tokens: number): boolean {
    return tokens + this.summaryGrowth(tokens) <= this.threshold();
  }

  private rewrite(job: Job, tokens: number): void {
    this.rewritten = true;
    this.fallback = job;
    this.job = undefined;
    this.host.log?.(`background compaction: the summary written at ${job.snapshot.tokens} tokens would keep too much; writing it again at ${tokens}`);
    this.start(tokens);
    if (!this.job) [this.job, this.fallback] = [job, undefined];
  }

  private bandStart(): number {
    return backgroundBandStart(this.host.model().contextWindow, this.host.settings(), this.growth.expectedGrowth());
  }

  /** The growth while a summary is written (measured), or, unmeasured, until the threshold. */
  private summaryGrowth(tokens: number): number {
    const estimate = this.growth.estimate();
    return estimate ? (estimate.tokensPerSecond * estimate.summaryMs) / 1000 : this.threshold() - tokens;
  }

  /**
   * keepRecentTokens less the growth expected until the commit, so the commit keeps about keepRecentTokens:
   * the growth while the summary is written (it is committed once ready: commitDue), or, before the growth
   * was measured, the growth until the threshold.
   */
  private keepFor(tokens: number): number {
    return keepBeforeGrowth(this.host.settings().keepRecentTokens, this.summaryGrowth(tokens));
  }

  private threshold(): number {
    return compactionThreshold(this.host.model().contextWindow, this.host.settings());
  }

  private start(tokens: number): void {
    const kept = this.keepFor(tokens);
    const plan = this.host.runner.planAhead('threshold', kept);
    const branch = this.host.branch();
    const leaf = branch[branch.length - 1];
    if (!plan || !leaf) return;
    const controller = new AbortController();
    const snapshot: Snapshot = { leafId: leaf.id, length: branch.length, tokens, key: this.key(), kept, allowance: this.allowance(kept) };
    const job: Job = { snapshot, controller, done: Promise.resolve(undefined) };
    const started = this.now();
    job.done = this.host.runner.summarizeAhead('threshold', plan, controller.signal).then(
      (prepared) => {
        this.growth.summaryTook(this.now() - started);
        return (job.ready = prepared);
      },
      (error: unknown) => this.failedJob(job, error),
    );
    this.job = job;
    this.host.log?.(`background compaction: summarizing up to ${plan.preparation.firstKeptEntryId} at ${tokens} tokens (keeping ~${kept})`);
  }

  /**
   * The kept part may grow to twice keepRecentTokens (half of it is the band, half the overshoot of the
   * crossing turn), or to twice the expected growth when the context grows faster than that.
   */
  private allowance(kept: number): number {
    const keep = this.host.settings().keepRecentTokens;
    return Math.max(2 * keep, kept + 2 * (this.growth.expectedGrowth() ?? 0));
  }

  private validFallback(tokens: number): Job | undefined {
    const fallback = this.fallback;
    if (!fallback?.ready) return undefined;
    return this.staleness(fallback.snapshot, tokens) === undefined ? fallback : undefined;
  }

  private commit(job: Job, tokens: number, note?: string): PreparedSummary | undefined {
    const other = job === this.job ? this.fallback : this.job;
    this.job = undefined;
    this.fallback = undefined;
    other?.controller.abort();
    const prepared = job.ready && this.host.runner.bridged(job.ready);
    const bridge = prepared && prepared !== job.ready ? `; bridging what came since (${bridgeNote(prepared)})` : '';
    this.host.log?.(`background compaction: committing the summary written at ${job.snapshot.tokens} tokens (now ${tokens})${note ? `; ${note}` : ''}${bridge}`);
    return prepared;
  }

  private failedJob(job: Job, error: unknown): undefined {
    if (this.job === job) this.job = undefined;
    if (job.controller.signal.aborted) return undefined;
    if (this.fallback) {
      [this.job, this.fallback] = [this.fallback, undefined];
    } else this.failed = true;
    this.host.log?.(`background compaction failed (the threshold compaction will run as usual): ${(error as Error)?.message ?? String(error)}`);
    return undefined;
  }

  private discard(why: Staleness, tokens: number): PreparedSummary | undefined {
    const fallback = this.validFallback(tokens);
    if (fallback) return this.commit(fallback, tokens, `the newer one is stale (${why})`);
    this.cancel(`the summary is stale (${why})`);
    return undefined;
  }

  private staleness(snapshot: Snapshot, tokens: number): Staleness | undefined {
    if (this.pathStale(snapshot)) return 'path';
    const added = this.host.branch().slice(snapshot.length);
    if (added.some((e) => e.type === 'compaction' || e.type === 'branch_summary')) return 'compacted';
    if (this.key() !== snapshot.key) return 'settings';
    if (keptAfter(snapshot, tokens) > snapshot.allowance) return 'growth';
    return undefined;
  }

  private pathStale(snapshot: Snapshot): boolean {
    const branch = this.host.branch();
    return branch.length < snapshot.length || branch[snapshot.length - 1]?.id !== snapshot.leafId;
  }

  /** Everything the summary depends on besides the path: the settings and the model. */
  private key(): string {
    const model = this.host.model();
    return JSON.stringify([this.host.settings(), model.provider, model.id, model.contextWindow]);
  }
}

function bridgeNote(prepared: PreparedSummary): string {
  const bridge = bridgeDetailsOf({ details: prepared.result.details });
  return bridge ? `${bridge.entries} messages, ~${bridge.tokens} tokens shortened to ~${bridge.sectionTokens}` : '';
}

/** The kept part of a summary's plan once the context has grown to `tokens`. */
function keptAfter(snapshot: Pick<Snapshot, 'kept' | 'tokens'>, tokens: number): number {
  return snapshot.kept + tokens - snapshot.tokens;
}

/** What a summary keeps so that it keeps `keep` once the context has grown by `growth`: at least keep / 8. */
export function keepBeforeGrowth(keep: number, growth: number): number {
  return Math.max(Math.ceil(keep / 8), Math.ceil(keep - Math.max(0, growth)));
}

