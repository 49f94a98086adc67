// How much Markdown a message may hand the renderer (docs/reliability.md, "hostile input"). markdown-it
// and the page's layout cost grow with the text and with a table's cells: a 2 MB table of 5,000 columns
// (in a reply, a pasted prompt or a session file) froze the chat for 49 s. A message over either limit
// is shown as plain text with "Show as Markdown" (markdown.ts); the check itself is one linear pass.
//  - MARKDOWN_MAX_CHARS: the slowest inputs known at this size (unclosed brackets, emphasis runs, a
//    narrow table) parse in well under a second (test/hardening/attacks/markdown-size.test.ts reports it).
//  - MARKDOWN_MAX_COLUMNS: a table's column count is its delimiter row's (`|---|:--:|`); wider tables
//    lay out slowly and are unreadable in a side bar anyway.

export const MARKDOWN_MAX_CHARS = 50_000;
export const MARKDOWN_MAX_COLUMNS = 64;

export type MarkdownGuardReason = 'size' | 'columns';

/** Why `text` must not be rendered as Markdown unasked; undefined when it may. */
export function markdownGuard(text: string): MarkdownGuardReason | undefined {
  if (text.length > MARKDOWN_MAX_CHARS) return 'size';
  return widestTable(text) > MARKDOWN_MAX_COLUMNS ? 'columns' : undefined;
}

/** The most columns of any line that can be a table's delimiter row (only `|`, `:`, `-`, blanks; a `-`). */
export function widestTable(text: string): number {
  let widest = 0;
  let start = 0;
  for (let end = text.indexOf('\n'); start <= text.length; end = text.indexOf('\n', start)) {
    if (end === -1) end = text.length;
    widest = Math.max(widest, delimiterColumns(text, start, end));
    start = end + 1;
  }
  return widest;
}

/** The columns of text[start, end) as a delimiter row (`| --- | :-: |` has 2), or 0 when it is none. */
function delimiterColumns(text: string, start: number, end: number): number {
  let pipes = 0;
  let dashes = false;
  let first = -1;
  let last = -1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 124) pipes++;
    else if (c === 45) dashes = true;
    else if (c !== 58 && c !== 32 && c !== 9 && c !== 13) return 0;
    if (c !== 32 && c !== 9 && c !== 13) {
      if (first === -1) first = c;
      last = c;
    }
  }
  if (!dashes || pipes === 0) return 0;
  return pipes + 1 - (first === 124 ? 1 : 0) - (last === 124 && pipes > 1 ? 1 : 0);
}
