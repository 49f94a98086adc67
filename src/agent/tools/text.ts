// Shared helpers for tool output: size formatting, binary detection, caps that keep the head or the
// tail of a text, and cutting over-long lines.

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** Heuristic used by git and grep: a NUL byte in the first block means binary. */
export function looksBinary(sample: Uint8Array): boolean {
  const n = Math.min(sample.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = sample[i];
    if (b === 0) return true;
    if (b < 8 || (b > 13 && b < 32 && b !== 27)) control++;
  }
  return n > 0 && control / n > 0.3;
}

/**
 * The longest head of `text` that fits in `maxBytes` UTF-8 bytes without splitting a character: the cut backs
 * off to the start of a multi-byte character it would split.
 */
export function keepHeadBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.toString('utf8', 0, end);
}

export function cutLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}… [line cut: ${line.length} characters]`;
}

export interface TailResult {
  text: string;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
  shownLines: number;
  shownBytes: number;
}

/** Keeps the last `maxLines` lines and at most `maxBytes` bytes, starting on a line boundary if it can. */
export function keepTail(text: string, maxLines: number, maxBytes: number): TailResult {
  const totalBytes = Buffer.byteLength(text);
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const totalLines = lines.length;
  let kept = lines.length > maxLines ? lines.slice(lines.length - maxLines) : lines;
  let out = kept.join('\n');
  if (Buffer.byteLength(out) > maxBytes) {
    const buf = Buffer.from(out);
    let tail = buf.subarray(buf.length - maxBytes).toString('utf8').replace(/^\uFFFD+/, '');
    const nl = tail.indexOf('\n');
    if (nl >= 0 && nl < tail.length - 1) tail = tail.slice(nl + 1);
    out = tail;
    kept = out.split('\n');
  }
  const shownBytes = Buffer.byteLength(out);
  const truncated = shownBytes < Buffer.byteLength(lines.join('\n'));
  return { text: out, truncated, totalLines, totalBytes, shownLines: kept.length, shownBytes };
}

/**
 * Bounded accumulator for streamed output: remembers totals but keeps only a window large enough to
 * produce the final tail, so a command printing gigabytes does not grow memory.
 */
export class TailBuffer {
  private text = '';
  private bytes = 0;
  private lines = 0;
  private endsWithNewline = true;
  private dropped = false;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  append(chunk: string): void {
    if (chunk.length === 0) return;
    this.bytes += Buffer.byteLength(chunk);
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) this.lines++;
    this.endsWithNewline = chunk.endsWith('\n');
    this.text += chunk;
    // Keep at most ~2x the byte cap in characters (a character is at least one byte), and no more than
    // maxLines + 1 lines, trimmed occasionally so appends stay cheap.
    if (this.text.length > this.maxBytes * 4) {
      this.text = this.text.slice(this.text.length - this.maxBytes * 2);
      this.dropped = true;
    }
  }

  get totalBytes(): number {
    return this.bytes;
  }

  get totalLines(): number {
    return this.lines + (this.endsWithNewline ? 0 : 1);
  }

  /** The capped tail plus whether anything was dropped (relative to everything appended). */
  tail(): { text: string; truncated: boolean; shownLines: number; shownBytes: number } {
    const result = keepTail(this.text, this.maxLines, this.maxBytes);
    return {
      text: result.text,
      truncated: result.truncated || this.dropped,
      shownLines: result.shownLines,
      shownBytes: result.shownBytes,
    };
  }
}
