// The conversation tree's rows (webview/tree-layout.ts), kept up to date patch by patch so that a turn
// costs O(patch), not O(session): a 35,000-entry session must not be laid out again for every reply.
//
// Where appends land: layoutTree puts the active child first at every branch point, so the active path
// (root … leaf) is a prefix of the rows and a node appended to the leaf becomes the row right after the
// leaf row. That is usually not the last row (the older branches follow it), so the rows are a gap
// buffer: two stacks split at a gap kept right after the leaf row. An append is a push; a leaf move along
// the path moves the gap over the rows whose onActivePath flipped, which are rows the patch carries.
//
// A patch takes the fast path only when that provably keeps the rows equal to layoutTree(all nodes):
//  - every known node keeps its parent and timestamp (they decide the order);
//  - every onActivePath flip leaves the order of the flipped node's siblings as it was (re-sorted to
//    check, so O(siblings));
//  - a new node hangs under a node with a row within O(patch) rows of the gap, sorts first among its
//    siblings (so its row is the one right after its parent's), adopts no orphan, and its parent did not
//    have exactly one child (a new branch point indents the whole existing subtree under it).
// Anything else (navigation to another branch, a new branch point, new roots, orphans, duplicate ids) is
// left to a full layout: the owner drops these rows and lays the tree out again when it next needs rows.
import type { TreeNode } from '../src/protocol';
import { layoutTree, siblingOrder, type TreeRow } from './tree-layout';
import type { TreeModel } from './tree-patch';

/** The patched nodes as they were before the patch, by id; `undefined` for a node the patch adds. */
export type NodesBefore = ReadonlyMap<string, TreeNode | undefined>;

export class TreeRows {
  /** rows before the gap, in order; its last row is normally the leaf */
  private readonly before: TreeRow[];
  /** rows after the gap, last row first, so the row right after the gap is the top of this stack */
  private readonly after: TreeRow[];
  private readonly rowById = new Map<string, TreeRow>();
  /** child ids by the parent they are laid out under (null: the roots, orphans included), file order */
  private readonly children = new Map<string | null, string[]>();
  /** parent ids that nodes reference but that are missing: a node with such an id would adopt orphans */
  private readonly missingParents = new Set<string>();
  /** false when an id occurs twice: only a full layout knows which copy is shown where */
  private readonly patchable: boolean;

  /** The full layout, O(n log n). */
  constructor(nodes: readonly TreeNode[], leafId: string | null) {
    const rows = layoutTree(nodes);
    for (const row of rows) this.rowById.set(row.node.id, row);
    const ids = new Set(nodes.map((node) => node.id));
    this.patchable = ids.size === nodes.length;
    for (const node of nodes) {
      const present = node.parentId !== null && ids.has(node.parentId);
      if (node.parentId !== null && !present) this.missingParents.add(node.parentId);
      this.childrenOf(present ? node.parentId : null).push(node.id);
    }
    const leafRow = leafId === null ? -1 : rows.findIndex((row) => row.node.id === leafId);
    const gap = leafRow >= 0 ? leafRow + 1 : rows.length;
    this.before = rows.slice(0, gap);
    this.after = rows.slice(gap).reverse();
  }

  get size(): number {
    return this.before.length + this.after.length;
  }

  at(index: number): TreeRow | undefined {
    if (index < 0) return undefined;
    if (index < this.before.length) return this.before[index];
    return this.after[this.after.length - 1 - (index - this.before.length)];
  }

  /** The row index of a node, -1 if it has no row: O(1) for the row before the gap (normally the leaf). */
  indexOf(id: string | null): number {
    if (id === null || !this.rowById.has(id)) return -1;
    for (let i = this.before.length - 1; i >= 0; i--) if (this.before[i]!.node.id === id) return i;
    for (let i = this.after.length - 1; i >= 0; i--) if (this.after[i]!.node.id === id) return this.before.length + this.after.length - 1 - i;
    return -1;
  }

