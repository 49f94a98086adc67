// The tree panel's rows kept up to date patch by patch (webview/tree-rows.ts) must always equal a fresh
// full layout of all nodes, and the common patches (an append to the leaf, a label change, a leaf move up
// the path) must take the O(patch) fast path rather than a new layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeNode } from '../../../src/protocol';
import { layoutTree, type TreeRow } from '../../../webview/tree-layout';
import { applyTreePatch, modelOfNodes, rowsOf, treeModelOf, type TreeModel, type TreePatch } from '../../../webview/tree-patch';
import { seededRandom as random } from '../seeded-random';
import { nodesOf, type Session as HostSession } from './tree-fixtures';

/** These tests move timestamps around (ties, skew), so every session carries its own. */
type Session = HostSession & { timestamps: number[] };

/** What the host sends between two states: new nodes, and the known ones whose view changed. */
function patchBetween(before: readonly TreeNode[], after: readonly TreeNode[], leaf: number): TreePatch {
  const old = new Map(before.map((n) => [n.id, n]));
  return {
    added: after.filter((n) => !old.has(n.id)),
    changed: after.filter((n) => old.has(n.id) && JSON.stringify(n) !== JSON.stringify(old.get(n.id))),
    leafId: leaf < 0 ? null : `n${leaf}`,
  };
}

const shape = (rows: readonly TreeRow[]) => rows.map((r) => `${r.node.id}@${r.depth}${r.branchPoint ? '*' : ''}${r.node.isLeaf ? '<' : ''}`);

function assertRowsAreTheFullLayout(model: TreeModel, expected: readonly TreeNode[], context: string): void {
  const rows = rowsOf(model);
  const full = layoutTree(expected);
  assert.deepEqual(shape(rows.toArray()), shape(full), `${context}: order, depth, branch points`);
  assert.deepEqual(rows.toArray(), full, `${context}: row contents`);
  assert.equal(rows.size, full.length, `${context}: size`);
  const leaf = full.findIndex((r) => r.node.isLeaf);
  assert.equal(rows.indexOf(model.leafId), leaf, `${context}: leaf row`);
  if (leaf >= 0) assert.equal(rows.at(leaf)?.node.id, model.leafId, `${context}: row at the leaf index`);
}

function childrenOf(session: Session, index: number): number {
  return session.parents.filter((p) => p === `n${index}`).length;
}

function ancestorsOf(session: Session, index: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  for (let p = session.parents[index]; p != null; p = session.parents[Number(p.slice(1))]) {
    const i = Number(p.slice(1));
    if (i >= session.parents.length || seen.has(i)) break;
    seen.add(i);
    out.push(i);
  }
  return out;
}

type Step = 'appendToLeaf' | 'appendElsewhere' | 'moveUp' | 'moveDown' | 'moveAnywhere' | 'label' | 'newRoot' | 'orphan';

function pickStep(rand: () => number): Step {
  const r = rand();
  if (r < 0.45) return 'appendToLeaf';
  if (r < 0.55) return 'appendElsewhere';
  if (r < 0.65) return 'moveUp';
  if (r < 0.7) return 'moveDown';
  if (r < 0.77) return 'moveAnywhere';
  if (r < 0.94) return 'label';
  if (r < 0.97) return 'newRoot';
  return 'orphan';
}

/** Mostly increasing timestamps, with ties and clock skew (the order must then come from the file). */
function timestampFor(rand: () => number, session: Session): number {
  const last = session.timestamps.at(-1) ?? 1_000;
  const r = rand();
  return r < 0.1 ? last : r < 0.2 ? last - 1 - Math.floor(rand() * 30) : last + 1 + Math.floor(rand() * 3);
}

function addNode(rand: () => number, session: Session, parent: string | null): number {
  session.parents.push(parent);
  session.timestamps.push(timestampFor(rand, session));
  return session.parents.length - 1;
}

