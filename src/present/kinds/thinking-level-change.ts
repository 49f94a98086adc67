// `thinking_level_change` entries (omp writes null for off): they set the context's thinking level
// (context.ts `applySettings`) and show as a notice in the chat.
import type { ThinkingLevelChangeEntry } from '../../session/entries';
import { thinkingLevelText } from '../../session/entry-fields';
import type { EntryKind } from './kind';
import { noticeView } from '../entry-views';

export const thinkingLevelChangeKind: EntryKind<ThinkingLevelChangeEntry> = {
  isShown: () => true,
  view: (entry, label) => noticeView(entry, `Thinking level: ${thinkingLevelText(entry)}`, label),
  treeKind: () => 'thinking_level_change',
  summaryLine: (entry) => `thinking: ${thinkingLevelText(entry)}`,
  look: (entry, t) => ({ kind: t('Thinking level'), icon: 'lightbulb', text: thinkingLevelText(entry) }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => thinkingLevelText(entry),
  sections: (entry) => [{ title: 'Thinking level', text: thinkingLevelText(entry) }],
};
