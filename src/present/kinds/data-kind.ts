// The kind of an entry that only carries data for Arbor or another program (usage records, context edits,
// reset boundaries, oh-my-pi's own types, types Arbor does not know): nothing of its own in the chat or an
// export; the trees name it by its type. The line is kept byte for byte.
import type { SessionEntry } from '../../session/entries';
import type { EntryKind, EntryLook, Localize } from './kind';

export function dataKind(look?: (entry: SessionEntry, t: Localize) => EntryLook): EntryKind {
  return {
    isShown: () => false,
    view: () => undefined,
    treeKind: () => 'other',
    summaryLine: (entry) => entry.type,
    look: look ?? ((entry) => ({ kind: entry.type, icon: 'question', text: '' })),
    cliKind: (entry) => entry.type,
    cliText: () => '',
    sections: () => [],
  };
}
