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
  /** an entry that loaded but could not be shown fully (wrong types, odd numbers or ids; see src/app/normalize-view.ts) */
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
    let pending: Buffer = Buffer.alloc(0); // bytes of an unfinished line carried to the next chunk
    let pendingOffset = from;
    let position = from;
    let endsWithNewline = true;
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, size - from)));
    while (position < size) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, size - position), position);
      if (bytesRead === 0) break;
      let data = chunk.subarray(0, bytesRead);
      let dataOffset = position;
      position += bytesRead;
      if (pending.length > 0) {
        data = Buffer.concat([pending, data]);
        dataOffset = pendingOffset;
      }
      let start = 0;
      for (;;) {
        const nl = data.indexOf(NEWLINE, start);
        if (nl < 0) break;
        handleLine(data, start, nl, dataOffset + start, lineNo++, true, lines, problems);
        start = nl + 1;
      }
      // Copy the remainder: `chunk` is reused by the next read.
      pending = Buffer.from(data.subarray(start));
      pendingOffset = dataOffset + start;
    }
    let resumeOffset = position;
    let resumeLineNo = lineNo;
    if (pending.length > 0) {
      endsWithNewline = false;
      const parsed = handleLine(pending, 0, pending.length, pendingOffset, lineNo++, false, lines, problems);
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

function handleLine(
  data: Buffer,
  start: number,
  end: number,
  offset: number,
  lineNo: number,
  terminated: boolean,
  lines: ParsedLine[],
  problems: LoadProblem[],
): boolean {
  const length = end - start;
  let textEnd = end;
  if (textEnd > start && data[textEnd - 1] === 0x0d) textEnd--; // CRLF files
  const raw = data.toString('utf8', start, textEnd);
  // The raw range keeps a byte order mark, so a rewrite writes the header back as it was.
  const text = offset === 0 ? withoutByteOrderMark(raw) : raw;
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return true;
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
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
