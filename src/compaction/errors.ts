// Errors the compaction engine throws. Callers tell cancellation apart from failure by class, not by
// message text.
import { isRetryableKind } from '../llm/overflow';

/** The user (or a hook) cancelled; nothing was written. */
export class CompactionCancelled extends Error {
  constructor(message = 'Compaction cancelled') {
    super(message);
    this.name = 'CompactionCancelled';
  }
}

/** The summarizer model (or endpoint) failed; nothing was written. */
export class SummarizationFailed extends Error {
  constructor(
    detail: string,
    /** true when retrying later may help (rate limits, overload, network) */
    readonly transient = false,
  ) {
    super(`Summarization failed: ${detail}`);
    this.name = 'SummarizationFailed';
  }
}

/** The model answered but not with a summary (it called a tool, or wrote nothing): another form may work. */
export class OffTaskAnswer extends SummarizationFailed {
  constructor(detail: string) {
    super(detail);
    this.name = 'OffTaskAnswer';
  }
}

export function isCancellation(error: unknown): boolean {
  return error instanceof CompactionCancelled || (error instanceof Error && error.name === 'AbortError');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CompactionCancelled();
}

/** Transient provider failures worth another attempt (docs/pi-compatibility.md "What a compaction summarizes"), never context overflow. */
const TRANSIENT =
  /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?(error|refused|lost|reset)|socket hang up|fetch failed|upstream.?connect|reset before headers|ended without|timed? ?out|timeout|terminated|ECONNRESET|ECONNREFUSED/i;

export function isTransientErrorText(text: string): boolean {
  return TRANSIENT.test(text);
}

/** A failed summarizer call worth retrying: by the provider's classification when it made one, else by its text. */
export function isTransient(failure: { message: string; errorKind?: string }): boolean {
  const byKind = failure.errorKind === undefined || failure.errorKind === 'unknown' ? undefined : isRetryableKind(failure.errorKind);
  return byKind ?? isTransientErrorText(failure.message);
}
