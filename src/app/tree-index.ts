// The tree view model of a session, kept up to date incrementally. It holds no node objects of its own:
// a node's view is derived on demand from the store's index (entry, children, labels) plus the active
// path kept here, so opening a session costs O(active path) and no memory per entry, each append costs
// O(1) and each leaf move O(old path + new path), never O(file). Changes come back as the nodes that were
// added or changed, so UIs can patch instead of re-rendering.
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import { pinChangeOf, pinnedEntryIds } from '../session/pins';
import { entryKind, entrySummaryLine, type TreeNodeView } from './view-model';

export interface TreeDelta {
  added: TreeNodeView[];
  changed: TreeNodeView[];
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

  /** All nodes in file order (fresh objects; O(entries), for full reloads only). */
  all(): TreeNodeView[] {
    const entries = this.store.getEntries();
    const out = new Array<TreeNodeView>(entries.length);
    for (let i = 0; i < entries.length; i++) out[i] = this.nodeOf(entries[i]!);
    return out;
  }

  get(id: string): TreeNodeView | undefined {
    const entry = this.store.getEntry(id);
    return entry ? this.nodeOf(entry) : undefined;
  }

  get size(): number {
    return this.store.entryCount;
  }

  /** Records an appended entry (and the leaf move it implies). */
  append(entry: SessionEntry): TreeDelta {
    const changed = new Set<string>();
    const parentId = entry.parentId;
    if (parentId !== null && parentId !== entry.id && this.store.getEntry(parentId)) changed.add(parentId);
    if (entry.type === 'label' && this.store.getEntry(entry.targetId)) changed.add(entry.targetId);
    this.moveLeaf(changed);
    changed.delete(entry.id);
    return { added: [this.nodeOf(entry)], changed: this.views(changed), leafId: this.leafId };
  }

  /** The store's leaf moved without an append (navigation). */
  syncLeaf(): TreeDelta {
    const changed = new Set<string>();
    this.moveLeaf(changed);
    return { added: [], changed: this.views(changed), leafId: this.leafId };
  }

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
    const childCount = this.store.getChildCount(entry.id);
    const node: TreeNodeView = {
      id: entry.id,
      parentId: entry.parentId,
      kind: entryKind(entry),
      firstLine: entrySummaryLine(entry),
      isOnActivePath: this.activePath.has(entry.id),
      isLeaf: childCount === 0,
      childCount,
      timestamp: entry.timestamp,
    };
    if (label) node.label = label;
    if (this.pinned.has(entry.id)) node.pinned = true;
    return node;
  }
}
