// Labels in lists and trees are one line of plain text, but messages and summaries are Markdown: these
// helpers take the marks off a line ("## ", "- ", "**", "`", "[text](url)") so a label reads as text.
// Used for tree labels (src/app/view-model.ts, the Session Tree) and search snippets; shell commands and
// tool output keep their characters; a tool call is its name and target, never its JSON.

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

/** The argument that names what a tool call works on, in the order tools name it. */
const KEY_ARGUMENTS = ['path', 'command', 'pattern', 'query', 'file', 'url'] as const;

/** A tool call as a label: its name and what it works on ("write README.md"), never its JSON. */
export function toolCallLine(name: string, args: unknown): string {
  const record = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  const key = KEY_ARGUMENTS.map((k) => record[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const target = key?.trim().split(/\r?\n/, 1)[0] ?? '';
  return target ? `${name} ${target}` : name;
}

const FENCE = /^\s*(```|~~~)/;

/** A Markdown text as plain lines (each line as plainMarkdownLine, fence lines dropped): what search shows. */
export function plainMarkdown(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => (FENCE.test(line) ? '' : plainMarkdownLine(line)))
    .filter((line) => line !== '')
    .join('\n');
}
