#!/usr/bin/env node
// Conversation tree panel: per-append cost benchmark. Run: `node bench/tree-patch.mjs` (plain node; it
// re-runs itself with --expose-gc, and bundles the webview's tree modules with esbuild into a temp folder
// so timings measure our code, not a TypeScript loader).
//
// One append = what the webview does for a `treePatch` carrying one new entry under the leaf while the
// tree panel is open: applyTreePatch (the model and its kept rows), then the panel's update (rowsOf, the
// leaf's row index, and reading the ~60 rows around it that render() turns into DOM; the DOM itself is
// not part of this bench). Trees are branched like real sessions: the leaf is on the newest branch, so
// the older branches' rows follow the leaf row and an append lands in the middle of the row list.
//
// Measured in one run (median over samples; each sample starts from a fresh copy of the tree, laid out
// untimed, makes its first appends untimed and times the next APPENDS):
//   per append, 35,000-node tree / 200-node tree        target ≤ 3 (flat: independent of session length)
//   per append kept rows / full layoutTree, 35,000 nodes  target ≤ 0.01 (what it replaced, per append)
//   the first append after a full layout / full layout   target ≤ 0.05. It is measured on its own because
//     it is the one O(n) append: the row and node arrays come exactly sized from the layout (and from
//     the `tree` message), so its push reallocates them. Later pushes are amortized O(1).
//   appends that needed a full layout                    target 0
// Results: bench/results/tree-patch.{json,md}.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAndRequire } from './lib/bundle-source.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const BIG = 35_000;
const SMALL = 200;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 41);
const APPENDS = 25;
/** appends made before the timer starts in each sample (the first one regrows the arrays) */
const UNTIMED = 3;
/** rows render() reads around the leaf (a 900 px panel holds ~40 rows of 22 px, plus a 10-row margin each side) */
const VISIBLE = 60;
const TARGET_FLAT = 3;
const TARGET_VS_FULL = 0.01;
const TARGET_FIRST_VS_FULL = 0.05;

const work = mkdtempSync(join(tmpdir(), 'arbor-bench-tree-'));
let tree;
try {
  tree = await bundleAndRequire(root, work, 'tree', "export { applyTreePatch, rowsOf, treeModelOf } from './webview/tree-patch'; export { layoutTree } from './webview/tree-layout';");
} finally {
  rmSync(work, { recursive: true, force: true });
}
const { applyTreePatch, rowsOf, treeModelOf, layoutTree } = tree;

const kinds = ['user', 'assistant', 'toolResult', 'assistant'];

/**
 * A session tree as the host sends it (file order, flags from the leaf): a long conversation that every
 * ~150 entries goes back 20–100 entries and continues on a new branch (an edited message), as in
 * bench/lib/session-fixture.mjs. Deterministic.
 */
function sessionTree(size) {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const parents = [];
  const path = [];
  for (let i = 0; i < size; i++) {
    if (i > 0 && i % 150 === 0 && path.length > 120) path.length -= 20 + Math.floor(rand() * 80);
    parents.push(path.length > 0 ? path[path.length - 1] : null);
    path.push(`e${i}`);
  }
  const leafId = path[path.length - 1];
  const onPath = new Set(path);
  const childCount = new Map();
  for (const p of parents) if (p !== null) childCount.set(p, (childCount.get(p) ?? 0) + 1);
  const nodes = parents.map((parentId, i) => ({
    id: `e${i}`,
    parentId,
    kind: kinds[i % kinds.length],
    preview: `entry ${i}: ${'text '.repeat(8)}`,
    ...(i % 500 === 0 ? { label: `checkpoint ${i}` } : {}),
    onActivePath: onPath.has(`e${i}`),
    isLeaf: `e${i}` === leafId,
    childCount: childCount.get(`e${i}`) ?? 0,
    timestamp: 1_750_000_000_000 + i * 1000,
  }));
  return { nodes, leafId };
}

