// The one-line snippet a search hit shows: at most SNIPPET_MAX characters around the match, whitespace
// collapsed, cut at word edges with an ellipsis, with the offsets to highlight. Apart from search.ts, which
// finds the matches.
import type { Word } from './search-words';

export const SNIPPET_MAX = 120;

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Moves `index` off the middle of a surrogate pair (towards `direction`). */
function codePointBoundary(text: string, index: number, direction: -1 | 1): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(text.length, index));
  return isLowSurrogate(text.charCodeAt(index)) ? index + direction : index;
}

/**
 * One line of at most SNIPPET_MAX characters around text[start, end): whitespace collapsed, an ellipsis
 * where the text was cut, and the offsets of the match and of every word occurrence in it.
 */
export function makeSnippet(
  text: string,
  start: number,
  end: number,
  words: readonly Pick<Word, 'all'>[],
  max = SNIPPET_MAX,
): { snippet: string; match: [number, number]; highlights: [number, number][] } {
  const collapse = (s: string) => s.replace(/\s+/gu, ' ');
  // Enough raw text on both sides for the budget even after whitespace collapses a little.
  const from = codePointBoundary(text, Math.max(0, start - 4 * max), -1);
  const to = codePointBoundary(text, Math.min(text.length, end + 4 * max), 1);
  let before = collapse(text.slice(from, start));
  let after = collapse(text.slice(end, to));
  let matched = collapse(text.slice(start, end));
  if (from === 0) before = before.trimStart();
  if (to === text.length) after = after.trimEnd();
  const budget = max - 2; // room for two ellipses
  if (matched.length > budget) matched = matched.slice(0, codePointBoundary(matched, budget, -1));
  const room = budget - matched.length;
  // About a third of the room before the match, the rest after; unused room goes to the other side.
  let keepBefore = Math.min(before.length, Math.max(Math.floor(room / 3), room - after.length));
  let keepAfter = Math.min(after.length, room - keepBefore);
  keepBefore = Math.min(before.length, room - keepAfter);
  let head = before.slice(codePointBoundary(before, before.length - keepBefore, 1));
  let tail = after.slice(0, codePointBoundary(after, keepAfter, -1));
  const cutBefore = head.length < before.length || from > 0;
  const cutAfter = tail.length < after.length || to < text.length;
  // Prefer cutting at a space near the edge, so the snippet does not start or end mid-word.
  if (cutBefore) {
    const space = head.indexOf(' ');
    if (space >= 0 && space < 16) head = head.slice(space + 1);
  }
  if (cutAfter) {
    const space = tail.lastIndexOf(' ');
    if (space >= 0 && tail.length - space < 16) tail = tail.slice(0, space);
  }
  const prefix = cutBefore ? '…' : '';
  const snippet = `${prefix}${head}${matched}${tail}${cutAfter ? '…' : ''}`;
  const match: [number, number] = [prefix.length + head.length, prefix.length + head.length + matched.length];
  const ranges: [number, number][] = [match];
  for (const word of words) {
    word.all.lastIndex = 0;
    for (const m of snippet.matchAll(word.all)) {
      if (m[0].length > 0) ranges.push([m.index!, m.index! + m[0].length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const highlights: [number, number][] = [];
  for (const range of ranges) {
    const last = highlights[highlights.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else highlights.push([range[0], range[1]]);
  }
  return { snippet, match, highlights };
}
