// Full-text search over session files ("Arbor: Search Sessions"). Each file is streamed in fixed-size
// chunks and handled line by line, so memory stays bounded by the chunk and the longest line, never by
// the file. Only the text a user recognises is matched: user and assistant text (thinking text too, not
// its signature), tool-call names and argument values, tool results, shell commands and output,
// extension messages that are displayed, compaction and branch summaries, labels and session names.
// Matching is case-insensitive (Unicode simple case folding); every word of the query must occur in the
// same entry, in any order. Bad lines are skipped, an unreadable file is one error in the result, and an
// AbortSignal stops the search between lines. The query's words are search-words.ts, the hit's snippet
// search-snippet.ts.
import { errorText } from '../core/error-text';
import { open } from 'node:fs/promises';
import { parseJsonObject, withoutByteOrderMark } from './json-object';
import { sessionDisplayTitle } from '../core/text';
import { entryTypeOf } from './entry-types';
import { makeSnippet } from './search-snippet';
import { searchContentText, type Searchable, type SearchHitKind } from './search-text';
import { compileWord, queryWords, type Word } from './search-words';

export type { SearchHitKind };

/** A file to search; `title` (as the Sessions view shows it) saves reading the rest of a capped file for it. */
export interface SearchTarget {
  file: string;
  title?: string;
}

export interface SessionSearchHit {
  file: string;
  /** the session header's id */
  sessionId: string;
  /** the session's name, else the first line of its first user message; undefined for an empty session */
  title: string | undefined;
  /** the entry to show: for a label hit the labelled entry, otherwise the matching entry itself */
  entryId: string;
  /** the id of the matching line's entry when it differs from `entryId` (the label entry) */
  sourceEntryId?: string;
  kind: SearchHitKind;
  /** tool name of a toolResult hit */
  toolName?: string;
  /** ISO-8601 time of the entry, when it has one */
  timestamp: string | undefined;
  /** one line of text around the first match, whitespace collapsed, at most SNIPPET_MAX characters */
  snippet: string;
  /** [start, end) UTF-16 offsets into `snippet` of the first match */
  match: [number, number];
  /** [start, end) offsets into `snippet` of every occurrence of any query word in it, sorted, merged */
  highlights: [number, number][];
}

export interface SearchFileError {
  file: string;
  message: string;
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** most hits in total (default DEFAULT_LIMIT) */
  limit?: number;
  /** most hits per session (default DEFAULT_PER_SESSION): the first ones in file order */
  perSession?: number;
  /** called for every hit as soon as its session's title is known (right away when the target gives it); if it throws, the search rejects with that error at the end */
  onResult?: (hit: SessionSearchHit) => void;
  /** bytes per read (default 1 MiB) */
  chunkSize?: number;
}

export interface SearchStats {
  /** read calls */
  reads: number;
  /** the most bytes one read returned */
  largestRead: number;
  /** the longest line (bytes), which is as much as is ever held besides the chunk */
  largestLine: number;
  /** lines that were not valid JSON (skipped) */
  badLines: number;
}

export interface SearchResult {
  /** every hit delivered, in delivery order (files in the given order, entries in file order) */
  hits: SessionSearchHit[];
  /** files that could not be searched (unreadable, not a session file) */
  errors: SearchFileError[];
  filesSearched: number;
  bytesRead: number;
  /** the signal aborted the search; `hits` holds what was delivered before */
  cancelled: boolean;
  /** `limit` was reached: there may be more hits */
  truncated: boolean;
  /** files whose per-session cap was reached */
  capped: string[];
  stats: SearchStats;
}

