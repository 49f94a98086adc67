// The Session Tree's `contextValue` of an entry: `arbor.entry` plus the flags the menus' `viewItem =~ /…/`
// clauses test. No vscode import, so the unit tests check the menus against the commands' own predicates.
import type { SessionEntry } from '../../session/entries';
import { isPinnable } from '../../session/pins';

export interface EntryFlags {
  isLeaf: boolean;
  onPath: boolean;
  /** no children */
  isTip: boolean;
  pinned?: boolean;
  /** "Summarize from Here" can start here (src/branch/stage.ts, stageStartIds) */
  stageStart?: boolean;
}

export function contextValueFor(entry: SessionEntry, flags: EntryFlags): string {
  const out = ['arbor.entry', entry.type === 'message' ? `role-${entry.message.role}` : `type-${entry.type}`];
  out.push(flags.isLeaf ? 'current' : 'notCurrent');
  out.push(flags.onPath ? 'onPath' : 'offPath');
  if (flags.isTip) out.push('tip');
  // Pin / Unpin: messages of the current branch the compaction can keep (src/session/pins.ts)
  if (flags.onPath && isPinnable(entry)) out.push(flags.pinned ? 'pinned' : 'pinnable');
  if (flags.stageStart) out.push('stageStart');
  return out.join(' ');
}
