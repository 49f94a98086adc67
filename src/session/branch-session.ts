// A root→leaf branch written as a standalone session (pi's `createBranchedSession`): Fork (a new session
// next to the old one, catalog.ts) and `arbor-session export --format jsonl` (a file the user names) both
// write it here, so what pi 1.5 can read of one it can read of the other.
import { resolve } from 'node:path';
import type { SessionEntry, SessionHeader } from './entries';
import { writeFileAtomic } from './files';
import { generateEntryId } from './ids';
import { newSessionHeader } from './new-session';
import type { SessionStore } from './store';

/**
 * The file's lines: `header`, the root→leaf path without label entries (byte for byte, but re-linked
 * where a dropped label was the parent), then re-created labels for labelled entries on the path
 * (original timestamps kept) chained after the last path entry. Throws when `leafId` is not an entry.
 */
export async function branchSessionLines(store: SessionStore, leafId: string, header: SessionHeader): Promise<string[]> {
  const path = store.getBranch(leafId);
  if (path.length === 0) throw new Error(`entry ${leafId} not found in ${store.file}`);
  const kept = path.filter((entry) => entry.type !== 'label');
  const pathLines = relinkLines(kept, await store.rawLines(kept));
  const labels = recreatedLabels(store, kept);
  return [JSON.stringify(header), ...pathLines, ...labels.map((l) => JSON.stringify(l))];
}

/** Writes the branch ending at `leafId` to `file` (atomically) as a session with `header`. */
export async function writeBranchSession(store: SessionStore, leafId: string, header: SessionHeader, file: string): Promise<void> {
  const lines = await branchSessionLines(store, leafId, header);
  await writeFileAtomic(file, [lines.join('\n') + '\n']);
}

/** `arbor-session export --format jsonl`: a new session (fresh id, `parentSession` = the source's path) at `out`. */
export async function exportBranchSession(store: SessionStore, leafId: string, out: string): Promise<SessionHeader> {
  const header = newSessionHeader({ cwd: sessionCwd(store), parentSession: resolve(store.file) });
  await writeBranchSession(store, leafId, header, out);
  return header;
}

/** The source's working directory (pi's header field), else this process's. */
export function sessionCwd(store: SessionStore): string {
  return typeof store.header.cwd === 'string' ? store.header.cwd : process.cwd();
}

function recreatedLabels(store: SessionStore, kept: readonly SessionEntry[]): SessionEntry[] {
  const ids = new Set(kept.map((e) => e.id));
  const labels: SessionEntry[] = [];
  let parentId = kept.length > 0 ? kept[kept.length - 1]!.id : null;
  for (const node of kept) {
    const label = store.getLabel(node.id);
    if (!label) continue;
    const id = generateEntryId((candidate) => ids.has(candidate));
    ids.add(id);
    const timestamp = store.getLabelTimestamp(node.id) ?? new Date().toISOString();
    labels.push({ type: 'label', id, parentId, timestamp, targetId: node.id, label });
    parentId = id;
  }
  return labels;
}

/**
 * Dropping label entries from a path leaves the entry after each label pointing at a parent the new file
 * does not have; such entries are re-linked to the entry kept before them (the rest stay byte for byte).
 */
function relinkLines(kept: readonly SessionEntry[], raw: readonly string[]): string[] {
  return kept.map((entry, index) => {
    const parentId = index === 0 ? null : kept[index - 1]!.id;
    if ((entry.parentId ?? null) === parentId) return raw[index]!;
    return JSON.stringify({ ...(JSON.parse(raw[index]!) as object), parentId });
  });
}