export const DEFAULT_LIMIT = 200;
export const DEFAULT_PER_SESSION = 20;
const DEFAULT_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;
/** Searches `files` (paths or targets) for `query`; see the file comment for what is matched. */
export async function searchSessions(
  files: readonly (string | SearchTarget)[],
  query: string,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const result: SearchResult = {
    hits: [],
    errors: [],
    filesSearched: 0,
    bytesRead: 0,
    cancelled: false,
    truncated: false,
    capped: [],
    stats: { reads: 0, largestRead: 0, largestLine: 0, badLines: 0 },
  };
  const words = queryWords(query).map(compileWord);
  const limit = Math.max(0, options.limit ?? DEFAULT_LIMIT);
  const perSession = Math.max(1, options.perSession ?? DEFAULT_PER_SESSION);
  const chunkSize = Math.max(16, Math.floor(options.chunkSize ?? DEFAULT_CHUNK));
  const signal = options.signal;
  if (words.length === 0 || limit === 0) return result;
  let total = 0;
  let callbackError: { error: unknown } | undefined;
  const deliver = (hit: SessionSearchHit) => {
    result.hits.push(hit);
    total++;
    // A throwing callback is the caller's bug, not a problem of the file being read: rethrown at the end.
    try {
      options.onResult?.(hit);
    } catch (error) {
      callbackError ??= { error };
    }
  };
  for (const item of files) {
    if (signal?.aborted) {
      result.cancelled = true;
      break;
    }
    if (total >= limit) {
      result.truncated = true;
      break;
    }
    const target = typeof item === 'string' ? { file: item } : item;
    const cap = Math.min(perSession, limit - total);
    // With a given title hits go out at once; otherwise they wait for the end of the file (a later
    // rename wins, as in the Sessions view).
    const search = new FileSearch(target, words, cap, signal, target.title !== undefined ? deliver : undefined);
    try {
      await search.run(chunkSize, result.stats);
      if (!search.cancelled) result.filesSearched++;
    } catch (error) {
      result.errors.push({ file: target.file, message: errorMessage(error) });
    }
    result.bytesRead += search.bytesRead;
    if (search.cancelled) {
      result.cancelled = true;
      break;
    }
    if (target.title === undefined) {
      const title = search.title();
      for (const hit of search.hits) deliver({ ...hit, title });
    }
    if (search.hits.length >= perSession) result.capped.push(target.file);
    else if (search.hits.length >= cap) result.truncated = true;
  }
  if (signal?.aborted) result.cancelled = true;
  if (callbackError) throw callbackError.error;
  return result;
}

class NotASession extends Error {}

/** One file: streams it and collects up to `cap` hits. */
class FileSearch {
  readonly hits: SessionSearchHit[] = [];
  bytesRead = 0;
  cancelled = false;
  private sessionId: string | undefined;
  private name: string | undefined;
  private firstUser: string | undefined;
  private sawHeader = false;
  private readonly ids = new Set<string>();

  constructor(
    private readonly target: SearchTarget,
    private readonly words: readonly Word[],
    private readonly cap: number,
    private readonly signal: AbortSignal | undefined,
    private readonly deliver: ((hit: SessionSearchHit) => void) | undefined,
  ) {}

  title(): string | undefined {
    return this.target.title ?? sessionDisplayTitle(this.name, this.firstUser);
  }

  private get collecting(): boolean {
    return this.hits.length < this.cap;
  }

  /** Reads the file chunk by chunk; lines are handled as they complete. Throws for unreadable files. */
  async run(chunkSize: number, stats: SearchStats): Promise<void> {
    const handle = await open(this.target.file, 'r');
    try {
      const chunk = Buffer.allocUnsafe(chunkSize);
      let carry: Buffer[] = []; // the start of a line that continues in the next chunk (copied: `chunk` is reused)
      let carryLength = 0;
      let position = 0;
      for (;;) {
        if (this.signal?.aborted) {
          this.cancelled = true;
          return;
        }
        // Done once nothing more is collected and the title is known (or given).
        if (!this.collecting && !this.needsTitle()) return;
        const { bytesRead } = await handle.read(chunk, 0, chunkSize, position);
        if (bytesRead === 0) break;
        stats.reads++;
        stats.largestRead = Math.max(stats.largestRead, bytesRead);
        position += bytesRead;
        this.bytesRead += bytesRead;
        const data = chunk.subarray(0, bytesRead);
        let start = 0;
        for (;;) {
          const nl = data.indexOf(NEWLINE, start);
          if (nl < 0) break;
          if (carryLength > 0) {
            carry.push(data.subarray(start, nl));
            const line = Buffer.concat(carry, carryLength + nl - start);
            carry = [];
            carryLength = 0;
            this.line(line, 0, line.length, stats);
          } else {
            this.line(data, start, nl, stats);
          }
          start = nl + 1;
          if (this.signal?.aborted) {
            this.cancelled = true;
            return;
          }
          if (!this.collecting && !this.needsTitle()) return;
        }
        if (start < bytesRead) {
          carry.push(Buffer.from(data.subarray(start)));
          carryLength += bytesRead - start;
        }
      }
      if (carryLength > 0) {
        const line = Buffer.concat(carry, carryLength);
        this.line(line, 0, line.length, stats);
      }
      if (!this.sawHeader) throw new NotASession('empty file: no session header');
    } finally {
      await handle.close();
    }
  }

