// Reads an HTTP answer body with limits (issue #14 item 7, docs/reliability.md): at most `maxBytes`
// (counted as the bytes arrive, so an endless answer is cut off, never buffered), and no more than
// `stallMs` without a byte (a server that sent its headers and then went quiet). The caller's signal
// (its overall deadline, or the user's Stop) cancels the read too. Failures come back as a typed result.

export interface BodyLimits {
  maxBytes: number;
  stallMs: number;
}

export type BodyRead =
  | { ok: true; text: string }
  | { ok: false; reason: 'too-large' | 'stalled' | 'aborted' }
  | { ok: false; reason: 'failed'; detail: string };

type Chunk = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/** The next chunk; 'stalled' when none arrives within `stallMs`; 'aborted' as soon as `signal` fires. */
async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>, stallMs: number, signal?: AbortSignal): Promise<Chunk | 'stalled' | 'aborted'> {
  if (signal?.aborted) return 'aborted';
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stalled = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), stallMs)));
  const aborted = new Promise<'aborted'>((resolve) => signal?.addEventListener('abort', (onAbort = () => resolve('aborted')), { once: true }));
  try {
    return await Promise.race([reader.read(), stalled, aborted]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** The outcome when `signal` fired (the read is cancelled); otherwise the outcome itself. */
function stopped(outcome: BodyRead, signal: AbortSignal | undefined): BodyRead {
  return signal?.aborted ? { ok: false, reason: 'aborted' } : outcome;
}

export async function readBoundedBody(response: Response, limits: BodyLimits, signal?: AbortSignal): Promise<BodyRead> {
  if (!response.body) return { ok: true, text: '' };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const chunk = await nextChunk(reader, limits.stallMs, signal);
      if (chunk === 'aborted') return { ok: false, reason: 'aborted' };
      if (chunk === 'stalled') return stopped({ ok: false, reason: 'stalled' }, signal);
      if (chunk.done) return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
      bytes += chunk.value.byteLength;
      if (bytes > limits.maxBytes) return { ok: false, reason: 'too-large' };
      chunks.push(chunk.value);
    }
  } catch (error) {
    return stopped({ ok: false, reason: 'failed', detail: (error as Error)?.message ?? String(error) }, signal);
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** "1 MiB", "512 KiB": how a limit is named in an error. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