  /** Every row, in order (a copy: O(rows), for tests and benchmarks). */
  toArray(): TreeRow[] {
    return [...this.before, ...this.after.slice().reverse()];
  }

  /**
   * Brings the rows up to date with a patch already applied to `model` (`before`: the patched nodes as
   * they were). Returns false when it cannot prove the result equals a full layout; the rows are then
   * out of date and must be dropped.
   */
  update(before: NodesBefore, model: TreeModel): boolean {
    if (!this.patchable) return false;
    const now = (id: string): TreeNode => model.nodes[model.positions.get(id)!]!;
    const then = (id: string): TreeNode => before.get(id) ?? now(id);
    const added: TreeNode[] = [];
    const flippedParents = new Set<string | null>();
    for (const [id, old] of before) {
      const node = now(id);
      if (!old) added.push(node);
      else if (node.parentId !== old.parentId || node.timestamp !== old.timestamp) return false;
      else if (node.onActivePath !== old.onActivePath) flippedParents.add(this.layoutParentOf(node));
    }
    for (const parent of flippedParents) {
      const siblings = this.children.get(parent) ?? [];
      if (siblings.length > 1 && !sameIds(sortedIds(siblings, then), sortedIds(siblings, now))) return false;
    }
    // Far enough for a leaf that moved up the path over the rows the patch flipped, and no farther.
    const reach = before.size + 2;
    for (const node of added) if (!this.append(node, now, reach)) return false;
    for (const id of before.keys()) {
      const row = this.rowById.get(id);
      if (row) row.node = now(id);
    }
    this.moveGapAfter(model.leafId, reach);
    return true;
  }

  /** Inserts the row of a new node if it provably goes right after its parent's row at a known depth. */
  private append(node: TreeNode, now: (id: string) => TreeNode, reach: number): boolean {
    const parentId = node.parentId;
    // A new root changes the roots' depth; a node that orphans were waiting for moves them.
    if (parentId === null || this.missingParents.has(node.id)) return false;
    // No row: the parent is missing (an orphan) or not shown (a cycle in bad input).
    const parentRow = this.rowById.get(parentId);
    if (!parentRow) return false;
    const siblings = this.children.get(parentId) ?? [];
    if (siblings.length === 1) return false;
    if (siblings.length > 1 && !sameIds(sortedIds([...siblings, node.id], now), [node.id, ...sortedIds(siblings, now)])) return false;
    if (!this.moveGapAfter(parentId, reach)) return false;
    const row: TreeRow = { node, depth: siblings.length === 0 ? parentRow.depth : parentRow.depth + 1, branchPoint: false };
    this.before.push(row);
    this.rowById.set(node.id, row);
    this.childrenOf(parentId).push(node.id);
    return true;
  }

  /** Moves the gap to right after the row of `id` if that row is at most `reach` rows away from it. */
  private moveGapAfter(id: string | null, reach: number): boolean {
    if (id === null) return false;
    for (let step = 0; step <= reach; step++) {
      if (this.before[this.before.length - 1 - step]?.node.id === id) {
        for (let i = 0; i < step; i++) this.after.push(this.before.pop()!);
        return true;
      }
      if (this.after[this.after.length - 1 - step]?.node.id === id) {
        for (let i = 0; i <= step; i++) this.before.push(this.after.pop()!);
        return true;
      }
    }
    return false;
  }

  /** The parent a known node is laid out under: its own, unless that is missing (then it is a root). */
  private layoutParentOf(node: TreeNode): string | null {
    return node.parentId !== null && !this.missingParents.has(node.parentId) ? node.parentId : null;
  }

  private childrenOf(parent: string | null): string[] {
    let list = this.children.get(parent);
    if (!list) this.children.set(parent, (list = []));
    return list;
  }
}

/** Sibling ids in layout order; `ids` are in file order, which the stable sort keeps for ties. */
function sortedIds(ids: readonly string[], nodeOf: (id: string) => TreeNode): string[] {
  return ids.map(nodeOf).sort(siblingOrder).map((node) => node.id);
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
