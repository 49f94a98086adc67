// The tree view model of a session, kept up to date incrementally. It holds no node objects of its own:
// a node's view is derived on demand from the store's index (entry, children, labels) plus the active
// path kept here, so opening a session costs O(active path) and no memory per entry, each append costs
// O(1) and each leaf move O(old path + new path), never O(file). Changes come back as the nodes that were
// added or changed, so UIs can patch instead of re-rendering. File manifests get no node: their children
// show under the reply above them, which carries the files count (display-tree.ts).
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import { pinChangeOf, pinnedEntryIds } from '../session/pins';
import { entryKind, entrySummaryLine, type TreeNodeView } from './view-model';
import { displayChildren, displayParentId, filesBadgeOf, isHiddenInTree, shownId } from './display-tree';

export interface TreeDelta {
  added: TreeNodeView[];
  changed: TreeNodeView[];
  /** the row of the leaf (a leaf on a manifest shows on the reply above it) */
  leafId: string | null;
}

export class TreeIndex {
  private activePath = new Set<string>();
  private leafId: string | null = null;
  /** messages pinned on the active path (src/session/pins.ts) */
  private pinned = new Set<string>();

  constructor(private readonly store: SessionStore) {
    this.leafId = store.getLeafId();
    const branch = store.getBranch();
    for (const entry of branch) this.activePath.add(entry.id);
    this.pinned = pinnedEntryIds(branch);
  }

  /** Whether `id` is pinned on the active path. */
  isPinned(id: string): boolean {
    return this.pinned.has(id);
  }

  /** All nodes in file order (fresh objects; O(entries), for full reloads only). Manifests have none. */
  all(): TreeNodeView[] {
    const out: TreeNodeView[] = [];
    for (const entry of this.store.getEntries()) if (!isHiddenInTree(entry)) out.push(this.nodeOf(entry));
    return out;
  }

  /** The node of `id`; undefined for unknown ids and manifests (see `shownId`). */
  get(id: string): TreeNodeView | undefined {
    const entry = this.store.getEntry(id);
    return entry && !isHiddenInTree(entry) ? this.nodeOf(entry) : undefined;
  }

  /** The row that shows `id` (a manifest shows on the reply above it). */
  shownId(id: string | null): string | null {
    return shownId(this.store, id);
  }

  /** The leaf's row. */
  get shownLeafId(): string | null {
    return shownId(this.store, this.leafId);
  }

  get size(): number {
    return this.store.entryCount;
  }

  /** Records an appended entry (and the leaf move it implies). */
  append(entry: SessionEntry): TreeDelta {
    const changed = new Set<string>();
    // the row above gains a child (or, for a manifest, a files count)
    const parentId = displayParentId(this.store, entry);
    if (parentId !== null && parentId !== entry.id) changed.add(parentId);
    if (entry.type === 'label' && this.store.getEntry(entry.targetId)) changed.add(entry.targetId);
    this.moveLeaf(changed);
    changed.delete(entry.id);
    const added = isHiddenInTree(entry) ? [] : [this.nodeOf(entry)];
    return { added, changed: this.views(changed), leafId: this.shownLeafId };
  }

  /** The store's leaf moved without an append (navigation). */
  syncLeaf(): TreeDelta {
    const changed = new Set<string>();
    this.moveLeaf(changed);
    return { added: [], changed: this.views(changed), leafId: this.shownLeafId };
  }

  /** The nodes of `ids`; manifests have none (a manifest joining or leaving the path changes no row). */
  private views(ids: Set<string>): TreeNodeView[] {
    const out: TreeNodeView[] = [];
    for (const id of ids) {
      const node = this.get(id);
      if (node) out.push(node);
    }
    return out;
  }

  private moveLeaf(changed: Set<string>): void {
    const newLeaf = this.store.getLeafId();
    if (newLeaf === this.leafId) return;
    const newLeafEntry = newLeaf === null ? undefined : this.store.getEntry(newLeaf);
    // Common case: the leaf advanced by one entry onto a child of the old leaf.
    if (newLeafEntry && newLeafEntry.parentId === this.leafId && this.leafId !== null && this.activePath.has(this.leafId)) {
      this.markOnPath(newLeafEntry.id, true, changed);
      this.applyPin(newLeafEntry, changed);
      this.leafId = newLeaf;
      return;
    }
    if (newLeafEntry && newLeafEntry.parentId === null && this.leafId === null && this.activePath.size === 0) {
      this.markOnPath(newLeafEntry.id, true, changed);
      this.leafId = newLeaf;
      return;
    }
    const branch = this.store.getBranch(newLeaf);
    const next = new Set(branch.map((e) => e.id));
    for (const id of this.activePath) if (!next.has(id)) changed.add(id);
    for (const id of next) if (!this.activePath.has(id)) changed.add(id);
    const pinned = pinnedEntryIds(branch);
    for (const id of this.pinned) if (!pinned.has(id)) changed.add(id);
    for (const id of pinned) if (!this.pinned.has(id)) changed.add(id);
    this.activePath = next;
    this.pinned = pinned;
    this.leafId = newLeaf;
  }

  /** A pin entry the path just grew by changes how its target looks. */
  private applyPin(entry: SessionEntry, changed: Set<string>): void {
    const change = pinChangeOf(entry);
    if (!change || change.pinned === this.pinned.has(change.targetId)) return;
    if (change.pinned) this.pinned.add(change.targetId);
    else this.pinned.delete(change.targetId);
    if (this.store.getEntry(change.targetId)) changed.add(change.targetId);
  }

  private markOnPath(id: string, on: boolean, changed: Set<string>): void {
    if (!this.store.getEntry(id)) return;
    if (this.activePath.has(id) === on) return;
    if (on) this.activePath.add(id);
    else this.activePath.delete(id);
    changed.add(id);
  }

  private nodeOf(entry: SessionEntry): TreeNodeView {
    const label = this.store.getLabel(entry.id);
    const childCount = displayChildren(this.store, entry.id).length;
    const node: TreeNodeView = {
      id: entry.id,
      parentId: displayParentId(this.store, entry),
      kind: entryKind(entry),
      firstLine: entrySummaryLine(entry),
      isOnActivePath: this.activePath.has(entry.id),
      isLeaf: childCount === 0,
      childCount,
      timestamp: entry.timestamp,
    };
    if (label) node.label = label;
    if (this.pinned.has(entry.id)) node.pinned = true;
    const files = filesBadgeOf(this.store, entry.id);
    if (files) node.files = files;
    return node;
  }
}
