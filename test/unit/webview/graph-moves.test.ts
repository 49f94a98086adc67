// Where the arrow keys go in the conversation graph (webview/render/tree-graph-keys.ts) and where rows
// are on screen with expanded turns (webview/graph/graph-geometry.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphGeometry, spansIn } from '../../../webview/graph/graph-geometry';
import { GraphLayout } from '../../../webview/graph/graph-layout';
import { moveFrom, type GraphFocus } from '../../../webview/render/tree-graph-keys';
import { nodesOf, type Session } from './tree-fixtures';

// Turns: 0 [n0 n1] ─┬─ 1 [n2 n3] ── 3 [n6]        (n6 a branch summary)
//                   └─ 2 [n4 n5] (leaf)
const session: Session = {
  parents: [null, 'n0', 'n1', 'n2', 'n1', 'n4', 'n3'],
  kinds: ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'branch_summary'],
  labels: new Map(),
  leaf: 5,
};
const nodes = nodesOf(session);
const layout = new GraphLayout(nodes);
const byId = new Map(nodes.map((n) => [n.id, n]));
const expanded = new Set<number>();
const move = (from: GraphFocus, key: string) =>
  moveFrom(layout, from, key, { page: 2, nodeOf: (id) => byId.get(id), entriesShown: (row) => (expanded.has(row) ? layout.turns[row]!.entries.length : 0) });
const turn = (row: number): GraphFocus => ({ row, entry: -1 });

test('the layout of the example', () => {
  assert.deepEqual(layout.turns.map((t) => [t.entries.join(' '), t.lane, t.parent]), [['n0 n1', 0, -1], ['n2 n3', 0, 0], ['n4 n5', 1, 0], ['n6', 0, 1]]);
});

test('Up goes to the parent turn, Down to the child on the active path (else the first)', () => {
  assert.deepEqual(move(turn(2), 'ArrowUp'), turn(0));
  assert.deepEqual(move(turn(0), 'ArrowUp'), turn(0), 'the root stays');
  assert.deepEqual(move(turn(0), 'ArrowDown'), turn(2), 'the active child, though it began later');
  assert.deepEqual(move(turn(1), 'ArrowDown'), turn(3));
  assert.deepEqual(move(turn(3), 'ArrowDown'), turn(3), 'a tip stays');
});

test('Left and Right go to sibling branches, else to the nearest turn in the next lane', () => {
  assert.deepEqual(move(turn(1), 'ArrowRight'), turn(2));
  assert.deepEqual(move(turn(2), 'ArrowLeft'), turn(1));
  assert.deepEqual(move(turn(3), 'ArrowRight'), turn(2), 'no sibling: lane 1, nearest row');
  assert.deepEqual(move(turn(0), 'ArrowLeft'), turn(0), 'no lane to the left');
});

test('Down enters an expanded turn, Up leaves it; Home, End and the page keys go by rows', () => {
  expanded.add(1);
  assert.deepEqual(move(turn(1), 'ArrowDown'), { row: 1, entry: 0 });
  assert.deepEqual(move({ row: 1, entry: 1 }, 'ArrowDown'), turn(3), 'past the last entry: the child turn');
  assert.deepEqual(move({ row: 1, entry: 0 }, 'ArrowUp'), turn(1));
  expanded.clear();
  assert.deepEqual(move(turn(2), 'Home'), turn(0));
  assert.deepEqual(move(turn(0), 'End'), turn(3));
  assert.deepEqual(move(turn(0), 'PageDown'), turn(2));
  assert.deepEqual(move(turn(3), 'PageUp'), turn(1));
  assert.equal(move(turn(0), 'Enter'), undefined, 'not a move');
});

test('geometry: expanded turns push the rows below down; rowAt inverts top', () => {
  const g = new GraphGeometry();
  g.setExpanded(new Map([[1, 2]]));
  const h = g.rowHeight;
  const e = g.entryHeight;
  assert.equal(g.top(1), h);
  assert.equal(g.top(2), 2 * h + 2 * e);
  assert.equal(g.height(4), 4 * h + 2 * e);
  for (let row = 0; row < 4; row++) assert.equal(g.rowAt(g.top(row) + 1, 4), row);
  assert.equal(g.rowAt(g.top(2) - 1, 4), 1, 'an entry row belongs to its turn');
  assert.equal(g.entriesShown(1), 2);
  assert.equal(g.entriesShown(2), 0);
});

test('spansIn finds the edges that reach into a window, including one passing through it', () => {
  // lane 0 holds turns 0, 1, 3; turn 3's edge runs from row 1 to row 3
  assert.deepEqual(spansIn(layout, 0, 2, 2), [{ row: 3, from: 1 }]);
  assert.deepEqual(spansIn(layout, 1, 0, 0), [{ row: 2, from: 0 }]);
  assert.deepEqual(spansIn(layout, 0, 0, 3).map((s) => s.row), [0, 1, 3]);
});
