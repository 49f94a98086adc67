// Reading deferred entry bodies (docs/architecture.md "Opening a session"): opening a session indexes most
// lines from their heads only (line-head.ts); this reads such lines' bytes back from the file the index was
// built from, parses them and checks them against their heads. Reads are synchronous (the store's getters
// are) and batched: consecutive lines are read in one span.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { LineHead } from './line-head';
import { parseLineText } from './scan';

/** One deferred line: where it is, and what its head said. */
export interface DeferredLine {
  lineNo: number;
  offset: number;
  length: number;
  head: LineHead;
}

/** A deferred line read back: its parsed value, or why it could not be read or parsed. */
export type BodyRead = { value: unknown } | { problem: string };

const SPAN = 4 * 1024 * 1024;

/** Reads deferred lines of the file as it was scanned (same inode); a replaced file yields problems. */
export class BodyReader {
  constructor(
    private readonly file: string,
    private readonly ino: number,
  ) {}

  /** `lines` in file order → one result each, in the same order. */
  read(lines: readonly DeferredLine[]): BodyRead[] {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch (error) {
      return lines.map(() => ({ problem: `the session file could not be read again (${(error as Error).message})` }));
    }
    try {
      if (fstatSync(fd).ino !== this.ino) return lines.map(() => ({ problem: 'the session file was replaced by another writer before this line was read; reopen it' }));
      return readSpans(fd, lines);
    } finally {
      closeSync(fd);
    }
  }
}

function readSpans(fd: number, lines: readonly DeferredLine[]): BodyRead[] {
  const out: BodyRead[] = [];
  for (let first = 0; first < lines.length; ) {
    const last = spanEnd(lines, first);
    const start = lines[first]!.offset;
    const end = lines[last]!.offset + lines[last]!.length;
    const bytes = Buffer.allocUnsafe(end - start);
    const got = readSync(fd, bytes, 0, bytes.length, start);
    for (let i = first; i <= last; i++) out.push(bodyOf(bytes, got, lines[i]!, start));
    first = last + 1;
  }
  return out;
}

/** The last index of a run from `first` that is close together in the file and at most SPAN bytes long. */
function spanEnd(lines: readonly DeferredLine[], first: number): number {
  const start = lines[first]!.offset;
  let last = first;
  while (last + 1 < lines.length) {
    const next = lines[last + 1]!;
    const gap = next.offset - (lines[last]!.offset + lines[last]!.length);
    if (gap < 0 || gap > 64 * 1024 || next.offset + next.length - start > SPAN) break;
    last++;
  }
  return last;
}

function bodyOf(bytes: Buffer, got: number, line: DeferredLine, spanStart: number): BodyRead {
  const from = line.offset - spanStart;
  if (from + line.length > got) return { problem: 'the session file is shorter than when it was opened; reopen it' };
  return parseLineText(bytes.toString('utf8', from, from + line.length));
}

/** Whether a parsed body still is the entry its head announced (the file may have changed in place). */
export function matchesHead(value: unknown, head: LineHead): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return entry.type === head.type && entry.id === head.id && entry.parentId === head.parentId && entry.timestamp === head.timestamp;
}
