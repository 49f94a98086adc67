// A remote MCP server's answers are hostile input too: the SDK reads a JSON answer whole and an SSE answer
// event by event, with no size limit. Every response body fetched for a server goes through a byte
// counter here; past the limit the body errors, the call fails with a clear message, and Arbor's memory
// stays bounded (docs/reliability.md). The long-lived GET event stream is counted per event instead, so a
// server may keep it open for hours.
type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export class ResponseTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the server's answer is larger than ${Math.round(limit / (1024 * 1024))} MB; Arbor stopped reading it`);
  }
}

function counted(body: ReadableStream<Uint8Array>, limit: number, perEvent: boolean): ReadableStream<Uint8Array> {
  let bytes = 0;
  return body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes > limit) return controller.error(new ResponseTooLarge(limit));
      // an event ends with a blank line: the per-event count starts again after it
      if (perEvent && endsEvent(chunk)) bytes = 0;
      controller.enqueue(chunk);
    },
  }));
}

function endsEvent(chunk: Uint8Array): boolean {
  const n = chunk.byteLength;
  return n >= 2 && chunk[n - 1] === 10 && (chunk[n - 2] === 10 || (n >= 3 && chunk[n - 2] === 13 && chunk[n - 3] === 10));
}

/** `fetch` for the SDK's HTTP transports with every response body capped at `limit` bytes. */
export function cappedFetch(limit: number, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw new ResponseTooLarge(limit);
    }
    if (!response.body) return response;
    const longLived = (init?.method ?? 'GET').toUpperCase() === 'GET';
    const body = counted(response.body, limit, longLived);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
