// Whether a message may be pinned or unpinned now (TreeActions.pin, `app.tree.pin`), as an AppOutcome the
// chat and the commands tell like every other refusal (app-outcome.ts): no error strings travel up. Pins:
// src/session/pins.ts.
import type { SessionEntry } from '../session/entries';
import { isPinnable, pinnedEntryIds } from '../session/pins';
import type { SessionStore } from '../session/store';
import { refused, type AppOutcome, type AppRefusal } from './app-outcome';

/** What a pin did: the message is pinned or unpinned now; or why it was refused. */
export type PinOutcome = AppOutcome<'pinned' | 'unpinned'>;

/** Why `entry` cannot be (un)pinned now, or undefined when it can. */
export function pinRefusal(store: SessionStore, entry: SessionEntry, pinned: boolean, busy: boolean): AppRefusal | undefined {
  if (busy) return refused('busy', 'Wait for the agent to finish (or stop it) before pinning.');
  if (!isPinnable(entry)) return refused('not-pinnable');
  const path = store.getBranch();
  if (!path.some((e) => e.id === entry.id)) return refused('off-path');
  if (pinnedEntryIds(path).has(entry.id) === pinned) return refused('unchanged', pinned ? 'This message is already pinned.' : 'This message is not pinned.');
  return undefined;
}
