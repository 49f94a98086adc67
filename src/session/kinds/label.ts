// `label` entries: a name the user gave another entry (the last one per target counts; store.ts keeps
// them by target). Not in the chat; search finds the labelled entry by its label.
import type { LabelEntry } from '../entries';
import type { EntryKind } from './kind';

export const labelKind: EntryKind<LabelEntry> = {
  message: () => undefined,
  isShown: () => false,
  view: () => undefined,
  treeKind: () => 'label',
  summaryLine: (entry) => (entry.label ? `label: ${entry.label}` : 'label cleared'),
  look: (entry, t) => ({ kind: t('Label'), icon: 'tag', text: entry.label === undefined ? t('(label removed)') : String(entry.label) }),
  searchable: (entry) =>
    typeof entry.targetId === 'string' && typeof entry.label === 'string' ? { kind: 'label', text: entry.label, entryId: entry.targetId } : undefined,
  cliKind: (entry) => entry.type,
  cliText: (entry) => `${entry.targetId} = ${entry.label ?? '(cleared)'}`,
  sections: () => [],
};