/** The patches the host sends for `count` entries appended one by one under the leaf. */
function appendPatches({ nodes, leafId }, count) {
  const patches = [];
  let leaf = nodes.find((n) => n.id === leafId);
  for (let k = 0; k < count; k++) {
    const i = nodes.length + k;
    const node = { id: `e${i}`, parentId: leaf.id, kind: kinds[i % kinds.length], preview: `entry ${i}`, onActivePath: true, isLeaf: true, childCount: 0, timestamp: 1_750_000_000_000 + i * 1000 };
    patches.push({ added: [node], changed: [{ ...leaf, isLeaf: false, childCount: leaf.childCount + 1 }], leafId: node.id });
    leaf = node;
  }
  return patches;
}

/** The panel's update after a patch, without the DOM: rows, the leaf's row, the rows render() reads. */
function panelUpdate(model) {
  const rows = rowsOf(model);
  const leaf = rows.indexOf(model.leafId);
  let depth = 0;
  for (let i = Math.max(0, leaf - VISIBLE / 2), end = Math.min(rows.size, leaf + VISIBLE / 2); i < end; i++) depth += rows.at(i).depth;
  return depth + rows.size + model.branchPoints;
}

/** What every append cost before: a full layout of the whole tree, the leaf's row, the branch count. */
function fullLayoutUpdate(model) {
  const rows = layoutTree(model.nodes);
  const leaf = rows.findIndex((r) => r.node.isLeaf);
  return leaf + rows.length + model.nodes.filter((n) => n.childCount > 1).length;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const trees = { small: sessionTree(SMALL), big: sessionTree(BIG) };
const patches = { small: appendPatches(trees.small, UNTIMED + APPENDS), big: appendPatches(trees.big, UNTIMED + APPENDS) };
/** results of the measured work, kept so that none of it is optimised away */
let sink = 0;
let fellBack = 0;

/**
 * One sample: a fresh, laid-out copy of the tree and `untimed` appends, then `appends` appends timed.
 * Returns ms per timed append.
 */
function sample(which, update, untimed, appends) {
  const { nodes, leafId } = trees[which];
  const model = treeModelOf(leafId, nodes.slice());
  const laidOut = update === panelUpdate ? rowsOf(model) : undefined;
  const append = (k) => {
    applyTreePatch(model, patches[which][k]);
    sink += update(model);
  };
  for (let k = 0; k < untimed; k++) append(k);
  globalThis.gc();
  const t0 = performance.now();
  for (let k = untimed; k < untimed + appends; k++) append(k);
  const ms = (performance.now() - t0) / appends;
  if (laidOut && model.rows !== laidOut) fellBack++;
  return { ms, model };
}

// Warm up both paths (JIT), then interleave the sizes so drift hits both alike.
for (let i = 0; i < 5; i++) for (const which of ['small', 'big']) sample(which, panelUpdate, UNTIMED, APPENDS);
fellBack = 0;
const times = { small: [], big: [] };
const firstTimes = { small: [], big: [] };
let check;
for (let i = 0; i < SAMPLES; i++) {
  for (const which of ['small', 'big']) {
    const { ms, model } = sample(which, panelUpdate, UNTIMED, APPENDS);
    times[which].push(ms);
    check = model;
    if (i % 3 === 0) firstTimes[which].push(sample(which, panelUpdate, 0, 1).ms);
  }
}
// The kept rows are the full layout (the unit tests prove it on random patches; this checks the bench's trees).
const same = JSON.stringify(rowsOf(check).toArray()) === JSON.stringify(layoutTree(check.nodes));
const leafRow = rowsOf(check).indexOf(check.leafId);
const fullTimes = { small: [], big: [] };
for (let i = 0; i < 7; i++) for (const which of ['small', 'big']) fullTimes[which].push(sample(which, fullLayoutUpdate, 0, 3).ms);

const perAppend = { small: median(times.small), big: median(times.big) };
const firstAppend = { small: median(firstTimes.small), big: median(firstTimes.big) };
const full = { small: median(fullTimes.small), big: median(fullTimes.big) };
const flat = perAppend.big / perAppend.small;
const vsFull = perAppend.big / full.big;
const us = (ms) => +(ms * 1000).toFixed(2);
const metrics = [
  { name: `per append, ${BIG.toLocaleString('en')} / ${SMALL} nodes (kept rows)`, value: +flat.toFixed(2), target: TARGET_FLAT, unit: 'x' },
  { name: `per append at ${BIG.toLocaleString('en')} nodes, kept rows / full layoutTree`, value: +vsFull.toFixed(5), target: TARGET_VS_FULL, unit: 'x' },
  { name: `first append after a full layout at ${BIG.toLocaleString('en')} nodes (arrays regrow once) / full layoutTree`, value: +(firstAppend.big / full.big).toFixed(4), target: TARGET_FIRST_VS_FULL, unit: 'x' },
  { name: 'appends that needed a full layout', value: fellBack, target: 0, unit: '' },
  { name: 'kept rows differ from layoutTree (0 = equal)', value: same ? 0 : 1, target: 0, unit: '' },
].map((m) => ({ ...m, pass: Number.isFinite(m.value) && m.value <= m.target }));

const result = {
  date: new Date().toISOString(),
  node: process.version,
  samples: SAMPLES,
  appendsPerSample: APPENDS,
  trees: {
    small: { nodes: SMALL, rows: SMALL },
    big: { nodes: BIG, rowsAfterLeaf: rowsOf(check).size - leafRow - 1, leafRow },
  },
  untimedAppendsPerSample: UNTIMED,
  perAppendUs: { small: us(perAppend.small), big: us(perAppend.big) },
  firstAppendAfterLayoutUs: { small: us(firstAppend.small), big: us(firstAppend.big) },
  fullLayoutPerAppendUs: { small: us(full.small), big: us(full.big) },
  metrics,
  pass: metrics.every((m) => m.pass),
  checksum: sink,
};
const fmt = (v, unit) => `${v}${unit ? ` ${unit}` : ''}`;
const md = [
  '# Tree panel: per-append cost',
  '',
  `${result.date}, node ${process.version}. Median of ${SAMPLES} samples of ${APPENDS} appends each; each sample starts from a fresh, laid-out copy of the tree and makes ${UNTIMED} appends before the timer starts (the first append after a layout is measured on its own).`,
  `One append: applyTreePatch with one new entry under the leaf + the panel's update (rows, leaf row, the ${VISIBLE} rows render() reads; no DOM).`,
  `The ${BIG.toLocaleString('en')}-node tree is branched like a real session: the leaf row is row ${leafRow}, ${result.trees.big.rowsAfterLeaf} rows of older branches follow it.`,
  '',
  `| per append | ${SMALL} nodes | ${BIG.toLocaleString('en')} nodes |`,
  '|---|---|---|',
  `| kept rows (tree-rows.ts) | ${result.perAppendUs.small} µs | ${result.perAppendUs.big} µs |`,
  `| kept rows, first append after a full layout (arrays regrow once) | ${result.firstAppendAfterLayoutUs.small} µs | ${result.firstAppendAfterLayoutUs.big} µs |`,
  `| full layoutTree (before) | ${result.fullLayoutPerAppendUs.small} µs | ${result.fullLayoutPerAppendUs.big} µs |`,
  '',
  '| metric | value | target | pass |',
  '|---|---|---|---|',
  ...metrics.map((m) => `| ${m.name} | ${fmt(m.value, m.unit)} | ≤ ${m.target} | ${m.pass ? 'yes' : 'NO'} |`),
  '',
  `Targets met: ${result.pass ? 'yes' : 'no'}`,
].join('\n') + '\n';
mkdirSync((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), { recursive: true });
writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'tree-patch.json'), JSON.stringify(result, null, 2) + '\n');
writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'tree-patch.md'), md);
console.log(md);
process.exit(result.pass ? 0 : 1);
