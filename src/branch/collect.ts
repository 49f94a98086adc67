// Which entries a branch switch leaves behind (docs/pi-compatibility.md "Branch summaries"): the old leaf's path back to, and not
// including, the deepest entry it shares with the target's path. Both paths come from the store's
// parent walk, which stops at cycles, so a corrupted file cannot loop here either.
import type { SessionEntry } from '../session/entries';

/** The read-only part of the session store that collection needs. */
export interface BranchReader {
  getEntry(id: string): SessionEntry | undefined;
  /** root→entry path; [] for null or an unknown id */
  getBranch(fromId?: string | null): SessionEntry[];
}

export interface BranchCollection {
  /** abandoned entries, oldest first (every entry type, compactions included) */
  entries: SessionEntry[];
  /** deepest entry on both paths; null when the paths share nothing */
  commonAncestorId: string | null;
}

/** Deepest entry of `fromId`'s path that is also on `otherId`'s path. */
export function findCommonAncestor(store: BranchReader, fromId: string | null, otherId: string | null): string | null {
  if (fromId === null || otherId === null) return null;
  const other = new Set(store.getBranch(otherId).map((e) => e.id));
  const path = store.getBranch(fromId);
  for (let i = path.length - 1; i >= 0; i--) if (other.has(path[i]!.id)) return path[i]!.id;
  return null;
}

/**
 * Entries from `oldLeafId` up to the common ancestor with `targetId` (exclusive), oldest first.
 * Moving "up" (target on the old path) makes the target the common ancestor; moving "down" (old leaf
 * on the target's path) collects nothing; a null old leaf collects nothing.
 */
export function collectEntriesForBranchSummary(
  store: BranchReader,
  oldLeafId: string | null,
  targetId: string | null,
): BranchCollection {
  if (oldLeafId === null) return { entries: [], commonAncestorId: null };
  const commonAncestorId = findCommonAncestor(store, oldLeafId, targetId);
  const path = store.getBranch(oldLeafId);
  const start = commonAncestorId === null ? 0 : path.findIndex((e) => e.id === commonAncestorId) + 1;
  return { entries: path.slice(start), commonAncestorId };
}