/** Changes the session the way one step of a real session would. */
function play(rand: () => number, session: Session, step: Step): void {
  const count = session.parents.length;
  const any = () => Math.floor(rand() * count);
  switch (step) {
    case 'appendToLeaf': {
      // One turn may append several entries at once (a reply and its tool results, coalesced).
      const chain = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < chain; i++) session.leaf = addNode(rand, session, session.leaf < 0 ? null : `n${session.leaf}`);
      return;
    }
    case 'appendElsewhere': {
      // Editing an earlier message (the leaf follows the new branch) or an entry added off the path.
      const at = addNode(rand, session, count === 0 ? null : `n${any()}`);
      if (rand() < 0.7) session.leaf = at;
      return;
    }
    case 'moveUp': {
      const up = ancestorsOf(session, session.leaf);
      if (up.length > 0) session.leaf = up[Math.floor(rand() * up.length)]!;
      return;
    }
    case 'moveDown': {
      // Back down a branch: to a descendant of the leaf, following the first children.
      let at = session.leaf;
      for (let depth = 1 + Math.floor(rand() * 4); depth > 0; depth--) {
        const child = session.parents.findIndex((p) => p === `n${at}`);
        if (child < 0) break;
        at = child;
      }
      session.leaf = at;
      return;
    }
    case 'moveAnywhere':
      if (count > 0) session.leaf = any();
      return;
    case 'label': {
      if (count === 0) return;
      const id = `n${any()}`;
      if (session.labels.has(id) && rand() < 0.4) session.labels.delete(id);
      else session.labels.set(id, `label ${Math.floor(rand() * 1000)}`);
      return;
    }
    case 'newRoot':
      addNode(rand, session, null);
      return;
    case 'orphan':
      // Its parent is the entry after next: missing until then (an orphan shown as a root), then adopted.
      addNode(rand, session, `n${count + 1}`);
      return;
  }
}

test('random patch sequences: the kept rows equal a fresh full layout after every step', () => {
  const kept: Record<Step, number> = { appendToLeaf: 0, appendElsewhere: 0, moveUp: 0, moveDown: 0, moveAnywhere: 0, label: 0, newRoot: 0, orphan: 0 };
  for (let seed = 1; seed <= 40; seed++) {
    const rand = random(seed);
    const session: Session = { parents: [], timestamps: [], labels: new Map(), leaf: -1 };
    for (let i = 0, size = Math.floor(rand() * 200); i < size; i++) play(rand, session, i < 20 ? 'appendToLeaf' : pickStep(rand));
    let nodes = nodesOf(session);
    const model = treeModelOf(session.leaf < 0 ? null : `n${session.leaf}`, nodes.map((n) => ({ ...n })));
    let panelOpen = true;
    for (let stepNo = 0; stepNo < 150; stepNo++) {
      const context = `seed ${seed}, step ${stepNo}`;
      const rowsBefore = panelOpen ? rowsOf(model) : model.rows;
      const steps = [pickStep(rand), ...(rand() < 0.15 ? [pickStep(rand)] : [])];
      const leafWasChildless = session.leaf >= 0 && childrenOf(session, session.leaf) === 0;
      // An orphan waiting for an entry not yet there: the append that brings it moves the orphan.
      const orphanWaiting = session.parents.some((p) => p !== null && Number(p.slice(1)) >= session.parents.length);
      for (const step of steps) play(rand, session, step);
      const next = nodesOf(session);
      const patch = patchBetween(nodes, next, session.leaf);
      // The host may resend an unchanged node (coalesced flips); that must not matter.
      const known = new Set(nodes.map((n) => n.id));
      const resent = next.filter((n) => known.has(n.id) && rand() < 0.01);
      applyTreePatch(model, { ...patch, changed: [...patch.changed, ...resent] });
      nodes = next;
      if (rowsBefore && model.rows === rowsBefore && steps.length === 1) kept[steps[0]!]++;
      // The common patches must never need a full layout.
      const only = steps.length === 1 ? steps[0] : undefined;
      if (rowsBefore && (only === 'label' || (only === 'appendToLeaf' && leafWasChildless && !orphanWaiting))) {
        assert.ok(model.rows === rowsBefore, `${context}: ${only} kept the rows instead of a new layout`);
      }
      assert.equal(model.branchPoints, next.filter((n) => n.childCount > 1).length, `${context}: branch point count`);
      // Sometimes the panel is closed for a while: patches then keep or drop rows nobody reads.
      if (rand() < 0.05) panelOpen = !panelOpen;
      if (panelOpen) assertRowsAreTheFullLayout(model, next, context);
    }
    assertRowsAreTheFullLayout(model, nodes, `seed ${seed}, end`);
  }
  // The fast path is taken for more than the guaranteed cases (leaf moves up and down the path).
  assert.ok(kept.appendToLeaf > 500, `appends kept: ${kept.appendToLeaf}`);
  assert.ok(kept.label > 200, `label changes kept: ${kept.label}`);
  assert.ok(kept.moveUp > 20, `leaf moves up kept: ${kept.moveUp}`);
  assert.ok(kept.moveDown > 20, `leaf moves down kept: ${kept.moveDown}`);
});

