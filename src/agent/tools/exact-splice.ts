// Plans an `edit` on the file's bytes so that nothing outside the replaced span changes: the file is
// viewed as a "byte string" (latin1, one character per byte, a lossless round trip), oldText and newText
// are encoded to UTF-8 bytes in the same view, and line endings are normalised only for matching (a map
// from LF offsets back to file offsets). A file that is not valid UTF-8 is changed only where the
// matched text is exact bytes; a match that exists only after lossy decoding is refused, never written
// (docs/reliability.md, "files change exactly").

const BOM_BYTES = '\xEF\xBB\xBF';
const BOM = '\uFEFF';

export type SplicePlan =
  | { kind: 'ok'; updated: Buffer; line: number; lineEnding: 'lf' | 'crlf'; bom: boolean }
  | { kind: 'identical' }
  /** not found; `content` is the decoded, LF-normalised text for hints */
  | { kind: 'missing'; content: string; oldText: string }
  | { kind: 'ambiguous'; count: number; lines: number[] }
  /** matches only in the U+FFFD-decoded view of a file that is not valid UTF-8 */
  | { kind: 'lossy' };

export function detectLineEnding(text: string): 'lf' | 'crlf' {
  const crlf = text.split('\r\n').length - 1;
  if (crlf === 0) return 'lf';
  const lf = text.split('\n').length - 1 - crlf;
  return crlf >= lf ? 'crlf' : 'lf';
}

export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

function asBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
    at.push(i);
    if (at.length > 1000) break;
  }
  return at;
}

export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** LF-normalised text plus the LF offsets where a `\r\n` was collapsed, to map offsets back. */
function normalise(body: string): { text: string; collapsed: number[] } {
  const collapsed: number[] = [];
  let text = '';
  let from = 0;
  for (let i = body.indexOf('\r\n'); i >= 0; i = body.indexOf('\r\n', i + 2)) {
    text += body.slice(from, i);
    collapsed.push(text.length);
    text += '\n';
    from = i + 2;
  }
  return { text: text + body.slice(from), collapsed };
}

/** File offset of LF offset `at`: every collapsed `\r` before it comes back. */
function fileOffset(collapsed: readonly number[], at: number): number {
  let before = 0;
  while (before < collapsed.length && collapsed[before] < at) before++;
  return at + before;
}

function isValidUtf8(raw: Buffer): boolean {
  return Buffer.from(raw.toString('utf8'), 'utf8').equals(raw);
}

function notFound(raw: Buffer, bodyStart: number, oldText: string): SplicePlan {
  const decoded = toLf(raw.subarray(bodyStart).toString('utf8'));
  if (!isValidUtf8(raw) && decoded.includes(oldText)) return { kind: 'lossy' };
  return { kind: 'missing', content: decoded, oldText };
}

/** Where and how to replace the single occurrence of `oldText` in `raw` by `newText`. */
export function planSplice(raw: Buffer, oldTextIn: string, newTextIn: string): SplicePlan {
  const oldText = toLf(oldTextIn.startsWith(BOM) ? oldTextIn.slice(1) : oldTextIn);
  const newText = toLf(newTextIn);
  if (oldText === newText) return { kind: 'identical' };
  const bytes = raw.toString('latin1');
  const bom = bytes.startsWith(BOM_BYTES);
  const bodyStart = bom ? BOM_BYTES.length : 0;
  const body = bytes.slice(bodyStart);
  const lineEnding = detectLineEnding(body);
  const { text, collapsed } = normalise(body);
  const needle = asBytes(oldText);
  const found = occurrences(text, needle);
  if (found.length === 0) return notFound(raw, bodyStart, oldText);
  if (found.length > 1) return { kind: 'ambiguous', count: found.length, lines: found.slice(0, 10).map((i) => lineAt(text, i)) };
  const start = bodyStart + fileOffset(collapsed, found[0]);
  const end = bodyStart + fileOffset(collapsed, found[0] + needle.length);
  const replacement = asBytes(lineEnding === 'crlf' ? newText.replace(/\n/g, '\r\n') : newText);
  const updated = Buffer.from(bytes.slice(0, start) + replacement + bytes.slice(end), 'latin1');
  return { kind: 'ok', updated, line: lineAt(text, found[0]), lineEnding, bom };
}
