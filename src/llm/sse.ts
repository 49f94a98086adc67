// Server-sent events, read by Arbor itself for the OpenAI-compatible wire: the SDK's reader drops the
// fields it does not know, and llama.cpp servers before its PR #16486 sent their errors in an `error:`
// field of an HTTP 200 stream (docs/architecture.md, providers). Bytes may split anywhere, including
// inside a multi-byte character or between "\r" and "\n"; comments (": keep-alive") are skipped.

export interface SseEvent {
  /** "error" for llama.cpp's `error:` field, "data" for everything else */
  field: 'data' | 'error';
  event?: string;
  data: string;
}

class PendingEvent {
  data: string[] = [];
  error: string[] = [];
  event?: string;

  take(): SseEvent | undefined {
    const out: SseEvent | undefined = this.error.length
      ? { field: 'error', event: this.event, data: this.error.join('\n') }
      : this.data.length
        ? { field: 'data', event: this.event, data: this.data.join('\n') }
        : undefined;
    this.data = [];
    this.error = [];
    this.event = undefined;
    return out;
  }

  add(line: string): void {
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (name === 'data') this.data.push(value);
    else if (name === 'error') this.error.push(value);
    else if (name === 'event') this.event = value;
  }
}

const LINE_END = /\r\n|\r|\n/g;

/** Splits off every complete line; a trailing "\r" waits, since its "\n" may be in the next piece. */
function completeLines(buffer: string): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let start = 0;
  LINE_END.lastIndex = 0;
  for (let m = LINE_END.exec(buffer); m; m = LINE_END.exec(buffer)) {
    if (m[0] === '\r' && m.index === buffer.length - 1) break;
    lines.push(buffer.slice(start, m.index));
    start = m.index + m[0].length;
  }
  return { lines, rest: buffer.slice(start) };
}

/** Yields each event of an SSE body; `onBytes` runs whenever bytes arrive (the idle watchdog). */
export async function* readSse(body: AsyncIterable<Uint8Array>, onBytes: () => void): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const pending = new PendingEvent();
  let buffer = '';
  const feed = function* (lines: string[]) {
    for (const line of lines) {
      if (line !== '') pending.add(line);
      else {
        const event = pending.take();
        if (event) yield event;
      }
    }
  };
  for await (const bytes of body) {
    onBytes();
    const split = completeLines(buffer + decoder.decode(bytes, { stream: true }));
    buffer = split.rest;
    yield* feed(split.lines);
  }
  const tail = buffer + decoder.decode();
  yield* feed(tail ? [...tail.split(/\r\n|\r|\n/), ''] : ['']);
}
