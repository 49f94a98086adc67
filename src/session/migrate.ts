// In-memory migration of v1/v2 session files to v3 (docs/pi-compatibility.md "Session files"). The caller decides when to write
// the result (and keeps a backup of the original first); this module never touches the disk.
import { CURRENT_SESSION_VERSION } from './entries';
import { generateEntryId } from './ids';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function sessionVersion(header: Obj): number {
  return typeof header.version === 'number' ? header.version : 1;
}

/**
 * Migrates `header` and `entries` (every parsed line after the header, file order) in place. Returns the
 * version the file had. `entries` must not include the header: v1 indices count it as index 0.
 */
export function migrateToCurrentVersion(header: Obj, entries: unknown[]): number {
  const from = sessionVersion(header);
  if (from < 2) migrateV1ToV2(header, entries);
  if (from < 3) migrateV2ToV3(header, entries);
  return from;
}

/** v1 has no ids: give every entry a fresh id and chain it to the previous one. */
function migrateV1ToV2(header: Obj, entries: unknown[]): void {
  header.version = 2;
  const taken = new Set<string>();
  let previous: string | null = null;
  for (const entry of entries) {
    if (!isObj(entry)) continue;
    const id = generateEntryId((candidate) => taken.has(candidate));
    taken.add(id);
    entry.id = id;
    entry.parentId = previous;
    previous = id;
  }
  for (const entry of entries) {
    if (!isObj(entry) || entry.type !== 'compaction' || typeof entry.firstKeptEntryIndex !== 'number') continue;
    // The index counts parsed lines with the header at 0.
    const target = entry.firstKeptEntryIndex >= 1 ? entries[entry.firstKeptEntryIndex - 1] : undefined;
    if (isObj(target) && typeof target.id === 'string') entry.firstKeptEntryId = target.id;
    delete entry.firstKeptEntryIndex;
  }
}

/** v2 → v3: the extension message role `hookMessage` became `custom`. */
function migrateV2ToV3(header: Obj, entries: unknown[]): void {
  header.version = CURRENT_SESSION_VERSION;
  for (const entry of entries) {
    if (!isObj(entry) || entry.type !== 'message' || !isObj(entry.message)) continue;
    if (entry.message.role === 'hookMessage') entry.message.role = 'custom';
  }
}
