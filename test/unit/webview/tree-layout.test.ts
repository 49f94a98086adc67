import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeNode } from '../../../src/protocol';
import { layoutTree } from '../../../webview/tree-layout';

let clock = 0;
function node(id: string, parentId: string | null, onActivePath = false, extra: Partial<TreeNode> = {}): TreeNode {
  return { id, parentId, kind: 'user', preview: id, onActivePath, isLeaf: false, childCount: 0, timestamp: ++clock, ...extra };
}

const shape = (nodes: TreeNode[]) => layoutTree(nodes).map((r) => `${r.node.id}@${r.depth}${r.branchPoint ? '*' : ''}`);

test('a linear conversation stays flush left', () => {
  assert.deepEqual(shape([node('a', null), node('b', 'a'), node('c', 'b')]), ['a@0', 'b@0', 'c@0']);
});

test('a branch point indents its children; the active child comes first, then oldest first', () => {
  const nodes = [node('r', null, true), node('old', 'r'), node('x', 'old'), node('new', 'r', true), node('y', 'new', true), node('older', 'r')];
  // "old" and "older" are off the path: after the active child, in timestamp order.
  assert.deepEqual(shape(nodes), ['r@0*', 'new@1', 'y@1', 'old@1', 'x@1', 'older@1']);
});

test('input order does not matter (children listed before parents)', () => {
  const nodes = [node('c', 'b'), node('b', 'a'), node('a', null)];
  assert.deepEqual(shape(nodes), ['a@0', 'b@0', 'c@0']);
});

test('orphans show as extra roots instead of disappearing; several roots indent by one', () => {
  const rows = shape([node('a', null), node('b', 'a'), node('lost', 'missing-parent')]);
  assert.deepEqual(rows, ['a@1', 'b@1', 'lost@1']);
});

test('deep trees do not overflow the stack and every node appears once', () => {
  const nodes: TreeNode[] = [node('n0', null)];
  for (let i = 1; i < 50_000; i++) nodes.push(node(`n${i}`, `n${i - 1}`));
  const rows = layoutTree(nodes);
  assert.equal(rows.length, 50_000);
  assert.equal(new Set(rows.map((r) => r.node.id)).size, 50_000);
});

test('a cycle in bad input terminates (each node once)', () => {
  const rows = layoutTree([node('a', null), node('b', 'c'), node('c', 'b')]);
  assert.deepEqual(rows.map((r) => r.node.id), ['a']);
});
