// The conversation graph's lane layout (webview/graph/graph-layout.ts) on random trees: every entry in
// exactly one turn, turns are paths, no edge runs through another turn's node, every parent→child edge
// is there, the active turns are the path to the leaf, and the layout kept patch by patch equals a fresh
// full layout, with appends never needing a fresh one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeNode, TreeNodeKind } from '../../../src/protocol';
import { GraphLayout, turnIsActive } from '../../../webview/graph/graph-layout';
import { applyTreePatch, graphOf, treeModelOf, type TreeModel, type TreePatch } from '../../../webview/tree-patch';
import { seededRandom as random } from '../seeded-random';
import { nodesOf, type Session } from './tree-fixtures';

const KINDS: TreeNodeKind[] = ['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant', 'compaction', 'branch_summary', 'model_change', 'label'];

function kindFor(rand: () => number, parent: string | null): TreeNodeKind {
  if (parent === null) return rand() < 0.5 ? 'session_info' : 'user';
  const r = rand();
  return r < 0.3 ? 'user' : r < 0.9 ? KINDS[1 + Math.floor(rand() * 4)]! : KINDS[6 + Math.floor(rand() * 4)]!;
}

type Grown = Session & { kinds: TreeNodeKind[] };

function addEntry(rand: () => number, s: Grown, parent: string | null): number {
  s.parents.push(parent);
  s.kinds.push(kindFor(rand, parent));
  return s.parents.length - 1;
}

type Step = 'appendToLeaf' | 'branch' | 'move' | 'files' | 'label' | 'newRoot' | 'orphan';

function pickStep(rand: () => number): Step {
  const r = rand();
  return r < 0.55 ? 'appendToLeaf' : r < 0.7 ? 'branch' : r < 0.76 ? 'move' : r < 0.84 ? 'files' : r < 0.94 ? 'label' : r < 0.97 ? 'newRoot' : 'orphan';
}

function play(rand: () => number, s: Grown, step: Step): void {
  const count = s.parents.length;
  const any = () => Math.floor(rand() * count);
  switch (step) {
    case 'appendToLeaf':
      for (let i = 1 + Math.floor(rand() * 3); i > 0; i--) s.leaf = addEntry(rand, s, s.leaf < 0 ? null : `n${s.leaf}`);
      return;
    case 'branch':
      s.leaf = addEntry(rand, s, count === 0 ? null : `n${any()}`);
      return;
    case 'move':
      if (count > 0) s.leaf = any();
      return;
    case 'files':
      // a manifest after a step gives it a count; a later one for the same step may change it
      if (count > 0) s.files!.set(`n${any()}`, 1 + Math.floor(rand() * 5));
      return;
    case 'label':
      if (count > 0) s.labels.set(`n${any()}`, `label ${Math.floor(rand() * 100)}`);
      return;
    case 'newRoot':
      addEntry(rand, s, null);
      return;
    case 'orphan':
      addEntry(rand, s, `n${count + 1}`);
      return;
  }
}

function patchBetween(before: readonly TreeNode[], after: readonly TreeNode[], leaf: number): TreePatch {
  const old = new Map(before.map((n) => [n.id, n]));
  return {
    added: after.filter((n) => !old.has(n.id)),
    changed: after.filter((n) => old.has(n.id) && JSON.stringify(n) !== JSON.stringify(old.get(n.id))),
    leafId: leaf < 0 ? null : `n${leaf}`,
  };
}

const shape = (g: GraphLayout) => ({ turns: g.turns, laneRows: g.laneRows });

/** The invariants a drawing relies on, checked against the nodes themselves. */
function assertWellFormed(g: GraphLayout, nodes: readonly TreeNode[], context: string): void {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  g.turns.forEach((turn, row) => {
    assert.equal(turn.row, row, `${context}: row index`);
    turn.entries.forEach((id, i) => {
      assert.ok(!seen.has(id), `${context}: ${id} in two turns`);
      seen.add(id);
      assert.equal(g.rowOf(id), row, `${context}: rowOf ${id}`);
      if (i > 0) assert.equal(byId.get(id)!.parentId, turn.entries[i - 1], `${context}: turn ${row} is a path`);
    });
    const first = byId.get(turn.entries[0]!)!;
    if (turn.parent >= 0) {
      assert.ok(turn.parent < row, `${context}: a parent turn is above its child`);
      assert.equal(g.rowOf(first.parentId), turn.parent, `${context}: turn ${row} hangs under its first entry's parent`);
      assert.ok(g.turns[turn.parent]!.children.includes(row), `${context}: edge ${turn.parent}→${row} drawn`);
    } else assert.ok(first.parentId === null || !byId.has(first.parentId), `${context}: root ${row} has no parent present`);
  });
  assert.equal(seen.size, byId.size, `${context}: every entry has a turn`);
  // Per lane, the edge spans [parent row, row] follow each other without overlapping: no edge runs
  // through a node of another turn, and every turn is in its lane.
  g.laneRows.forEach((rows, lane) => {
    let end = -1;
    for (const row of rows) {
      const turn = g.turns[row]!;
      assert.equal(turn.lane, lane, `${context}: turn ${row} listed in lane ${lane}`);
      const start = turn.parent >= 0 ? turn.parent : row;
      assert.ok(start >= end && row > end, `${context}: lane ${lane}: span [${start}, ${row}] overlaps the one ending at ${end}`);
      if (g.turns[start]!.lane !== lane) assert.ok(start > end, `${context}: lane ${lane}: a branch edge starts below the lane's last node`);
      end = row;
    }
  });
  assert.equal(g.laneRows.reduce((sum, rows) => sum + rows.length, 0), g.turns.length, `${context}: every turn in one lane`);
}

