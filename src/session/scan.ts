// Streaming, tolerant line reader for session files. Reads fixed-size chunks (memory stays bounded by the
// parsed objects, not by a second copy of the file), remembers each line's byte range so unchanged lines
// can be written back byte-for-byte, and reports bad lines instead of failing.
import { open } from 'node:fs/promises';
import { withoutByteOrderMark } from './json-object';

export type LoadProblemKind =
  | 'invalid-json'
  | 'invalid-entry'
  | 'torn-final-line'
  | 'duplicate-id'
  | 'migrated'
  | 'foreign-rewrite'
  /** the file is shown but never written (a newer version's session) */
  | 'read-only'
  /** another writer took our lock over; its lock was left in place */
  | 'lock-lost'
  /** an entry that loaded but could not be shown fully (wrong types, odd numbers or ids; see src/present/normalize-view.ts) */
  | 'partly-shown'
  /** entries of a type this version does not know: kept and written back, ignored in the context */
  | 'unknown-type';

export interface LoadProblem {
  /** 1-based line number in the file (0 when the problem is not tied to a line) */
  line: number;
  kind: LoadProblemKind;
  message: string;
}

export interface ParsedLine {
  lineNo: number;
  /** byte offset of the line start */
  offset: number;
  /** byte length without the line terminator */
  length: number;
  value: unknown;
}

export interface ScanResult {
  lines: ParsedLine[];
  problems: LoadProblem[];
  /** file size in bytes when read */
  size: number;
  /** false when the last line has no terminator: the next append must start a new line first */
  endsWithNewline: boolean;
  /** where to continue reading later: after the last complete line, or at a torn last line */
  resumeOffset: number;
  resumeLineNo: number;
  ino: number;
}

const CHUNK = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/** Reads `file` from byte `from` (a line start) to its current end. */
export async function scanLines(file: string, from = 0, firstLineNo = 1): Promise<ScanResult> {
  const handle = await open(file, 'r');
  try {
    const stat = await handle.stat();
    const size = stat.size;
    const lines: ParsedLine[] = [];
    const problems: LoadProblem[] = [];
    let lineNo = firstLineNo;
    let buffer: Buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, size - from)));
    let pendingLength = 0; // bytes of an unfinished line, kept at the start of `buffer` for the next read
    let pendingOffset = from;
    let position = from;
    let endsWithNewline = true;
    while (position < size) {
      if (pendingLength === buffer.length) buffer = grown(buffer, Math.min(CHUNK, size - position));
      const room = Math.min(buffer.length - pendingLength, size - position);
      const { bytesRead } = await handle.read(buffer, pendingLength, room, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = buffer.subarray(0, pendingLength + bytesRead);
      const done = handleLines(data, pendingOffset, lineNo, lines, problems);
      lineNo += done.lines;
      pendingLength = data.length - done.end;
      pendingOffset += done.end;
      if (done.end > 0) buffer.copy(buffer, 0, done.end, data.length); // the unfinished line moves to the front
    }
    const pending = buffer.subarray(0, pendingLength);
    let resumeOffset = position;
    let resumeLineNo = lineNo;
    if (pending.length > 0) {
      endsWithNewline = false;
      const rest = pending.toString('utf8');
      const parsed = handleLine(rest, 0, rest.length, pendingOffset, pending.length, lineNo++, false, lines, problems);
      // A torn line may be completed by another writer: read it again next time.
      if (!parsed) {
        resumeOffset = pendingOffset;
      } else {
        resumeLineNo = lineNo;
      }
    }
    return { lines, problems, size: position, endsWithNewline, resumeOffset, resumeLineNo, ino: stat.ino };
  } finally {
    await handle.close();
  }
}

/** A larger buffer holding `buffer`'s bytes (a line longer than the buffer is read on into it). */
function grown(buffer: Buffer, extra: number): Buffer {
  const next = Buffer.allocUnsafe(buffer.length + Math.max(1, extra));
  buffer.copy(next, 0, 0, buffer.length);
  return next;
}

/**
 * Handles the complete lines of `data` (up to its last newline) and returns how many there were and the
 * byte where the unfinished rest starts. The bytes are decoded once (a line-by-line decode makes a fresh
 * string per line for the garbage collector); lines are found at the same newlines in the bytes and in the
 * text, since a 0x0a byte is always a newline in UTF-8 and never part of another character.
 */
function handleLines(data: Buffer, dataOffset: number, firstLineNo: number, lines: ParsedLine[], problems: LoadProblem[]): { lines: number; end: number } {
  const last = data.lastIndexOf(NEWLINE);
  if (last < 0) return { lines: 0, end: 0 };
  const text = data.toString('utf8', 0, last + 1);
  let byteStart = 0;
  let charStart = 0;
  let lineNo = firstLineNo;
  while (byteStart <= last) {
    const byteEnd = data.indexOf(NEWLINE, byteStart);
    const charEnd = text.indexOf('\n', charStart);
    handleLine(text, charStart, charEnd, dataOffset + byteStart, byteEnd - byteStart, lineNo++, true, lines, problems);
    byteStart = byteEnd + 1;
    charStart = charEnd + 1;
  }
  return { lines: lineNo - firstLineNo, end: last + 1 };
}

/** One line: `text[start, end)` (without its newline), at byte `offset`, `length` bytes long. */
function handleLine(
  source: string,
  start: number,
  end: number,
  offset: number,
  length: number,
  lineNo: number,
  terminated: boolean,
  lines: ParsedLine[],
  problems: LoadProblem[],
): boolean {
  let textEnd = end;
  if (textEnd > start && source.charCodeAt(textEnd - 1) === 0x0d) textEnd--; // CRLF files
  const raw = source.slice(start, textEnd);
  // The raw range keeps a byte order mark, so a rewrite writes the header back as it was.
  const text = offset === 0 ? withoutByteOrderMark(raw) : raw;
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return true;
  // Valid JSON deeper than the limit has more than MAX_JSON_DEPTH opening brackets and as many closing ones,
  // so a shorter line is shallow enough or not JSON at all (JSON.parse refuses it below): most lines skip
  // the bracket count, a tenth of the parse's time on a typical session (docs/reliability.md).
  if (text.length > SHALLOW_BELOW && nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    problems.push({ line: lineNo, kind: 'invalid-json', message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels; line skipped` });
    return false;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push({
      line: lineNo,
      kind: terminated ? 'invalid-json' : 'torn-final-line',
      message: terminated
        ? `not valid JSON (${(error as Error).message}); line skipped`
        : 'the last line is incomplete (interrupted write); ignored',
    });
    return false;
  }
  lines.push({ lineNo, offset, length, value });
  return true;
}

/**
 * Lines nested deeper than this are refused: whatever reads an entry later (JSON.stringify, validation,
 * copies) recurses once per level, and 200,000 levels overflow the stack far from the loader. No session
 * entry needs more than a few dozen.
 */
export const MAX_JSON_DEPTH = 1000;
const SHALLOW_BELOW = 2 * MAX_JSON_DEPTH + 1;

/** How many times `char` occurs in `text`, counting up to `stop` at most. */
function countUpTo(text: string, char: string, stop: number): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1 && count < stop; i = text.indexOf(char, i + 1)) count++;
  return count;
}

/** Whether the JSON text nests arrays/objects deeper than `limit` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Cheap screen first: a line with at most `limit` opening brackets cannot nest deeper.
  if (countUpTo(text, '[', limit + 1) + countUpTo(text, '{', limit + 1) <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
