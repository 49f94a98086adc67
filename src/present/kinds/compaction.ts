// `compaction` entries: a summary that stands for the conversation before it. Its summary (after pi 1.5's
// system message) enters the context only where the compaction opens it (context.ts's path rules).
import { nativeContextNotes } from '../../core/native-compaction';
import { withoutHeadings } from '../../core/plain-line';
import { summaryTitle } from '../../core/summary-title';
import type { CompactionEntry } from '../../session/entries';
import type { EntryKind } from './kind';
import { finiteCount, optionalText } from '../normalize-view';
import { compactionReason, detailsRecord, fileLists, shownSummary, viewOf } from '../entry-views';
import { keptWordsView } from '../../compaction/user-words-view';
import { addSummarizerFigures, savedTokensAfter } from '../marker-figures';
import { markdownFirstLine } from '../summary-text';

export const compactionKind: EntryKind<CompactionEntry> = {
  isShown: () => true,
  view(entry, label, problems) {
    const details = detailsRecord(entry.details);
    const { readFiles, modifiedFiles } = fileLists(details);
    const tokensBefore = finiteCount(entry.tokensBefore, 'tokensBefore', problems);
    const summary = shownSummary(entry.summary, { readFiles, modifiedFiles });
    // the first kept entry defaults to the compaction itself (nothing before it is kept)
    const view = viewOf<'compaction'>(entry, label, { kind: 'compaction', summary, tokensBefore, readFiles, modifiedFiles, firstKeptEntryId: entry.firstKeptEntryId || entry.id });
    const shortSummary = optionalText(entry.shortSummary, 'shortSummary', problems);
    if (shortSummary) view.shortSummary = shortSummary;
    const reason = compactionReason(details.reason);
    if (reason) view.reason = reason;
    const after = savedTokensAfter(entry, details);
    if (after !== undefined) {
      view.tokensAfter = after;
      view.tokensAfterEstimated = true;
    }
    addSummarizerFigures(view, details);
    const native = nativeContextNotes(entry.preserveData)[0];
    if (native) view.nativeContext = native;
    const kept = keptWordsView(entry.details, entry.fromHook);
    if (kept.length > 0) view.kept = kept;
    return view;
  },
  treeKind: () => 'compaction',
  // named by what the summary says (its goal), never by a heading or the recap's first words
  summaryLine: (entry) => summaryTitle(entry.summary) || markdownFirstLine(entry.shortSummary ?? ''),
  look: (entry, t) => ({ kind: t('Compaction summary ({0} tokens before)', entry.tokensBefore), icon: 'fold', text: entry.summary }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.summary,
  sections: (entry, problems) => [{ title: `Compaction summary (${finiteCount(entry.tokensBefore, 'tokensBefore', problems)} tokens before)`, text: entry.summary }],
};
