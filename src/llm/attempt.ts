// One provider request, guarded: an idle watchdog (no bytes for idleTimeoutMs → error), the caller's
// abort signal (→ aborted), SDK errors classified and redacted. The wire-specific part only has to
// feed the MessageBuilder and say how the stream ended.
import type { AssistantMessage, StopReason } from '../core/messages';
import type { ModelInfo, StreamEvent } from './types';
import { MessageBuilder } from './message-builder';
import { classifyProviderError, type ClassifiedError } from './overflow';
import { redactSecrets } from './errors';
import type { AttemptResult } from './retry';

export class IdleWatchdog {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => this.controller.abort();

  constructor(private readonly idleMs: number, private readonly userSignal?: AbortSignal) {
    if (userSignal?.aborted) this.controller.abort();
    userSignal?.addEventListener('abort', this.onAbort, { once: true });
    // The clock starts at the first kick(), when the wire sends the request: the SDK is imported lazily
    // before that, and a cold load (real async import in dev) is our time, not a stalled provider.
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Call when the request goes out and whenever data arrives. */
  kick(): void {
    clearTimeout(this.timer);
    if (this.idleMs > 0 && this.idleMs < Infinity) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
      }, this.idleMs);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.userSignal?.removeEventListener('abort', this.onAbort);
  }
}

export interface WireOutcome {
  stopReason: StopReason;
  errorMessage?: string;
  extra?: Record<string, unknown>;
}

export interface AttemptContext {
  model: ModelInfo;
  signal?: AbortSignal;
  idleTimeoutMs: number;
  /** secrets to scrub from any error text */
  secrets: () => (string | undefined)[];
}

export function failedMessage(model: ModelInfo, stopReason: 'error' | 'aborted', errorMessage: string, extra: Record<string, unknown> = {}): AssistantMessage {
  return new MessageBuilder(model).finish(stopReason, errorMessage, extra);
}

export const ABORTED_TEXT = 'Request was aborted';

export async function* guardedAttempt(
  ctx: AttemptContext,
  wire: (builder: MessageBuilder, watchdog: IdleWatchdog) => AsyncGenerator<StreamEvent, WireOutcome>,
): AsyncGenerator<StreamEvent, AttemptResult> {
  const builder = new MessageBuilder(ctx.model);
  const watchdog = new IdleWatchdog(ctx.idleTimeoutMs, ctx.signal);
  const redact = (text: string) => redactSecrets(text, ctx.secrets());
  const idleText = () => `Stream timed out: no data from the provider for ${Math.round(ctx.idleTimeoutMs / 100) / 10}s`;
  try {
    const outcome = yield* wire(builder, watchdog);
    if (ctx.signal?.aborted) return { message: builder.finish('aborted', ABORTED_TEXT), streamed: builder.streamed };
    if (watchdog.timedOut) {
      const error: ClassifiedError = { kind: 'timeout', retryable: true, message: idleText() };
      return { message: builder.finish('error', error.message, { errorKind: 'timeout' }), streamed: builder.streamed, error };
    }
    const errorMessage = outcome.errorMessage === undefined ? undefined : redact(outcome.errorMessage);
    return { message: builder.finish(outcome.stopReason, errorMessage, outcome.extra), streamed: builder.streamed };
  } catch (err) {
    if (ctx.signal?.aborted) return { message: builder.finish('aborted', ABORTED_TEXT), streamed: builder.streamed };
    if (watchdog.timedOut) {
      const error: ClassifiedError = { kind: 'timeout', retryable: true, message: idleText() };
      return { message: builder.finish('error', error.message, { errorKind: 'timeout' }), streamed: builder.streamed, error };
    }
    const classified = classifyProviderError(err);
    const error = { ...classified, message: redact(classified.message) };
    const extra: Record<string, unknown> = { errorKind: error.kind };
    if (error.status !== undefined) extra.errorStatus = error.status;
    return { message: builder.finish('error', error.message, extra), streamed: builder.streamed, error };
  } finally {
    watchdog.dispose();
  }
}