/** Each turn's file totals are its entries' counts summed (kept patch by patch, never recounted). */
function assertFileTotals(g: GraphLayout, nodes: readonly TreeNode[], context: string): void {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const turn of g.turns) {
    const counts = turn.entries.map((id) => byId.get(id)!.files?.count ?? 0).filter((n) => n > 0);
    assert.deepEqual([turn.fileChanges, turn.fileSteps], [counts.reduce((a, b) => a + b, 0), counts.length], `${context}: files of turn ${turn.row}`);
  }
}

function assertActivePath(g: GraphLayout, nodes: readonly TreeNode[], leafId: string | null, context: string): void {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const expected = new Set<number>();
  for (let row = g.rowOf(leafId); row >= 0 && !expected.has(row); row = g.turns[row]!.parent) expected.add(row);
  const active = g.turns.filter((turn) => turnIsActive(turn, (id) => byId.get(id)!)).map((t) => t.row);
  assert.deepEqual(active, [...expected].sort((a, b) => a - b), `${context}: active turns`);
}

test('random sessions: the kept graph equals a fresh layout after every patch, and is well formed', () => {
  let appendsKept = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const rand = random(seed);
    const s: Grown = { parents: [], kinds: [], labels: new Map(), files: new Map(), leaf: -1 };
    for (let i = 0, size = Math.floor(rand() * 150); i < size; i++) play(rand, s, i < 10 ? 'appendToLeaf' : pickStep(rand));
    let nodes = nodesOf(s);
    const model: TreeModel = treeModelOf(s.leaf < 0 ? null : `n${s.leaf}`, nodes.map((n) => ({ ...n })));
    graphOf(model);
    for (let stepNo = 0; stepNo < 80; stepNo++) {
      const context = `seed ${seed}, step ${stepNo}`;
      const kept = graphOf(model);
      const step = pickStep(rand);
      const orphanWaiting = s.parents.some((p) => p !== null && Number(p.slice(1)) >= s.parents.length);
      play(rand, s, step);
      const next = nodesOf(s);
      applyTreePatch(model, patchBetween(nodes, next, s.leaf));
      nodes = next;
      if (step === 'appendToLeaf' || step === 'branch' || step === 'label' || step === 'move' || step === 'files') {
        if (!orphanWaiting) assert.ok(model.graph === kept, `${context}: ${step} kept the layout`);
        if (step === 'appendToLeaf' && model.graph === kept) appendsKept++;
      }
      const graph = graphOf(model);
      assert.deepEqual(shape(graph), shape(new GraphLayout(next)), `${context}: kept = full`);
      assertWellFormed(graph, next, context);
      assertFileTotals(graph, next, context);
      assertActivePath(graph, next, model.leafId, context);
    }
  }
  assert.ok(appendsKept > 600, `appends kept: ${appendsKept}`);
});

test('a conversation with a branch: turns begin at user messages, the branch takes the next lane', () => {
  // n0 user, n1 assistant, n2 toolResult, n3 assistant │ n4 user, n5 assistant │ n6 user (edit of n4), n7 assistant
  const s: Session = { parents: [null, 'n0', 'n1', 'n2', 'n3', 'n4', 'n3', 'n6'], kinds: ['user', 'assistant', 'toolResult', 'assistant', 'user', 'assistant', 'user', 'assistant'], labels: new Map(), leaf: 7 };
  const g = new GraphLayout(nodesOf(s));
  assert.deepEqual(g.turns.map((t) => t.entries), [['n0', 'n1', 'n2', 'n3'], ['n4', 'n5'], ['n6', 'n7']]);
  assert.deepEqual(g.turns.map((t) => [t.lane, t.parent]), [[0, -1], [0, 0], [1, 0]]);
  // Continuing the first branch stays in its lane; a compaction is a turn of its own.
  const more = new GraphLayout(nodesOf({ ...s, parents: [...s.parents, 'n5', 'n8'], kinds: [...s.kinds!, 'compaction', 'assistant'], leaf: 9 }));
  assert.deepEqual(more.turns.at(-1), { row: 3, lane: 0, entries: ['n8', 'n9'], parent: 1, children: [], fileChanges: 0, fileSteps: 0 });
});

test('a later sibling of a non-user entry begins its own turn; its parent turn keeps the first child', () => {
  const s: Session = { parents: [null, 'n0', 'n1', 'n1'], kinds: ['user', 'assistant', 'toolResult', 'model_change'], labels: new Map(), leaf: 3 };
  const g = new GraphLayout(nodesOf(s));
  assert.deepEqual(g.turns.map((t) => t.entries), [['n0', 'n1', 'n2'], ['n3']]);
  assert.equal(g.turns[1]!.parent, 0);
});

test('an entry that arrives after its orphaned child is laid out again; nodes out of file order wait for their parent', () => {
  const model = treeModelOf('n1', nodesOf({ parents: [null, 'n2'], labels: new Map(), leaf: 1 }).slice(0, 2));
  const first = graphOf(model);
  assert.equal(first.turns.length, 2, 'the orphan is a root of its own');
  applyTreePatch(model, { added: [{ id: 'n2', parentId: 'n0', kind: 'user', preview: '', onActivePath: true, isLeaf: false, childCount: 1, timestamp: 3 }], changed: [], leafId: 'n1' });
  assert.equal(model.graph, undefined, 'dropped for a fresh layout');
  const g = graphOf(model);
  assert.deepEqual(g.turns.map((t) => [t.entries, t.parent]), [[['n0'], -1], [['n2', 'n1'], 0]]);
});
