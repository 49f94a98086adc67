// Labels in lists and trees are one line of plain text, but messages and summaries are Markdown: these
// helpers take the marks off a line ("## ", "- ", "**", "`", "[text](url)") so a label reads as text.
// Used for tree labels (src/app/view-model.ts); shell commands and tool output keep their characters.

const BLOCK_MARK = /^(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)+/;
const HEADING = /^#{1,6}\s/;

/** One Markdown line as plain text: no heading, quote or list mark, no emphasis or code marks, links as their text. */
export function plainMarkdownLine(line: string): string {
  return line
    .trim()
    .replace(BLOCK_MARK, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?![\w*])/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .trim();
}

/** The text of a Markdown document with its headings left out (a summary's "## Goal" names no content). */
export function withoutHeadings(text: string): string {
  const lines = text.split(/\r?\n/);
  const content = lines.filter((line) => line.trim() !== '' && !HEADING.test(line.trim()));
  return content.length > 0 ? content.join('\n') : text;
}
