// The tree view model of a session, kept up to date incrementally: built once when a session is opened,
// then each append costs O(1) and each leaf move costs O(old path + new path), never O(file). Changes
// come back as the nodes that were added or changed, so UIs can patch instead of re-rendering.
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import { entryKind, entrySummaryLine, type TreeNodeView } from './view-model';

export interface TreeDelta {
  added: TreeNodeView[];
  changed: TreeNodeView[];
  leafId: string | null;
}

export class TreeIndex {
  private readonly nodes = new Map<string, TreeNodeView>();
  private activePath = new Set<string>();
  private leafId: string | null = null;

  constructor(private readonly store: SessionStore) {
    for (const entry of store.getEntries()) this.nodes.set(entry.id, this.nodeOf(entry));
    for (const node of this.nodes.values()) {
      const parent = node.parentId !== null && node.parentId !== node.id ? this.nodes.get(node.parentId) : undefined;
      if (parent) {
        parent.childCount++;
        parent.isLeaf = false;
      }
    }
    this.leafId = store.getLeafId();
    for (const entry of store.getBranch()) {
      this.activePath.add(entry.id);
      this.nodes.get(entry.id)!.isOnActivePath = true;
    }
  }

  /** All nodes in file order (copies). */
  all(): TreeNodeView[] {
    return [...this.nodes.values()].map((node) => ({ ...node }));
  }

  get(id: string): TreeNodeView | undefined {
    const node = this.nodes.get(id);
    return node ? { ...node } : undefined;
  }

  get size(): number {
    return this.nodes.size;
  }

  /** Records an appended entry (and the leaf move it implies). */
  append(entry: SessionEntry): TreeDelta {
    const changed = new Map<string, TreeNodeView>();
    const node = this.nodeOf(entry);
    this.nodes.set(entry.id, node);
    const parent = entry.parentId !== null ? this.nodes.get(entry.parentId) : undefined;
    if (parent) {
      parent.childCount++;
      parent.isLeaf = false;
      changed.set(parent.id, parent);
    }
    if (entry.type === 'label') this.relabel(entry.targetId, changed);
    this.moveLeaf(changed);
    changed.delete(entry.id);
    return { added: [{ ...this.nodes.get(entry.id)! }], changed: [...changed.values()].map((n) => ({ ...n })), leafId: this.leafId };
  }

  /** The store's leaf moved without an append (navigation). */
  syncLeaf(): TreeDelta {
    const changed = new Map<string, TreeNodeView>();
    this.moveLeaf(changed);
    return { added: [], changed: [...changed.values()].map((n) => ({ ...n })), leafId: this.leafId };
  }

  private relabel(targetId: string, changed: Map<string, TreeNodeView>): void {
    const target = this.nodes.get(targetId);
    if (!target) return;
    const label = this.store.getLabel(targetId);
    if (label) target.label = label;
    else delete target.label;
    changed.set(target.id, target);
  }

  private moveLeaf(changed: Map<string, TreeNodeView>): void {
    const newLeaf = this.store.getLeafId();
    if (newLeaf === this.leafId) return;
    const newLeafEntry = newLeaf === null ? undefined : this.store.getEntry(newLeaf);
    // Common case: the leaf advanced by one entry onto a child of the old leaf.
    if (newLeafEntry && newLeafEntry.parentId === this.leafId && this.leafId !== null && this.activePath.has(this.leafId)) {
      this.markOnPath(newLeafEntry.id, true, changed);
      this.leafId = newLeaf;
      return;
    }
    if (newLeafEntry && newLeafEntry.parentId === null && this.leafId === null && this.activePath.size === 0) {
      this.markOnPath(newLeafEntry.id, true, changed);
      this.leafId = newLeaf;
      return;
    }
    const next = new Set(this.store.getBranch(newLeaf).map((e) => e.id));
    for (const id of this.activePath) if (!next.has(id)) this.markOnPath(id, false, changed);
    for (const id of next) if (!this.activePath.has(id)) this.markOnPath(id, true, changed);
    this.activePath = next;
    this.leafId = newLeaf;
  }

  private markOnPath(id: string, on: boolean, changed: Map<string, TreeNodeView>): void {
    const node = this.nodes.get(id);
    if (!node) return;
    if (on) this.activePath.add(id);
    else this.activePath.delete(id);
    if (node.isOnActivePath !== on) {
      node.isOnActivePath = on;
      changed.set(id, node);
    }
  }

  private nodeOf(entry: SessionEntry): TreeNodeView {
    const label = this.store.getLabel(entry.id);
    return {
      id: entry.id,
      parentId: entry.parentId,
      kind: entryKind(entry),
      firstLine: entrySummaryLine(entry),
      ...(label ? { label } : {}),
      isOnActivePath: false,
      isLeaf: true,
      childCount: 0,
      timestamp: entry.timestamp,
    };
  }
}
