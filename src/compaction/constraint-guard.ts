// The old design's guard (before docs/architecture.md, "What the user said"): a summary checked against
// the classifier's sentences, whatever it lost put back in a kept section. Nothing in the product uses it
// now; bench/user-words.mjs replays it as the baseline the verbatim design is measured against, and
// ./user-ledger.ts strips the section it wrote from older summaries. Pure text work.
import { missingConstraints, type KeptConstraint } from './constraints';
import { compactionPrompt } from './prompt-text';

export type { KeptConstraint } from './constraints';

const KEPT_HEADING = /^## User's Words \(kept verbatim\)[ \t]*$/m;

/** One line per constraint for prompts and the kept section (continuation lines indented). */
export function constraintLines(constraints: readonly KeptConstraint[]): string {
  return constraints.map((c) => `- ${c.kind === 'pinned' ? '(pinned) ' : ''}${c.text.replace(/\r?\n/g, '\n  ')}`).join('\n');
}

/** The summary without an earlier kept section (up to the next `## ` heading or the end). */
export function withoutKeptSection(summary: string): string {
  const match = KEPT_HEADING.exec(summary);
  if (!match) return summary;
  const rest = summary.slice(match.index + match[0].length);
  const next = /^## /m.exec(rest);
  const tail = next ? rest.slice(next.index) : '';
  return `${summary.slice(0, match.index).trimEnd()}${tail ? `\n\n${tail}` : ''}`.trimEnd();
}

export interface KeptConstraints {
  /** the summary with every constraint present, verbatim */
  summary: string;
  /** the constraints the summary had lost (now in the kept section) */
  missing: KeptConstraint[];
}

/** Checks the summary and appends the kept section with whatever it lost. */
export function keepConstraints(summary: string, constraints: readonly KeptConstraint[]): KeptConstraints {
  if (constraints.length === 0) return { summary, missing: [] };
  const base = withoutKeptSection(summary);
  const missing = missingConstraints(base, constraints);
  if (missing.length === 0) return { summary: base, missing };
  const section = compactionPrompt('kept-constraints', { lines: constraintLines(missing) });
  return { summary: `${base.trimEnd()}\n\n${section}`, missing };
}
