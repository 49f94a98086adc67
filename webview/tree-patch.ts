// Applies the host's `treePatch` messages to the webview's copy of the session tree in place: an added
// node is appended (the host sends them in file order, so the list stays in file order), a changed node
// replaces the one with its id, the leaf follows. Cost is O(patch), not O(session): ids are indexed.
// Applying the same node twice is harmless (a patch racing a full `tree` cannot duplicate nodes).
import type { TreeNode } from '../src/protocol';

export interface TreeModel {
  /** file order, as in a full `tree` message */
  nodes: TreeNode[];
  leafId: string | null;
  /** index of each node in `nodes` */
  positions: Map<string, number>;
}

export interface TreePatch {
  added: readonly TreeNode[];
  changed: readonly TreeNode[];
  leafId: string | null;
}

export function treeModelOf(leafId: string | null, nodes: TreeNode[]): TreeModel {
  const positions = new Map<string, number>();
  // A duplicate id in a full tree keeps the last copy's position, like a patch replacing it would.
  nodes.forEach((node, index) => positions.set(node.id, index));
  return { nodes, leafId, positions };
}

export function applyTreePatch(model: TreeModel, patch: TreePatch): void {
  for (const node of patch.added) upsert(model, node);
  for (const node of patch.changed) upsert(model, node);
  model.leafId = patch.leafId;
}

function upsert(model: TreeModel, node: TreeNode): void {
  const at = model.positions.get(node.id);
  if (at !== undefined) {
    model.nodes[at] = node;
    return;
  }
  // A changed node we never saw (the patch overtook the full tree) is kept rather than lost.
  model.positions.set(node.id, model.nodes.length);
  model.nodes.push(node);
}
