// Arbor's own retry for transient provider errors (SDK retries are off; a caller that retries itself
// turns this one off per request, retryFor). A failed attempt is retried
// only if nothing was streamed to the caller yet, never for overflow, and never past the abort signal.
// Delays: exponential backoff (2 s, 4 s, 8 s by default), or the server's retry-after if it is within
// the cap; a server asking for longer than the cap gets no retry (the user sees the error instead).
import type { AssistantMessage } from '../core/messages';
import type { StreamEvent } from './types';
import type { ClassifiedError } from './overflow';

export interface RetryOptions {
  /** retries after the first attempt (3 → up to 4 requests) */
  maxRetries: number;
  baseDelayMs: number;
  /** longest server-requested delay we are willing to wait */
  maxDelayMs: number;
  /** injectable for tests: resolves after ms, rejects (or resolves early) when the signal aborts */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 3,
  baseDelayMs: 2000,
  maxDelayMs: 60_000,
  sleep: abortableSleep,
};

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** What one attempt reports back besides its events. */
export interface AttemptResult {
  message: AssistantMessage;
  /** true once any delta reached the caller: such an attempt is never retried */
  streamed: boolean;
  /** set when the attempt failed with a classified provider error */
  error?: ClassifiedError;
}

export type Attempt = () => AsyncGenerator<StreamEvent, AttemptResult>;

/** The retry policy for one request: none when its caller retries itself (StreamRequest.callerRetries). */
export function retryFor(options: RetryOptions, request: { callerRetries?: boolean }): RetryOptions {
  return request.callerRetries ? { ...options, maxRetries: 0 } : options;
}

/** Delay before retry number `retry` (1-based), or undefined when we should not retry at all. */
export function retryDelay(retry: number, error: ClassifiedError, options: RetryOptions): number | undefined {
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= options.maxDelayMs ? error.retryAfterMs : undefined;
  }
  return options.baseDelayMs * 2 ** (retry - 1);
}

/**
 * Runs attempts until one succeeds, fails for good, or the signal aborts. Emits exactly one `start`
 * and one `done`; attempt events other than `start`/`done` are forwarded as they arrive.
 */
export async function* runWithRetry(
  attempt: Attempt,
  options: RetryOptions,
  signal: AbortSignal | undefined,
  abortedMessage: () => AssistantMessage,
): AsyncGenerator<StreamEvent> {
  yield { type: 'start' };
  for (let retry = 0; ; retry++) {
    const gen = attempt();
    let step = await gen.next();
    while (!step.done) {
      if (step.value.type !== 'start' && step.value.type !== 'done') yield step.value;
      step = await gen.next();
    }
    const result = step.value;
    const error = result.error;
    const canRetry =
      error !== undefined &&
      error.retryable &&
      !result.streamed &&
      retry < options.maxRetries &&
      !signal?.aborted;
    const delayMs = canRetry ? retryDelay(retry + 1, error, options) : undefined;
    if (!canRetry || delayMs === undefined) {
      yield { type: 'done', message: result.message };
      return;
    }
    yield {
      type: 'retry',
      attempt: retry + 1,
      maxAttempts: options.maxRetries,
      delayMs,
      errorMessage: result.message.errorMessage ?? error.message,
    };
    await options.sleep(delayMs, signal);
    if (signal?.aborted) {
      yield { type: 'done', message: abortedMessage() };
      return;
    }
  }
}
