// A search query's words: how the query is split, and each word compiled once into the matchers the search
// uses (case-insensitive, Unicode-aware; whether it can be tested on a raw JSON line). Apart from search.ts,
// which streams the files.

const MAX_WORDS = 16;

export interface Word {
  text: string;
  /** case-insensitive, Unicode-aware, first match */
  once: RegExp;
  /** the same, global, for highlights */
  all: RegExp;
  /** the word reads the same inside a JSON string (so the raw line can be tested before parsing) */
  rawSafe: boolean;
}

/** The query's words: split on whitespace, duplicates (ignoring case) dropped, at most MAX_WORDS. */
export function queryWords(query: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const word of query.split(/\s+/u)) {
    if (!word) continue;
    const key = word.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    words.push(word);
    if (words.length === MAX_WORDS) break;
  }
  return words;
}

export function compileWord(text: string): Word {
  // In `u` mode only syntax characters may be escaped.
  const source = text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  return {
    text,
    once: new RegExp(source, 'iu'),
    all: new RegExp(source, 'giu'),
    // JSON.stringify escapes quotes, backslashes and control characters; other writers may escape `/`.
    // Escaped non-ASCII (`\uXXXX`) is detected per line instead.
    rawSafe: !/["\\/\u0000-\u001f]/u.test(text),
  };
}
