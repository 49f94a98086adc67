// Whether a message may be pinned or unpinned now (TreeActions.pin, `app.tree.pin`), as a typed outcome the chat and the
// commands show as they are: no error strings travel up. Pins: src/session/pins.ts.
import type { SessionEntry } from '../session/entries';
import { isPinnable, pinnedEntryIds } from '../session/pins';
import type { SessionStore } from '../session/store';

export type PinRefusal = 'busy' | 'not-pinnable' | 'off-path' | 'unchanged';

export type PinOutcome = { kind: 'pinned' | 'unpinned' } | { kind: 'refused'; why: PinRefusal; message: string };

const MESSAGES: Record<PinRefusal, string> = {
  busy: 'Wait for the agent to finish (or stop it) before pinning.',
  'not-pinnable': 'Only your messages and the assistant’s replies with text can be pinned.',
  'off-path': 'Only messages of the current branch can be pinned: switch to it first.',
  unchanged: 'Nothing to change.',
};

function refused(why: PinRefusal, message = MESSAGES[why]): PinOutcome {
  return { kind: 'refused', why, message };
}

/** Why `entry` cannot be (un)pinned now, or undefined when it can. */
export function pinRefusal(store: SessionStore, entry: SessionEntry, pinned: boolean, busy: boolean): PinOutcome | undefined {
  if (busy) return refused('busy');
  if (!isPinnable(entry)) return refused('not-pinnable');
  const path = store.getBranch();
  if (!path.some((e) => e.id === entry.id)) return refused('off-path');
  if (pinnedEntryIds(path).has(entry.id) === pinned) return refused('unchanged', pinned ? 'This message is already pinned.' : 'This message is not pinned.');
  return undefined;
}
