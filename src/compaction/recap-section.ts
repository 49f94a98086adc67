// The UI recap asked in the summary request itself (a last "## Recap" section, prompts/compaction/recap-section.md)
// instead of a request of its own: the section is cut from the answer and becomes the compaction's short
// summary (docs/architecture.md, "Compaction cost"). Pure text work.

/**
 * The answer without its "## Recap" section, and that section's prose as the UI recap when it was asked for
 * and written; without one, `compact` (src/compaction/summarize.ts) asks for the recap in a request of its own.
 */
export function withRecap(answer: string, options: { shortSummary?: boolean }): { summary: string; shortSummary?: string } {
  const heading = options.shortSummary === false ? null : RECAP_HEADING.exec(answer);
  if (!heading) return { summary: answer };
  const rest = answer.slice(heading.index + heading[0].length);
  const end = /^## /m.exec(rest)?.index ?? rest.length;
  const recap = rest.slice(0, end).trim().slice(0, RECAP_MAX_CHARS);
  const summary = `${answer.slice(0, heading.index).trimEnd()}${end < rest.length ? `\n\n${rest.slice(end)}` : ''}`;
  return recap === '' ? { summary } : { summary, shortSummary: recap };
}

/** A remote endpoint's answer: its own recap first, else the section its summary ends with (cut from it either way). */
export function withRemoteRecap(remote: { summary: string; shortSummary?: string }, options: { shortSummary?: boolean }): { summary: string; shortSummary?: string } {
  const split = withRecap(remote.summary, options);
  const shortSummary = remote.shortSummary ?? split.shortSummary;
  return shortSummary ? { summary: split.summary, shortSummary } : { summary: split.summary };
}

const RECAP_HEADING = /^## Recap[ \t]*$/m;
/** What SHORT_SUMMARY_MAX_TOKENS holds, in characters. */
const RECAP_MAX_CHARS = 2000;