  private needsTitle(): boolean {
    return this.target.title === undefined;
  }

  private line(data: Buffer, start: number, end: number, stats: SearchStats): void {
    let textEnd = end;
    if (textEnd > start && data[textEnd - 1] === 0x0d) textEnd--; // CRLF files
    stats.largestLine = Math.max(stats.largestLine, textEnd - start);
    if (textEnd === start) return;
    const text = data.toString('utf8', start, textEnd);
    if (!this.sawHeader) {
      if (text.trim() === '') return;
      const header = parseJsonObject(withoutByteOrderMark(text));
      if (!header) {
        stats.badLines++;
        throw new NotASession('not a session file: the first line is not valid JSON');
      }
      if (header.type !== 'session' || typeof header.id !== 'string') throw new NotASession('not a session file: the first line is not a session header');
      this.sawHeader = true;
      this.sessionId = header.id;
      return;
    }
    let parsed: Record<string, unknown> | null | undefined; // undefined: not parsed yet; null: bad line
    const parse = () => {
      if (parsed === undefined) {
        parsed = parseJsonObject(text) ?? null;
        if (parsed === null) stats.badLines++;
      }
      return parsed;
    };
    if (this.needsTitle()) {
      if (text.includes('"session_info"')) {
        const entry = parse();
        if (entry?.type === 'session_info') {
          const name = typeof entry.name === 'string' ? entry.name.trim() : '';
          this.name = name || undefined;
        }
      } else if (this.firstUser === undefined && text.includes('"user"')) {
        const entry = parse();
        const message = entry?.type === 'message' ? (entry.message as Record<string, unknown> | undefined) : undefined;
        if (message && message.role === 'user') this.firstUser = searchContentText(message.content);
      }
    }
    if (!this.collecting) return;
    // Cheap test on the raw line first: most lines do not contain every word.
    if (!text.includes('\\u')) {
      for (const word of this.words) if (word.rawSafe && !word.once.test(text)) return;
    }
    const entry = parse();
    if (!entry || typeof entry.type !== 'string' || typeof entry.id !== 'string') return;
    if (this.ids.has(entry.id)) return; // a duplicated line: the first one counts, as in the store
    this.ids.add(entry.id);
    const found = searchableText(entry);
    if (!found || !found.text) return;
    const hit = this.match(entry, found);
    if (!hit) return;
    this.hits.push(hit);
    this.deliver?.(hit);
  }

  private match(entry: Record<string, unknown>, found: Searchable): SessionSearchHit | undefined {
    let first: { index: number; length: number } | undefined;
    for (const word of this.words) {
      const m = word.once.exec(found.text);
      if (!m) return undefined;
      if (!first || m.index < first.index) first = { index: m.index, length: m[0].length };
    }
    const { snippet, match, highlights } = makeSnippet(found.text, first!.index, first!.index + first!.length, this.words);
    const entryId = found.entryId ?? (entry.id as string);
    return {
      file: this.target.file,
      sessionId: this.sessionId ?? '',
      title: this.target.title,
      entryId,
      ...(entryId !== entry.id ? { sourceEntryId: entry.id as string } : {}),
      kind: found.kind,
      ...(found.toolName !== undefined ? { toolName: found.toolName } : {}),
      timestamp: timestampOf(entry),
      snippet,
      match,
      highlights,
    };
  }
}

/** The user-recognisable text of an entry (its kind's), or undefined for entries that have none. */
export function searchableText(entry: Record<string, unknown>): Searchable | undefined {
  return entryTypeOf(entry).searchable(entry);
}

function timestampOf(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.timestamp === 'string' && !Number.isNaN(Date.parse(entry.timestamp))) return entry.timestamp;
  const message = entry.message as { timestamp?: unknown } | undefined;
  if (message && typeof message.timestamp === 'number' && Number.isFinite(message.timestamp)) {
    const date = new Date(message.timestamp);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return undefined;
}

function errorMessage(error: unknown): string {
  if (error instanceof NotASession) return error.message;
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = errorText(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
