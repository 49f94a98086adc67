// `label` entries: a name the user gave another entry (the last one per target counts; store.ts keeps
// them by target). Not in the chat; search finds the labelled entry by its label.
import type { LabelEntry } from '../../session/entries';
import type { EntryKind } from './kind';

export const labelKind: EntryKind<LabelEntry> = {
  isShown: () => false,
  view: () => undefined,
  treeKind: () => 'label',
  summaryLine: (entry) => (entry.label ? `label: ${entry.label}` : 'label cleared'),
  look: (entry, t) => ({ kind: t('Label'), icon: 'tag', text: entry.label === undefined ? t('(label removed)') : String(entry.label) }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => `${entry.targetId} = ${entry.label ?? '(cleared)'}`,
  sections: () => [],
};
