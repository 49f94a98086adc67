// oh-my-pi's title slot: a fixed-width `{"type":"title","v":1,"title":…,"pad":"  …"}` line that omp writes
// before the session header and rewrites in place when the title changes. Arbor reads its title (the session
// name when no session_info names it), never writes it, and keeps it first, byte for byte, on a rewrite.
import type { ParsedLine } from './scan';

export interface TitleSlot {
  /** byte range of the slot line in the file */
  offset: number;
  length: number;
  title: string | undefined;
}

/** True for a parsed line that is omp's title slot. */
export function isTitleSlot(value: unknown): value is { type: 'title'; title?: unknown } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'title';
}

export function titleSlotOf(line: ParsedLine): TitleSlot {
  const title = (line.value as { title?: unknown }).title;
  return { offset: line.offset, length: line.length, title: typeof title === 'string' && title.trim() ? title.trim() : undefined };
}
