// How both trees (the chat's tree panel and the Session Tree) show a session: a turn's file manifest
// (`arbor.files`, docs/architecture.md "file checkpoints") is data about the reply before it, not a step of
// the conversation. It gets no row of its own: its children hang on its parent, and that parent (the
// reply that changed the files) carries the count. A leaf on a manifest shows on the reply's row, and
// picking the reply's row means the reply with its files (the newest manifest below it). No `vscode`.
import type { SessionEntry } from '../session/entries';
import { readManifest } from '../checkpoints/manifest';
import { FILES_CUSTOM_TYPE } from '../checkpoints/types';
import { filesChangedLine } from '../present/kinds/custom';

/** The store reads the display rules need (SessionStore satisfies it). */
export interface EntryTree {
  getEntry(id: string): SessionEntry | undefined;
  getChildren(id: string): SessionEntry[];
}

/** What a reply's row says of the files its turn changed. */
export interface FilesBadge {
  /** distinct files the manifests below the row name */
  count: number;
  /** "3 files changed" (and "2 files saved before a restore"), for the tooltip */
  text: string;
}

/** A manifest chain longer than this is a corrupt file, not a session: it is cut there. */
const MAX_CHAIN = 10_000;

/** Whether the trees hide `entry` (a file manifest, readable or not). */
export function isHiddenInTree(entry: SessionEntry): boolean {
  return entry.type === 'custom' && (entry as { customType?: unknown }).customType === FILES_CUSTOM_TYPE;
}

/** The stored parent of `entry` (undefined: a root, a self-parented entry or a missing parent). */
function parentEntry(tree: EntryTree, entry: SessionEntry): SessionEntry | undefined {
  if (entry.parentId === null || entry.parentId === entry.id) return undefined;
  return tree.getEntry(entry.parentId);
}

/** The entry whose row shows `entry`: itself, or for a manifest its nearest shown ancestor (undefined: none). */
export function shownEntry(tree: EntryTree, entry: SessionEntry | undefined): SessionEntry | undefined {
  let current = entry;
  for (let steps = 0; current && isHiddenInTree(current) && steps < MAX_CHAIN; steps++) current = parentEntry(tree, current);
  return current && !isHiddenInTree(current) ? current : undefined;
}

/** The id of the row that shows `id` (null: no row, e.g. a manifest at the root or an unknown id). */
export function shownId(tree: EntryTree, id: string | null): string | null {
  if (id === null) return null;
  return shownEntry(tree, tree.getEntry(id))?.id ?? null;
}

/**
 * The display parent of a shown entry: its stored `parentId` (also a missing or its own one, which the
 * trees treat as a root), or past a manifest the row above it (null when none is shown).
 */
export function displayParentId(tree: EntryTree, entry: SessionEntry): string | null {
  const parent = parentEntry(tree, entry);
  if (!parent || !isHiddenInTree(parent)) return entry.parentId;
  return shownEntry(tree, parent)?.id ?? null;
}

/** The children a row shows: the entry's children, each manifest replaced by its own (display) children. */
export function displayChildren(tree: EntryTree, id: string): SessionEntry[] {
  const out: SessionEntry[] = [];
  const pending = tree.getChildren(id).reverse();
  for (let steps = 0; pending.length > 0 && steps < MAX_CHAIN; steps++) {
    const child = pending.pop()!;
    if (isHiddenInTree(child)) pending.push(...tree.getChildren(child.id).reverse());
    else out.push(child);
  }
  return out;
}

/** The manifests a row stands for: the hidden entries right below it (through chains of manifests). */
export function manifestsBelow(tree: EntryTree, id: string): SessionEntry[] {
  const out: SessionEntry[] = [];
  const pending = tree.getChildren(id).filter(isHiddenInTree);
  for (let steps = 0; pending.length > 0 && steps < MAX_CHAIN; steps++) {
    const manifest = pending.shift()!;
    out.push(manifest);
    pending.push(...tree.getChildren(manifest.id).filter(isHiddenInTree));
  }
  return out;
}

/** The files badge of a row (undefined: no readable manifest below it names a file). */
export function filesBadgeOf(tree: EntryTree, id: string): FilesBadge | undefined {
  const keys = new Set<string>();
  const lines: string[] = [];
  for (const entry of manifestsBelow(tree, id)) {
    const read = readManifest(entry);
    if (read.kind !== 'manifest') continue;
    for (const key of Object.keys(read.manifest.after)) keys.add(key);
    const line = filesChangedLine(entry);
    if (line && !lines.includes(line)) lines.push(line);
  }
  return keys.size > 0 ? { count: keys.size, text: lines.join(' · ') } : undefined;
}

/**
 * The node picking `id`'s row means: `id` with its files, i.e. the newest manifest chain below it followed
 * to its end (the leaf sits there after the turn, and a restore point saved when leaving it is newest).
 */
export function withFilesOf(tree: EntryTree, id: string): string {
  let current = id;
  for (let steps = 0; steps < MAX_CHAIN; steps++) {
    const manifests = tree.getChildren(current).filter(isHiddenInTree);
    if (manifests.length === 0) break;
    current = manifests[manifests.length - 1]!.id;
  }
  return current;
}
