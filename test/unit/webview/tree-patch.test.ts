// The webview's tree patching: a full tree plus the patches since must be exactly the tree a full `tree`
// message with the final nodes gives (same nodes, same order, same layout), on generated trees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeNode } from '../../../src/protocol';
import { layoutTree } from '../../../webview/tree-layout';
import { applyTreePatch, treeModelOf, type TreeModel } from '../../../webview/tree-patch';
import { seededRandom as random } from '../seeded-random';
import { nodesOf } from './tree-fixtures';

/** A session tree as the host would send it: file order, parents first, flags from the leaf. */
function generateTree(rand: () => number, size: number): { nodes: TreeNode[]; leafId: string | null } {
  const parents: (string | null)[] = [];
  for (let i = 0; i < size; i++) {
    // Mostly extend the previous entry (long linear runs), sometimes branch from anywhere or start a root.
    const r = rand();
    parents.push(i === 0 || r < 0.03 ? null : r < 0.8 ? `n${i - 1}` : `n${Math.floor(rand() * i)}`);
  }
  const leafIndex = size === 0 ? -1 : Math.floor(rand() * size);
  return withFlags(rand, parents, leafIndex);
}

function withFlags(rand: () => number, parents: (string | null)[], leafIndex: number, labels?: Map<string, string>): { nodes: TreeNode[]; leafId: string | null } {
  // Random labels are drawn in entry order, one draw per entry, so a seed gives the same tree as before.
  const chosen = labels ?? new Map(parents.flatMap((_, i) => (rand() < 0.05 ? [[`n${i}`, `label ${i}`] as const] : [])));
  return { nodes: nodesOf({ parents, labels: chosen, leaf: leafIndex }), leafId: leafIndex < 0 ? null : `n${leafIndex}` };
}

const same = (a: TreeNode, b: TreeNode) => JSON.stringify(a) === JSON.stringify(b);

function assertSameTree(patched: TreeModel, expected: { nodes: TreeNode[]; leafId: string | null }, context: string): void {
  assert.equal(patched.leafId, expected.leafId, `${context}: leaf`);
  assert.deepEqual(patched.nodes, expected.nodes, `${context}: nodes and their order`);
  const shape = (nodes: readonly TreeNode[]) => layoutTree(nodes).map((r) => `${r.node.id}@${r.depth}${r.branchPoint ? '*' : ''}${r.node.isLeaf ? '<' : ''}`);
  assert.deepEqual(shape(patched.nodes), shape(expected.nodes), `${context}: layout`);
}

test('a tree grown by patches (appends, label changes, leaf moves) equals the full tree of its final nodes', () => {
  for (let seed = 1; seed <= 25; seed++) {
    const rand = random(seed);
    const { nodes: finalNodes } = generateTree(rand, 50 + Math.floor(rand() * 250));
    const parents = finalNodes.map((n) => n.parentId);
    const labels = new Map<string, string>();
    // Start from a prefix of the session, then apply one patch per step until the whole session is there.
    let count = Math.floor(rand() * parents.length);
    let previous = withFlags(rand, parents.slice(0, count), count - 1, labels);
    const model = treeModelOf(previous.leafId, previous.nodes.map((n) => ({ ...n })));
    for (let step = 0; count < parents.length || step < 5; step++) {
      const grow = Math.min(parents.length - count, Math.floor(rand() * 4));
      count += grow;
      // The leaf usually follows the appends, sometimes jumps anywhere (navigation).
      const leafIndex = count === 0 ? -1 : grow > 0 && rand() < 0.8 ? count - 1 : Math.floor(rand() * count);
      if (rand() < 0.3 && count > 0) {
        const target = `n${Math.floor(rand() * count)}`;
        if (labels.has(target) && rand() < 0.5) labels.delete(target);
        else labels.set(target, `label ${seed}.${step}`);
      }
      const next = withFlags(rand, parents.slice(0, count), leafIndex, labels);
      const before = new Map(previous.nodes.map((n) => [n.id, n]));
      const added = next.nodes.filter((n) => !before.has(n.id));
      const changed = next.nodes.filter((n) => before.has(n.id) && !same(n, before.get(n.id)!));
      // The host may resend an unchanged node (coalesced flips); that must not matter.
      const resent = next.nodes.filter((n) => before.has(n.id) && rand() < 0.02);
      applyTreePatch(model, { added, changed: [...changed, ...resent], leafId: next.leafId });
      assertSameTree(model, next, `seed ${seed}, step ${step}`);
      previous = next;
    }
    assert.equal(model.nodes.length, parents.length);
  }
});

test('applying a patch twice, or a patch that overtook the full tree, loses and duplicates nothing', () => {
  const rand = random(99);
  const full = generateTree(rand, 200);
  const base = treeModelOf(null, full.nodes.slice(0, 150));
  const patch = { added: full.nodes.slice(150), changed: full.nodes.slice(0, 150), leafId: full.leafId };
  applyTreePatch(base, patch);
  applyTreePatch(base, patch);
  assertSameTree(base, full, 'twice');

  // Patch first (into an empty tree), then the full tree: the full tree replaces whatever was there.
  const early = treeModelOf(null, []);
  applyTreePatch(early, { added: [], changed: [full.nodes[3]!], leafId: full.leafId });
  assert.deepEqual(early.nodes, [full.nodes[3]], 'an unknown changed node is kept, not dropped');
});

test('a patch costs O(patch): a one-node append to a 35,000-node tree touches no other node', () => {
  const rand = random(7);
  const { nodes, leafId } = generateTree(rand, 35_000);
  const model = treeModelOf(leafId, nodes);
  const array = model.nodes;
  const before = array.slice();
  const appended: TreeNode = { ...nodes[34_999]!, id: 'n35000', parentId: 'n34999', timestamp: 99_999 };
  applyTreePatch(model, { added: [appended], changed: [], leafId: 'n35000' });
  assert.equal(model.nodes, array, 'patched in place, not copied');
  assert.equal(model.nodes.length, 35_001);
  for (let i = 0; i < before.length; i++) assert.equal(model.nodes[i], before[i], `node ${i} untouched`);
  assert.equal(model.positions.get('n35000'), 35_000);
});
