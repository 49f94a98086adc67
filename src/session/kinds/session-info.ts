// `session_info` entries: the session's name (the last one counts; empty clears it).
import type { SessionInfoEntry } from '../entries';
import type { EntryKind } from './kind';
import { str } from '../search-text';

export const sessionInfoKind: EntryKind<SessionInfoEntry> = {
  message: () => undefined,
  isShown: () => false,
  view: () => undefined,
  treeKind: () => 'session_info',
  summaryLine: (entry) => (entry.name ? `name: ${entry.name}` : 'name cleared'),
  look: (entry, t) => ({ kind: t('Session name'), icon: 'info', text: entry.name ?? t('(name cleared)') }),
  searchable: (entry) => ({ kind: 'sessionName', text: str(entry.name) }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.name ?? '(name cleared)',
  sections: () => [],
};
