// One-line texts of entries for the trees (the `firstLine` of a node): bounded, plain (Markdown marks
// removed), and cheap on long contents (only the head of a long text is read when it decides the line).
import { plainMarkdownLine } from '../core/plain-line';
import { contentText } from '../core/messages';

const FIRST_LINE_MAX = 120;

export function firstLine(text: unknown): string {
  if (typeof text !== 'string') return '';
  const trimmed = text.trimStart();
  const end = trimmed.indexOf('\n');
  const line = (end === -1 ? trimmed : trimmed.slice(0, end)).trim();
  return line.length > FIRST_LINE_MAX ? `${line.slice(0, FIRST_LINE_MAX - 1)}…` : line;
}

/** How much of a long text the first line is looked for in before falling back to the whole text. */
const HEAD_CHARS = 512;

export type TextContent = string | readonly { type: string; text?: unknown }[];

/** The start of `contentText(content)` (up to HEAD_CHARS) without joining every block of a long result. */
function contentHead(content: TextContent): { head: string; complete: boolean } {
  if (typeof content === 'string') return content.length > HEAD_CHARS ? { head: content.slice(0, HEAD_CHARS), complete: false } : { head: content, complete: true };
  let out = '';
  for (const block of content) {
    if (block.type !== 'text' || typeof block.text !== 'string') continue;
    out += block.text;
    if (out.length > HEAD_CHARS) return { head: out.slice(0, HEAD_CHARS), complete: false };
  }
  return { head: out, complete: true };
}

/** Whether `firstLine(head)` equals `firstLine(head + anything)`: the line ends inside the head, or is cut anyway. */
function headDecides(head: string): boolean {
  const trimmed = head.trimStart();
  if (trimmed.length === 0) return false;
  return trimmed.includes('\n') || trimmed.trimEnd().length > FIRST_LINE_MAX;
}

/** `firstLine(prefix + contentText(content))`, reading only the head of a long content. */
export function contentFirstLine(content: TextContent, prefix = ''): string {
  const { head, complete } = contentHead(content);
  if (complete || headDecides(prefix + head)) return firstLine(prefix + head);
  return firstLine(prefix + contentText(content));
}

/** The first line of Markdown text as plain text. */
export function markdownFirstLine(line: string): string {
  return firstLine(plainMarkdownLine(line));
}
