// The store's stand-in for a line of a known type with an invalid shape (store.ts InvalidEntry): the raw
// line is written back unchanged; the Session Tree shows it as unreadable, with the problem.
import { dataKind } from './data-kind';

export const invalidEntryKind = dataKind((entry, t) => ({ kind: t('Unreadable entry'), icon: 'warning', text: String((entry as { problem?: unknown }).problem ?? '') }));
