// A structured summary's one-line name (issue 25): what its "Goal" section says, as plain text, shortened at
// a word. Compaction and branch-summary nodes, and the session a handoff starts, are named with it, so a
// tree of compactions reads as what each one was about rather than "Goal" (docs/architecture.md,
// compaction markers). Text with no Goal section is named by its first line of content.
import { plainMarkdownLine } from './plain-line';

/** How long a summary's name may be (characters, the ellipsis included). */
export const SUMMARY_TITLE_MAX = 60;

const HEADING = /^\s*#{1,6}\s+(.*)$/;
const GOAL_HEADING = /^(?:goal|goals|original request)\b/i;
const TAG_LINE = /^<\/?[a-z][\w-]*>$/i;
const TASK_MARK = /^\[[ xX]\]\s+/;

/** The plain text of one content line: no Markdown marks, no task box, no wrapping tag. */
function contentOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed === '' || TAG_LINE.test(trimmed) || HEADING.test(trimmed)) return '';
  return plainMarkdownLine(trimmed).replace(TASK_MARK, '').trim();
}

/** The first line of content after the Goal heading, or undefined when there is no such section. */
function goalLine(lines: readonly string[]): string | undefined {
  const start = lines.findIndex((line) => GOAL_HEADING.test(HEADING.exec(line)?.[1]?.trim() ?? ''));
  if (start === -1) return undefined;
  for (const line of lines.slice(start + 1)) {
    if (HEADING.test(line)) return undefined;
    const content = contentOf(line);
    if (content) return content;
  }
  return undefined;
}

/** `text` cut to `max` characters at a word boundary (when one is near), with an ellipsis. */
export function shorten(text: string, max = SUMMARY_TITLE_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The name of a summary: its goal, else its first line of content; '' for a summary with no content. */
export function summaryTitle(summary: string, max = SUMMARY_TITLE_MAX): string {
  const lines = summary.split(/\r?\n/);
  const line = goalLine(lines) ?? lines.map(contentOf).find((l) => l !== '') ?? '';
  return shorten(line, max);
}
