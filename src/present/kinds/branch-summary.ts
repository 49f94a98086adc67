// `branch_summary` entries: what happened on a branch the user left, a message of its own in the context
// (skipped there when empty, as pi does).
import { summaryTitle } from '../../core/summary-title';
import type { BranchSummaryEntry } from '../../session/entries';
import type { EntryKind } from './kind';
import { detailsRecord, fileLists, shownSummary, stageOf, viewOf } from '../entry-views';
import { addSummarizerFigures } from '../marker-figures';

export const branchSummaryKind: EntryKind<BranchSummaryEntry> = {
  isShown: () => true,
  view(entry, label) {
    const details = detailsRecord(entry.details);
    const { readFiles, modifiedFiles } = fileLists(details);
    const summary = shownSummary(entry.summary, { readFiles, modifiedFiles });
    // pi writes `root` for a summary at the root; an empty one means the same
    const view = viewOf<'branch_summary'>(entry, label, { kind: 'branch_summary', summary, fromId: entry.fromId || 'root', readFiles, modifiedFiles });
    addSummarizerFigures(view, details);
    const stage = stageOf(entry.details);
    if (stage) view.stage = stage;
    return view;
  },
  treeKind: () => 'branch_summary',
  summaryLine: (entry) => summaryTitle(entry.summary),
  look: (entry, t) => ({ kind: t('Branch summary'), icon: 'git-merge', text: entry.summary }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.summary,
  sections: (entry) => (entry.summary ? [{ title: 'Branch summary', text: entry.summary }] : []),
};
