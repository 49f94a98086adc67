// `branch_summary` entries: what happened on a branch the user left, a message of its own in the context
// (skipped there when empty, as pi does).
import { summaryTitle } from '../../core/summary-title';
import type { BranchSummaryEntry } from '../../session/entries';
import type { EntryKind } from './kind';
import { addFiles, stageOf, textView } from '../entry-views';
import { addSummarizerFigures } from '../marker-figures';

export const branchSummaryKind: EntryKind<BranchSummaryEntry> = {
  isShown: () => true,
  view(entry, label) {
    const view = textView(entry, 'branch_summary', entry.summary, label);
    view.fromId = entry.fromId;
    addSummarizerFigures(view, addFiles(view, entry.details));
    const stage = stageOf(entry.details);
    if (stage) view.stage = stage;
    if (entry.fromHook) view.fromHook = true;
    return view;
  },
  treeKind: () => 'branch_summary',
  summaryLine: (entry) => summaryTitle(entry.summary),
  look: (entry, t) => ({ kind: t('Branch summary'), icon: 'git-merge', text: entry.summary }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.summary,
  sections: (entry) => (entry.summary ? [{ title: 'Branch summary', text: entry.summary }] : []),
};