// Hand-made trees for the individual decisions. Timestamps follow file order unless given.
function session(parents: (string | null)[], leaf: number): Session {
  return { parents, timestamps: parents.map((_, i) => 1_000 + i), labels: new Map(), leaf };
}

/** A model whose rows are laid out (the panel is open), the patch to the changed session, the result. */
function patchOpenModel(start: Session, change: (s: Session) => void): { model: TreeModel; kept: boolean; rows: string[] } {
  const model = treeModelOf(start.leaf < 0 ? null : `n${start.leaf}`, nodesOf(start));
  const rows = rowsOf(model);
  const before = nodesOf(start);
  const next: Session = { ...start, parents: [...start.parents], timestamps: [...start.timestamps], labels: new Map(start.labels) };
  change(next);
  const after = nodesOf(next);
  applyTreePatch(model, patchBetween(before, after, next.leaf));
  assertRowsAreTheFullLayout(model, after, 'hand-made');
  return { model, kept: model.rows === rows, rows: shape(rowsOf(model).toArray()) };
}

// n0 ─ n1 ─┬─ n2 ─ n3 (leaf)       the active branch comes first, the older one after it
//          └─ n4 ─ n5   (file order puts n4 after n2, but it is off the path)
const branched = () => session([null, 'n0', 'n1', 'n2', 'n1', 'n4'], 3);

test('an append to a leaf that older branches follow goes right after the leaf, without a new layout', () => {
  const r = patchOpenModel(branched(), (s) => {
    s.parents.push('n3');
    s.timestamps.push(2_000);
    s.leaf = 6;
  });
  assert.equal(r.kept, true);
  assert.deepEqual(r.rows, ['n0@0', 'n1@0*', 'n2@1', 'n3@1', 'n6@1<', 'n4@1', 'n5@1']);
});

test('an append under a leaf that already is a branch point indents the new row, without a new layout', () => {
  // The leaf moved back to n1 (both children off the path), then a third branch starts there.
  const start = branched();
  start.leaf = 1;
  const r = patchOpenModel(start, (s) => {
    s.parents.push('n1');
    s.timestamps.push(2_000);
    s.leaf = 6;
  });
  assert.equal(r.kept, true);
  assert.deepEqual(r.rows, ['n0@0', 'n1@0*', 'n6@1<', 'n2@1', 'n3@1', 'n4@1', 'n5@1']);
});

test('an append that makes a new branch point is laid out again (the existing child is indented)', () => {
  const start = branched();
  start.leaf = 2;
  const r = patchOpenModel(start, (s) => {
    s.parents.push('n2');
    s.timestamps.push(2_000);
    s.leaf = 6;
  });
  assert.equal(r.kept, false);
  assert.deepEqual(r.rows, ['n0@0', 'n1@0*', 'n2@1*', 'n6@2<', 'n3@2', 'n4@1', 'n5@1']);
});

test('a label change replaces the row content only', () => {
  const r = patchOpenModel(branched(), (s) => s.labels.set('n4', 'checkpoint'));
  assert.equal(r.kept, true);
  const rows = rowsOf(r.model);
  assert.equal(rows.at(rows.indexOf('n4'))?.node.label, 'checkpoint');
});

