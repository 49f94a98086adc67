// Checks a generated summary before it is stored: a summary that lost its structure loses information
// in every later update, so a malformed one gets one corrective retry.
import type { FileLists } from './file-ops';

/** Headings every checkpoint must contain (pi's structure, docs/pi-compatibility.md "What a compaction summarizes"). */
export const REQUIRED_SECTIONS = [
  '## Goal',
  '## Constraints & Preferences',
  '## Progress',
  '## Key Decisions',
  '## Next Steps',
  '## Critical Context',
] as const;

function hasHeading(text: string, heading: string): boolean {
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\s*${escaped}\\s*$`, 'm').test(text);
}

/** Problems with a checkpoint's structure; empty when it is fine. */
export function checkSummarySections(text: string): string[] {
  if (text.trim() === '') return ['the answer was empty'];
  const missing = REQUIRED_SECTIONS.filter((h) => !hasHeading(text, h));
  return missing.length > 0 ? [`missing section${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`] : [];
}

/** Problems with the file blocks of a final summary (each non-empty list needs its block). */
export function checkFileTags(summary: string, lists: FileLists): string[] {
  const problems: string[] = [];
  if (lists.readFiles.length > 0 && !/<read-files>[\s\S]*<\/read-files>/.test(summary)) problems.push('missing <read-files>');
  if (lists.modifiedFiles.length > 0 && !/<modified-files>[\s\S]*<\/modified-files>/.test(summary)) {
    problems.push('missing <modified-files>');
  }
  return problems;
}
