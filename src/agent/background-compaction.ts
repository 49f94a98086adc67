// Background compaction (issue 17; docs/architecture.md, "Background compaction"): once the context enters
// the band below the threshold, the threshold compaction's summary is written ahead of time, while the
// user goes on. At the threshold a ready summary is committed without waiting, if it is still valid: the
// path it summarized is still a prefix of the current path (so its cut is still on it), no compaction came
// after it, the settings and model are the same, and the context grew by at most keepRecentTokens since.
// Anything else takes the normal path. Nothing is written before the commit; a failure is only logged.
import { inBackgroundBand, type CompactionRunner, type CompactionSettings, type PreparedSummary } from '../compaction';
import type { ModelInfo } from '../llm/types';
import type { SessionEntry } from '../session/entries';

export interface BackgroundHost {
  runner: CompactionRunner;
  branch(): readonly SessionEntry[];
  settings(): CompactionSettings;
  model(): ModelInfo;
  log?: (message: string) => void;
}

/** What the summary was written from. */
interface Snapshot {
  leafId: string;
  length: number;
  tokens: number;
  key: string;
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
  /** a failed summary is not retried in the background until the next compaction */
  private failed = false;

  constructor(private readonly host: BackgroundHost) {}

  /** The job in flight (tests and the bench wait for it). */
  get pending(): Promise<PreparedSummary | undefined> | undefined {
    return this.job?.done;
  }

  /** A check below the threshold: starts the summary when the context is in the band and none is valid. */
  consider(tokens: number): void {
    if (this.failed || !inBackgroundBand(tokens, this.host.model().contextWindow, this.host.settings())) return;
    if (this.job && this.staleness(this.job.snapshot, tokens) === undefined) return;
    if (this.job) this.cancel('it went stale before the threshold');
    this.start(tokens);
  }

  /**
   * At the threshold: the summary to commit, or undefined for the normal path. A valid one still being
   * written is awaited: its remainder is never longer than writing a new one, and costs no new tokens.
   */
  async take(tokens: number): Promise<PreparedSummary | undefined> {
    const job = this.job;
    if (!job) return undefined;
    const before = this.staleness(job.snapshot, tokens);
    if (before) return this.discard(before);
    const prepared = job.ready ?? (await job.done);
    if (this.job !== job || !prepared) return undefined;
    this.job = undefined;
    const after = this.staleness(job.snapshot, tokens);
    if (after) return this.discard(after);
    this.host.log?.(`background compaction: committing the summary written at ${job.snapshot.tokens} tokens (now ${tokens})`);
    return prepared;
  }

  /** Stop, another session, a compaction of its own: the summary in flight (or ready) is dropped. */
  cancel(why: string): void {
    const job = this.job;
    if (!job) return;
    this.job = undefined;
    job.controller.abort();
    this.host.log?.(`background compaction cancelled: ${why}`);
  }

  /** The leaf moved: a summary of a path that is no longer a prefix of the current one is dropped. */
  leafMoved(): void {
    if (this.job && this.pathStale(this.job.snapshot)) this.cancel('the leaf moved');
  }

  /** A compaction ran: a later band may try again. */
  reset(): void {
    this.failed = false;
  }

  private start(tokens: number): void {
    const plan = this.host.runner.planAhead('threshold');
    const branch = this.host.branch();
    const leaf = branch[branch.length - 1];
    if (!plan || !leaf) return;
    const controller = new AbortController();
    const snapshot: Snapshot = { leafId: leaf.id, length: branch.length, tokens, key: this.key() };
    const job: Job = { snapshot, controller, done: Promise.resolve(undefined) };
    job.done = this.host.runner.summarizeAhead('threshold', plan, controller.signal).then(
      (prepared) => (job.ready = prepared),
      (error: unknown) => this.failedJob(job, error),
    );
    this.job = job;
    this.host.log?.(`background compaction: summarizing up to ${plan.preparation.firstKeptEntryId} at ${tokens} tokens`);
  }

  private failedJob(job: Job, error: unknown): undefined {
    if (this.job === job) this.job = undefined;
    if (job.controller.signal.aborted) return undefined;
    this.failed = true;
    this.host.log?.(`background compaction failed (the threshold compaction will run as usual): ${(error as Error)?.message ?? String(error)}`);
    return undefined;
  }

  private discard(why: Staleness): undefined {
    this.cancel(`the summary is stale (${why})`);
    return undefined;
  }

  private staleness(snapshot: Snapshot, tokens: number): Staleness | undefined {
    if (this.pathStale(snapshot)) return 'path';
    const added = this.host.branch().slice(snapshot.length);
    if (added.some((e) => e.type === 'compaction' || e.type === 'branch_summary')) return 'compacted';
    if (this.key() !== snapshot.key) return 'settings';
    if (tokens - snapshot.tokens > this.host.settings().keepRecentTokens) return 'growth';
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