test('a leaf move up the path keeps the rows when the order stays; to another branch it lays out again', () => {
  // Up from n3 to n1: n2 leaves the path but, being older than n4, still comes first.
  assert.equal(patchOpenModel(branched(), (s) => (s.leaf = 1)).kept, true);
  // n2 younger than n4: off the path it sorts after n4, so the order changes.
  const skewed = branched();
  skewed.timestamps[2] = 5_000;
  const up = patchOpenModel(skewed, (s) => (s.leaf = 1));
  assert.equal(up.kept, false);
  assert.deepEqual(up.rows, ['n0@0', 'n1@0*<', 'n4@1', 'n5@1', 'n2@1', 'n3@1']);
  // Across to the other branch: the active child changes at n1.
  const across = patchOpenModel(branched(), (s) => (s.leaf = 5));
  assert.equal(across.kept, false);
  assert.deepEqual(across.rows, ['n0@0', 'n1@0*', 'n4@1', 'n5@1<', 'n2@1', 'n3@1']);
});

test('a new root, an orphan and its adoption are laid out again and stay correct', () => {
  const rooted = patchOpenModel(branched(), (s) => {
    s.parents.push(null);
    s.timestamps.push(2_000);
  });
  assert.equal(rooted.kept, false);
  const orphaned = patchOpenModel(branched(), (s) => {
    s.parents.push('n7');
    s.timestamps.push(2_000);
  });
  assert.equal(orphaned.kept, false);
  assert.deepEqual(orphaned.rows, ['n0@1', 'n1@1*', 'n2@2', 'n3@2<', 'n4@2', 'n5@2', 'n6@1']);
});

test('a full tree holding an id twice is always laid out again (only the full layout knows which copy shows)', () => {
  const nodes = nodesOf(session([null, 'n0', 'n1'], 2));
  // The second n1 is the one patches replace (it holds the position), the first is the one laid out.
  const model = treeModelOf('n2', [...nodes, { ...nodes[1]!, preview: 'copy' }]);
  const rows = rowsOf(model);
  applyTreePatch(model, { added: [], changed: [{ ...nodes[1]!, label: 'renamed' }], leafId: 'n2' });
  assert.ok(model.rows !== rows, 'dropped');
  assert.deepEqual(rowsOf(model).toArray(), layoutTree(model.nodes));
});

test('the panel finds the model (and its kept rows) from the store\'s node array, patched in place', () => {
  const start = branched();
  const model = treeModelOf('n3', nodesOf(start));
  applyTreePatch(model, patchBetween(nodesOf(start), nodesOf({ ...start, leaf: 1 }), 1));
  assert.ok(modelOfNodes(model.nodes) === model);
  assert.equal(modelOfNodes([...model.nodes]), undefined, 'an array that is no model\'s nodes');
});

test('patches to a model nobody asked rows of do not lay it out', () => {
  const start = branched();
  const model = treeModelOf('n3', nodesOf(start));
  applyTreePatch(model, patchBetween(nodesOf(start), nodesOf({ ...start, leaf: 1 }), 1));
  assert.ok(model.rows === undefined);
});

test('a one-node append to a 35,000-node tree moves no other row', () => {
  const rand = random(3);
  const big: Session = { parents: [], timestamps: [], labels: new Map(), leaf: -1 };
  // A long conversation with older branches along the way, the leaf on the newest one.
  for (let i = 0; i < 35_000; i++) {
    const at = addNode(rand, big, i === 0 ? null : rand() < 0.02 ? `n${Math.floor(rand() * i)}` : `n${big.leaf}`);
    if (big.parents[at] === `n${big.leaf}` || i === 0) big.leaf = at;
  }
  const model = treeModelOf(`n${big.leaf}`, nodesOf(big));
  const rows = rowsOf(model);
  const before = rows.toArray();
  const leafRow = rows.indexOf(model.leafId);
  assert.ok(leafRow < before.length - 1, 'older branches follow the leaf row');
  const next: Session = { ...big, parents: [...big.parents, `n${big.leaf}`], timestamps: [...big.timestamps, 99_999], leaf: 35_000 };
  applyTreePatch(model, patchBetween(nodesOf(big), nodesOf(next), 35_000));
  assert.ok(model.rows === rows, 'kept, not laid out again');
  const after = rows.toArray();
  assert.equal(after.length, before.length + 1);
  assert.equal(after[leafRow + 1]!.node.id, 'n35000');
  for (let i = 0; i < before.length; i++) assert.equal(after[i < leafRow + 1 ? i : i + 1], before[i], `row ${i} is the same row object`);
  assert.deepEqual(shape(after), shape(layoutTree(nodesOf(next))));
});
