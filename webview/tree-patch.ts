// Applies the host's `treePatch` messages to the webview's copy of the session tree in place: an added
// node is appended (the host sends them in file order, so the list stays in file order), a changed node
// replaces the one with its id, the leaf follows. Cost is O(patch), not O(session): ids are indexed.
// Applying the same node twice is harmless (a patch racing a full `tree` cannot duplicate nodes).
// The rows of the tree panel are laid out only when first asked for (rowsOf: O(session)); from then on
// each patch keeps them up to date in O(patch) when it can (tree-rows.ts), else drops them for a new
// full layout on the next rowsOf.
import type { TreeNode } from '../src/protocol';
import { GraphLayout } from './graph/graph-layout';
import { TreeRows, type NodesBefore } from './tree-rows';

export interface TreeModel {
  /** file order, as in a full `tree` message */
  nodes: TreeNode[];
  leafId: string | null;
  /** index of each node in `nodes` */
  positions: Map<string, number>;
  /** nodes with more than one child (the host's childCount), counted as patches go: the panel shows it */
  branchPoints: number;
  /** the panel's rows once rowsOf laid them out; dropped when a patch cannot keep them up to date */
  rows?: TreeRows;
  /** the graph's layout once graphOf laid it out; dropped when a patch cannot keep it up to date */
  graph?: GraphLayout;
}

export interface TreePatch {
  added: readonly TreeNode[];
  changed: readonly TreeNode[];
  leafId: string | null;
}

/**
 * The model a `nodes` array belongs to. The tree panel is handed the store's `tree` (that array, patched
 * in place) rather than the model, and finds the model, and so the rows kept with it, from it.
 */
const models = new WeakMap<readonly TreeNode[], TreeModel>();

export function treeModelOf(leafId: string | null, nodes: TreeNode[]): TreeModel {
  const positions = new Map<string, number>();
  // A duplicate id in a full tree keeps the last copy's position, like a patch replacing it would.
  nodes.forEach((node, index) => positions.set(node.id, index));
  const branchPoints = nodes.reduce((count, node) => count + branchPointCount(node), 0);
  const model: TreeModel = { nodes, leafId, positions, branchPoints };
  models.set(nodes, model);
  return model;
}

/** The model whose `nodes` these are (see `models`). */
export function modelOfNodes(nodes: readonly TreeNode[]): TreeModel | undefined {
  return models.get(nodes);
}

/** The rows for the tree panel: a full layout the first time and after a dropped update, else as kept. */
export function rowsOf(model: TreeModel): TreeRows {
  return (model.rows ??= new TreeRows(model.nodes, model.leafId));
}

/** The graph layout (graph/graph-layout.ts): a full layout the first time and after a dropped update. */
export function graphOf(model: TreeModel): GraphLayout {
  return (model.graph ??= new GraphLayout(model.nodes));
}

export function applyTreePatch(model: TreeModel, patch: TreePatch): void {
  const { rows, graph } = model;
  const before = (rows || graph) && nodesBefore(model, patch);
  for (const node of patch.added) upsert(model, node);
  for (const node of patch.changed) upsert(model, node);
  model.leafId = patch.leafId;
  if (!before) return;
  if (rows && !rows.update(before, model)) model.rows = undefined;
  if (graph && !graph.update(before, (id) => model.nodes[model.positions.get(id)!]!)) model.graph = undefined;
}

/** The patched nodes as the model has them before the patch, in the order the patch names them. */
function nodesBefore(model: TreeModel, patch: TreePatch): NodesBefore {
  const before = new Map<string, TreeNode | undefined>();
  for (const node of [...patch.added, ...patch.changed]) {
    if (before.has(node.id)) continue;
    const at = model.positions.get(node.id);
    before.set(node.id, at === undefined ? undefined : model.nodes[at]);
  }
  return before;
}

function upsert(model: TreeModel, node: TreeNode): void {
  const at = model.positions.get(node.id);
  if (at !== undefined) {
    model.branchPoints += branchPointCount(node) - branchPointCount(model.nodes[at]!);
    model.nodes[at] = node;
    return;
  }
  // A changed node we never saw (the patch overtook the full tree) is kept rather than lost.
  model.positions.set(node.id, model.nodes.length);
  model.nodes.push(node);
  model.branchPoints += branchPointCount(node);
}

function branchPointCount(node: TreeNode): number {
  return node.childCount > 1 ? 1 : 0;
}
