// Short text shown for a session or an entry in lists (Sessions view, search results, chat header).
import { plainMarkdownLine } from './plain-line';

/** The first non-empty line, trimmed, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max: number): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** How long a session title drawn from its first user message may be. */
export const SESSION_TITLE_MAX = 80;

/** A session's title: its name, else the first line of its first user message; undefined if neither. */
export function sessionDisplayTitle(name: string | undefined, firstUserMessage: string | undefined): string | undefined {
  return name ?? (firstUserMessage ? firstLine(plainMarkdownLine(firstLine(firstUserMessage, SESSION_TITLE_MAX)), SESSION_TITLE_MAX) || undefined : undefined);
}
