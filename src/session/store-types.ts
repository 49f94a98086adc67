// The shapes the session store takes and hands out (options, tree nodes, compaction fields, the stand-in for
// a malformed entry), apart from the store itself so modules that only need a type do not import the class.
import type { CompactionEntry, SessionEntry } from './entries';
import type { LeafMemory } from './leaf-memory';

export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

export interface OpenOptions {
  /** remembered leaf: honoured when it exists in the file (null = before the first entry) */
  leafId?: string | null;
  /** where the leaf is remembered across restarts; read when `leafId` is not given, written on every move */
  leafMemory?: LeafMemory;
}

export interface CreateOptions {
  dir: string;
  cwd: string;
  parentSession?: string;
  id?: string;
  leafMemory?: LeafMemory;
}

/** What a caller supplies for a compaction entry; the store adds type, id, parentId and timestamp. */
export type CompactionFields = Pick<
  CompactionEntry,
  'summary' | 'firstKeptEntryId' | 'tokensBefore' | 'details' | 'fromHook' | 'shortSummary' | 'preserveData' | 'usage' | 'reason' | 'tokensAfter'
>;

/** In memory, an entry whose known type has an invalid shape is replaced by this opaque node (the raw
 * line is still written back unchanged), so nothing downstream trips over a malformed field. */
export interface InvalidEntry {
  type: 'invalid_entry';
  id: string;
  parentId: string | null;
  timestamp: string;
  originalType: string;
  problem: string;
  [extra: string]: unknown;
}
