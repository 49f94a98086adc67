// The branch switcher's rules: a message's alternatives are the shown entries under its nearest shown
// ancestor (labels and tool results looked through), oldest first; switching goes to the newest entry of
// the chosen branch; a message without alternatives has no switcher.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeNode } from '../../../src/protocol';
import { SiblingIndex } from '../../../webview/branch-siblings';

let clock = 0;
const node = (id: string, parentId: string | null, kind: TreeNode['kind'] = 'user', timestamp = ++clock): TreeNode => ({
  id, parentId, kind, preview: id, onActivePath: false, isLeaf: false, childCount: 0, timestamp,
});

// u1 ─ a1 ┬ u2 ─ a2                 (first try)
//         ├ u3 ─ a3 ─ L(label) ─ u5 (an edit of u2, labelled, continued)
//         └ L2(label) ─ u4 ─ a4      (a third try made after a label on a1)
const tree = [
  node('u1', null), node('a1', 'u1', 'assistant'),
  node('u2', 'a1'), node('a2', 'u2', 'assistant'),
  node('u3', 'a1'), node('a3', 'u3', 'assistant'), node('L', 'a3', 'label'), node('u5', 'L'),
  node('L2', 'a1', 'label'), node('u4', 'L2'), node('a4', 'u4', 'assistant'),
];

test('alternatives are counted under the nearest shown parent, oldest first, looking through labels', () => {
  const index = new SiblingIndex(tree);
  assert.deepEqual(index.siblingsOf('u2'), { index: 0, count: 3, ids: ['u2', 'u3', 'u4'] });
  assert.deepEqual(index.siblingsOf('u4'), { index: 2, count: 3, ids: ['u2', 'u3', 'u4'] });
  assert.equal(index.siblingsOf('u1'), undefined, 'a single root has no switcher');
  assert.equal(index.siblingsOf('a2'), undefined, 'a reply with no alternative has none');
  assert.equal(index.siblingsOf('u5'), undefined, 'a message after a label alone has none');
  assert.equal(index.siblingsOf('missing'), undefined);
});

test('switching goes to the newest entry of the branch, also through a label', () => {
  const index = new SiblingIndex(tree);
  assert.equal(index.tipOf('u3'), 'u5');
  assert.equal(index.tipOf('u2'), 'a2');
  assert.equal(index.tipOf('u4'), 'a4');
  assert.equal(index.tipOf('unknown'), 'unknown');
});

test('a tool result is looked through: replies after it and a message branched at the call are alternatives', () => {
  const index = new SiblingIndex([
    node('u', null), node('call', 'u', 'assistant'), node('r', 'call', 'toolResult'), node('after', 'r', 'assistant'), node('u-new', 'call'),
  ]);
  assert.deepEqual(index.siblingsOf('u-new')?.ids, ['after', 'u-new']);
});

test('several roots (the first message edited) are alternatives of each other', () => {
  const index = new SiblingIndex([node('r1', null), node('x', 'r1', 'assistant'), node('r2', null)]);
  assert.deepEqual(index.siblingsOf('r2'), { index: 1, count: 2, ids: ['r1', 'r2'] });
  assert.equal(index.tipOf('r1'), 'x');
});

test('equal timestamps keep file order', () => {
  const index = new SiblingIndex([node('p', null, 'user', 5), node('b', 'p', 'assistant', 9), node('a', 'p', 'user', 9)]);
  assert.deepEqual(index.siblingsOf('a')?.ids, ['b', 'a']);
});
