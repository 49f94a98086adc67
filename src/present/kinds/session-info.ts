// `session_info` entries: the session's name (the last one counts; empty clears it).
import type { SessionInfoEntry } from '../../session/entries';
import type { EntryKind } from './kind';
import { str } from '../../session/search-text';

export const sessionInfoKind: EntryKind<SessionInfoEntry> = {
  isShown: () => false,
  view: () => undefined,
  treeKind: () => 'session_info',
  summaryLine: (entry) => (entry.name ? `name: ${entry.name}` : 'name cleared'),
  look: (entry, t) => ({ kind: t('Session name'), icon: 'info', text: entry.name ?? t('(name cleared)') }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.name ?? '(name cleared)',
  sections: () => [],
};
