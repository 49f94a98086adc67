// Lays the session tree out as rows for the compact graph: depth-first, children oldest first, the
// active child first at each branch point; depth grows only at branch points, so a long linear
// conversation stays flush left (like pi's /tree). This full layout is O(n log n); webview/tree-rows.ts
// keeps its result up to date per patch and must always equal it (the unit tests compare the two).
import type { TreeNode } from '../src/protocol';

export interface TreeRow {
  node: TreeNode;
  depth: number;
  /** this node has more than one child */
  branchPoint: boolean;
}

/**
 * The order of siblings: the active child first, then oldest first. `Array.prototype.sort` is stable, so
 * siblings that compare equal keep their file order.
 */
export function siblingOrder(a: TreeNode, b: TreeNode): number {
  return Number(b.onActivePath) - Number(a.onActivePath) || a.timestamp - b.timestamp;
}

export function layoutTree(nodes: readonly TreeNode[]): TreeRow[] {
  const byParent = new Map<string | null, TreeNode[]>();
  const ids = new Set(nodes.map((n) => n.id));
  for (const node of nodes) {
    // An orphan (its parent not in the list) is shown as a root rather than lost.
    const parent = node.parentId !== null && ids.has(node.parentId) ? node.parentId : null;
    const list = byParent.get(parent);
    if (list) list.push(node);
    else byParent.set(parent, [node]);
  }
  for (const list of byParent.values()) list.sort(siblingOrder);
  const rows: TreeRow[] = [];
  const seen = new Set<string>();
  // Iterative DFS: real trees are thousands of entries deep.
  const stack: { node: TreeNode; depth: number }[] = [];
  const roots = byParent.get(null) ?? [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i]!, depth: roots.length > 1 ? 1 : 0 });
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    const children = byParent.get(node.id) ?? [];
    rows.push({ node, depth, branchPoint: children.length > 1 });
    const childDepth = children.length > 1 ? depth + 1 : depth;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, depth: childDepth });
  }
  return rows;
}
