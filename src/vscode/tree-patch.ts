// Turns the app's TreeDeltas into `treePatch` messages for the chat webview, so appends, label changes
// and leaf moves cost O(change) per turn instead of resending every node of the session. Deltas are
// collected between (coalesced) posts by id and read back fresh when the patch is built, so a node that
// changed twice goes out once, in its final state. The webview's isLeaf flag is "this is the current
// leaf", which the TreeIndex does not track: the previously sent leaf and the new one are added here.
// No `vscode` import (unit-tested).
import type { TreeDelta } from '../app/tree-index';
import type { TreeNodeView } from '../app/view-model';
import { LIMITS, type HostMessageOf } from '../protocol';
import { wireIdOrNull } from '../present/wire-ids';
import { toTreeNode } from './tree-nodes';

export type TreePatchMessage = HostMessageOf<'treePatch'>;

export class TreePatchBuilder {
  /** ids of appended nodes, file order */
  private readonly added = new Set<string>();
  private readonly changed = new Set<string>();
  /** whether the webview holds a full tree the patches can apply to */
  private synced = false;
  private sentLeaf: string | null = null;

  /** A full `tree` with this leaf was just built: pending changes are in it. */
  fullSent(leafId: string | null): void {
    this.clear();
    this.synced = true;
    this.sentLeaf = leafId;
  }

  /** The webview's tree no longer matches (reload, session switch): the next post must be a full tree. */
  invalidate(): void {
    this.clear();
    this.synced = false;
  }

  get needsFull(): boolean {
    return !this.synced;
  }

  record(delta: TreeDelta): void {
    if (!this.synced) return;
    for (const node of delta.added) this.added.add(node.id);
    for (const node of delta.changed) if (!this.added.has(node.id)) this.changed.add(node.id);
  }

  /**
   * The patch from what was recorded to the current state (`lookup` reads a node now), or `undefined`
   * when nothing changed, or `'full'` when only a full tree will do (not synced, or too large a patch).
   */
  take(leafId: string | null, lookup: (id: string) => TreeNodeView | undefined): TreePatchMessage | 'full' | undefined {
    if (!this.synced) return 'full';
    if (leafId !== this.sentLeaf) {
      for (const id of [this.sentLeaf, leafId]) if (id !== null && !this.added.has(id)) this.changed.add(id);
    }
    if (this.added.size === 0 && this.changed.size === 0 && leafId === this.sentLeaf) return undefined;
    if (this.added.size > LIMITS.items || this.changed.size > LIMITS.items) {
      this.invalidate();
      return 'full';
    }
    const nodes = (ids: Set<string>) => [...ids].flatMap((id) => {
      const node = lookup(id);
      return node ? [toTreeNode(node, leafId)] : [];
    });
    const patch: TreePatchMessage = { type: 'treePatch', added: nodes(this.added), changed: nodes(this.changed), leafId: wireIdOrNull(leafId) };
    this.clear();
    this.sentLeaf = leafId;
    return patch;
  }

  private clear(): void {
    this.added.clear();
    this.changed.clear();
  }
}
