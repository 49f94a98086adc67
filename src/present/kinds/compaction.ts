// `compaction` entries: a summary that stands for the conversation before it. Its summary (after pi 1.5's
// system message) enters the context only where the compaction opens it (context.ts's path rules).
import { nativeContextNotes } from '../../core/native-compaction';
import { withoutHeadings } from '../../core/plain-line';
import { summaryTitle } from '../../core/summary-title';
import type { CompactionEntry } from '../../session/entries';
import type { EntryKind } from './kind';
import { finiteCount, optionalText } from '../normalize-view';
import { addFiles, textView } from '../entry-views';
import { keptWordsView } from '../../compaction/user-words-view';
import { addSummarizerFigures, savedTokensAfter } from '../marker-figures';
import { markdownFirstLine } from '../summary-text';

export const compactionKind: EntryKind<CompactionEntry> = {
  isShown: () => true,
  view(entry, label, problems) {
    const view = textView(entry, 'compaction', entry.summary, label);
    view.tokensBefore = finiteCount(entry.tokensBefore, 'tokensBefore', problems);
    view.firstKeptEntryId = entry.firstKeptEntryId;
    const shortSummary = optionalText(entry.shortSummary, 'shortSummary', problems);
    if (shortSummary) view.shortSummary = shortSummary;
    const details = addFiles(view, entry.details);
    if (typeof details.reason === 'string') view.reason = details.reason;
    const after = savedTokensAfter(entry, details);
    if (after !== undefined) view.tokensAfter = after;
    addSummarizerFigures(view, details);
    if (entry.fromHook) view.fromHook = true;
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
