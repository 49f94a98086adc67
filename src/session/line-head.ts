// The head of a session line read straight from its bytes: the entry's type, id, parentId and timestamp when
// the line starts with them (pi and Arbor write them first). Opening a session indexes the lines whose kind
// defers its body (entry-types.ts) from the head alone, without decoding or parsing the rest of the line;
// the body is parsed when the entry is first asked for (entry-index.ts, docs/architecture.md).
// Anything unusual (escapes in these strings, other values first, no closing brace) gives no head: the line
// is then parsed at once, as before.

export interface LineHead {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
type HeadKey = keyof LineHead;
const KEYS: readonly HeadKey[] = ['type', 'id', 'parentId', 'timestamp'];
const KEY_BYTES = KEYS.map((key) => Buffer.from(key, 'latin1'));

/** The head of the line `bytes[start, end)` (no newline), or undefined when it does not start with one. */
export function readLineHead(bytes: Buffer, start: number, end: number): LineHead | undefined {
  const last = skipSpaceBack(bytes, start, end);
  if (bytes[start] !== OPEN || last <= start || bytes[last - 1] !== CLOSE) return undefined;
  let type: string | undefined;
  let id: string | undefined;
  let parentId: string | null | undefined;
  let timestamp: string | undefined;
  let i = skipSpace(bytes, start + 1, end);
  for (;;) {
    const keyEnd = plainStringEnd(bytes, i, end); // the closing quote
    if (keyEnd < 0) return undefined;
    const which = keyAt(bytes, i + 1, keyEnd);
    i = skipSpace(bytes, keyEnd + 1, end);
    if (bytes[i] !== COLON) return undefined;
    i = skipSpace(bytes, i + 1, end);
    let value: string | null;
    if (bytes[i] === 0x6e && bytes[i + 1] === 0x75 && bytes[i + 2] === 0x6c && bytes[i + 3] === 0x6c) {
      value = null;
      i += 4;
    } else {
      const valueEnd = plainStringEnd(bytes, i, end);
      if (valueEnd < 0) return undefined; // numbers, objects, escapes: parse the line
      value = which === undefined ? '' : which === 'type' ? typeName(bytes, i + 1, valueEnd) : decode(bytes, i + 1, valueEnd);
      i = valueEnd + 1;
    }
    // a head key given twice (JSON.parse keeps the last) or a null type, id or time: the line is parsed
    if (which === 'type' && type === undefined && value !== null) type = value;
    else if (which === 'id' && id === undefined && value !== null) id = value;
    else if (which === 'parentId' && parentId === undefined) parentId = value;
    else if (which === 'timestamp' && timestamp === undefined && value !== null) timestamp = value;
    else if (which !== undefined) return undefined;
    i = skipSpace(bytes, i, end);
    const separator = bytes[i];
    if (separator !== COMMA && separator !== CLOSE) return undefined; // damaged right after a value
    if (separator === CLOSE || (type !== undefined && id !== undefined && parentId !== undefined && timestamp !== undefined)) break;
    i = skipSpace(bytes, i + 1, end);
  }
  if (type === undefined || id === undefined || id.length === 0 || parentId === undefined || timestamp === undefined) return undefined;
  return { type, id, parentId, timestamp };
}

/**
 * The closing quote of a string without escapes at `i` (its opening quote), or -1. A plain loop: these
 * strings are short, and a native search per string costs more than it saves.
 */
function plainStringEnd(bytes: Buffer, i: number, end: number): number {
  if (bytes[i] !== QUOTE) return -1;
  for (let k = i + 1; k < end; k++) {
    const byte = bytes[k]!;
    if (byte === QUOTE) return k;
    if (byte === BACKSLASH || byte < 0x20) return -1; // escapes and control characters: parse the line
  }
  return -1;
}

/** ASCII text is sliced as Latin-1 (one copy, no decoder); anything else is decoded as UTF-8. */
function decode(bytes: Buffer, start: number, end: number): string {
  for (let k = start; k < end; k++) if (bytes[k]! >= 0x80) return bytes.toString('utf8', start, end);
  return bytes.toString('latin1', start, end);
}

/** A type name: the shared string when it is one of the usual ones (35,000 lines need not make 35,000 copies). */
function typeName(bytes: Buffer, start: number, end: number): string {
  for (let k = 0; k < COMMON_TYPES.length; k++) {
    const known = COMMON_TYPE_BYTES[k]!;
    if (known.length === end - start && sameBytes(bytes, start, known)) return COMMON_TYPES[k]!;
  }
  return decode(bytes, start, end);
}

const COMMON_TYPES = ['message', 'custom_message', 'custom', 'branch_summary'];
const COMMON_TYPE_BYTES = COMMON_TYPES.map((type) => Buffer.from(type, 'latin1'));

function keyAt(bytes: Buffer, start: number, end: number): HeadKey | undefined {
  const length = end - start;
  for (let k = 0; k < KEYS.length; k++) {
    const key = KEY_BYTES[k]!;
    if (key.length === length && sameBytes(bytes, start, key)) return KEYS[k];
  }
  return undefined;
}

function sameBytes(bytes: Buffer, start: number, key: Buffer): boolean {
  for (let k = 0; k < key.length; k++) if (bytes[start + k] !== key[k]) return false;
  return true;
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function skipSpace(bytes: Buffer, i: number, end: number): number {
  while (i < end && isSpace(bytes[i])) i++;
  return i;
}

/** The end of `bytes[start, end)` without trailing JSON whitespace. */
function skipSpaceBack(bytes: Buffer, start: number, end: number): number {
  while (end > start && isSpace(bytes[end - 1])) end--;
  return end;
}
