#!/usr/bin/env node
// Conversation tree graph benchmark. Run: `node bench/tree-graph.mjs` (plain node; it re-runs itself with
// --expose-gc, builds the bundle, and loads the Conversation Tree page in headless /usr/bin/chromium
// through the stub host of bench/lib/webview-stub.mjs). Sessions come from bench/lib/graph-fixture.mjs:
// branched conversations of N turns (a graph node per turn; ~2.6 entries each, with compactions and
// branch summaries). Measured in one run, as ratios of the big session to the small one:
//   lane layout, per append (applyTreePatch keeping graph/graph-layout.ts), 5,000 / 200 turns   ≤ 3
//   the same append / a full GraphLayout of the 5,000-turn session                            ≤ 0.01
//   first paint of the tab (posting state + tree until two frames after), 5,000 / 50 turns     reported,
//     with the part the graph adds (render + layout) apart from receiving and validating the tree
//   frame cost while panning 40 px a frame (the graph's render, median), 5,000 / 50 turns      ≤ 3
//   graph elements in the DOM while panning, 5,000 / 50 turns (only rows in view are drawn)    ≤ 3
// Results: bench/results/tree-graph.{json,md}.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { bundleAndRequire } from './lib/bundle-source.mjs';
import { graphSession } from './lib/graph-fixture.mjs';
import { startStubServer } from './lib/webview-stub.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const BIG = 5000;
const SMALL_LAYOUT = 200;
const SMALL_PAINT = 50;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 31);
const APPENDS = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PAN_FRAMES = 100;
const PAN_STEP = 40;
const PAN_ROUNDS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- lane layout per append (node) ------------------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'arbor-bench-graph-'));
let mod;
try {
  mod = await bundleAndRequire(root, work, 'graph', "export { applyTreePatch, graphOf, treeModelOf } from './webview/tree-patch'; export { GraphLayout } from './webview/graph/graph-layout';");
} finally {
  rmSync(work, { recursive: true, force: true });
}
const { applyTreePatch, graphOf, treeModelOf, GraphLayout } = mod;

/** The patches the host sends for a turn at a time appended under the leaf (a user message, then its reply). */
function appendPatches({ nodes, leafId }, count) {
  const patches = [];
  let leaf = nodes.find((n) => n.id === leafId);
  for (let k = 0; k < count; k++) {
    const i = nodes.length + k;
    const node = { id: `x${i}`, parentId: leaf.id, kind: k % 2 === 0 ? 'user' : 'assistant', preview: `appended ${i}`, onActivePath: true, isLeaf: true, childCount: 0, timestamp: 2e12 + i };
    patches.push({ added: [node], changed: [{ ...leaf, isLeaf: false, childCount: leaf.childCount + 1 }], leafId: node.id });
    leaf = node;
  }
  return patches;
}

const sessions = { small: graphSession(SMALL_LAYOUT), big: graphSession(BIG) };
const patches = { small: appendPatches(sessions.small, APPENDS + 2), big: appendPatches(sessions.big, APPENDS + 2) };
let sink = 0;
let fellBack = 0;

function layoutSample(which) {
  const model = treeModelOf(sessions[which].leafId, sessions[which].nodes.slice());
  const laidOut = graphOf(model);
  // two untimed appends: the first regrows the arrays that came exactly sized from the full layout
  for (let k = 0; k < 2; k++) applyTreePatch(model, patches[which][k]);
  globalThis.gc();
  const t0 = performance.now();
  for (let k = 2; k < APPENDS + 2; k++) {
    applyTreePatch(model, patches[which][k]);
    sink += graphOf(model).rowOf(model.leafId);
  }
  const ms = (performance.now() - t0) / APPENDS;
  if (model.graph !== laidOut) fellBack++;
  return ms;
}

for (let i = 0; i < 5; i++) for (const which of ['small', 'big']) layoutSample(which);
fellBack = 0;
const appendTimes = { small: [], big: [] };
for (let i = 0; i < SAMPLES; i++) for (const which of ['small', 'big']) appendTimes[which].push(layoutSample(which));
const fullTimes = [];
for (let i = 0; i < 9; i++) {
  const t0 = performance.now();
  sink += new GraphLayout(sessions.big.nodes).turns.length;
  fullTimes.push(performance.now() - t0);
}
const turnsBig = new GraphLayout(sessions.big.nodes).turns.length;

// ---- first paint and panning (Chromium) ------------------------------------------------------------
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function script(turns) {
  const { nodes, leafId } = graphSession(turns);
  const state = { extensionVersion: '0.1.0', workspaceFolders: ['demo'], workspaceTrusted: true, modelLabel: 'Fake', sessionName: 'Bench', models: [], currentModelKey: 'local/fake', thinkingLevel: 'off', busy: false, queued: [], settings: { branchSummaryEnabled: true } };
  return { messages: [{ type: 'state', state }, { type: 'tree', leafId, nodes }], entries: nodes.length };
}

const server = await startStubServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--disable-gpu'] });
const paint = {};
const pan = {};
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // First paint, both sizes in turn (the first load of each warms the cache and the compiler).
  const scripts = { small: script(SMALL_PAINT), big: script(BIG) };
  const times = { small: [], big: [] };
  const renders = { small: [], big: [] };
  for (let i = 0; i < RUNS + 1; i++) {
    for (const which of ['small', 'big']) {
      server.setScript(scripts[which].messages);
      await page.goto(`${server.url}/tree.html`);
      await page.waitForFunction(() => window.__arborStub?.painted !== undefined, null, { timeout: 60_000 });
      const t = await page.evaluate(() => ({ painted: window.__arborStub.painted, render: performance.getEntriesByName('arbor:graph:render').reduce((sum, e) => sum + e.duration, 0) }));
      if (i > 0) {
        times[which].push(t.painted);
        renders[which].push(t.render);
      }
    }
  }
  for (const [which, turns] of [['small', SMALL_PAINT], ['big', BIG]]) {
    paint[which] = { turns, entries: scripts[which].entries, ms: median(times[which]), graphRenderMs: median(renders[which]) };
  }
  // Panning at a trackpad's pace (PAN_STEP px a frame) from the middle of the graph, both sizes in turn for
  // PAN_ROUNDS rounds so that load on the machine hits both alike; the graph renders once per frame.
  const frames = { small: [], big: [] };
  const dom = { small: 0, big: 0 };
  for (let round = 0; round < PAN_ROUNDS; round++) {
    for (const [which, turns] of [['small', SMALL_PAINT], ['big', BIG]]) {
      server.setScript(script(turns).messages);
      await page.goto(`${server.url}/tree.html`);
      await page.waitForSelector('.graph-node');
      const r = await page.evaluate(async ({ count, step }) => {
        const scroller = document.querySelector('.graph-scroll');
        const range = Math.max(1, scroller.scrollHeight - scroller.clientHeight);
        scroller.scrollTop = range / 2;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        performance.clearMeasures('arbor:graph:render');
        let maxDom = 0;
        for (let f = 0; f < count; f++) {
          scroller.scrollTop = (range / 2 + f * step) % range;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          maxDom = Math.max(maxDom, document.querySelector('.graph-view').getElementsByTagName('*').length);
        }
        return { durations: performance.getEntriesByName('arbor:graph:render').map((e) => e.duration), maxDom };
      }, { count: PAN_FRAMES, step: PAN_STEP });
      frames[which].push(...r.durations);
      dom[which] = Math.max(dom[which], r.maxDom);
    }
  }
  const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];
  for (const which of ['small', 'big']) pan[which] = { frames: frames[which].length, medianMs: quantile(frames[which], 0.5), p95Ms: quantile(frames[which], 0.95), maxDomElements: dom[which] };
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  await server.close();
}

const perAppend = { small: median(appendTimes.small), big: median(appendTimes.big) };
const full = median(fullTimes);
const metrics = [
  { name: `lane layout per append, ${BIG.toLocaleString('en')} / ${SMALL_LAYOUT} turns`, value: +(perAppend.big / perAppend.small).toFixed(2), target: 3, unit: 'x' },
  { name: `lane layout per append / full layout, ${BIG.toLocaleString('en')} turns`, value: +(perAppend.big / full).toFixed(5), target: 0.01, unit: 'x' },
  { name: 'appends that needed a full layout', value: fellBack, target: 0, unit: '' },
  { name: `graph render at first paint, ${BIG.toLocaleString('en')} / ${SMALL_PAINT} turns`, value: +(paint.big.graphRenderMs / paint.small.graphRenderMs).toFixed(2), target: 3, unit: 'x' },
  { name: `frame cost while panning (median), ${BIG.toLocaleString('en')} / ${SMALL_PAINT} turns`, value: +(pan.big.medianMs / pan.small.medianMs).toFixed(2), target: 3, unit: 'x' },
  { name: `graph DOM elements while panning, ${BIG.toLocaleString('en')} / ${SMALL_PAINT} turns`, value: +(pan.big.maxDomElements / pan.small.maxDomElements).toFixed(2), target: 3, unit: 'x' },
  { name: `first paint of the tab (tree received, validated, laid out, drawn), ${BIG.toLocaleString('en')} / ${SMALL_PAINT} turns`, value: +(paint.big.ms / paint.small.ms).toFixed(2), target: Infinity, unit: 'x' },
].map((m) => ({ ...m, pass: Number.isFinite(m.value) && m.value <= m.target }));

const us = (ms) => +(ms * 1000).toFixed(2);
const result = {
  date: new Date().toISOString(),
  node: process.version,
  sessions: { big: { turns: turnsBig, entries: sessions.big.nodes.length }, smallLayout: { turns: SMALL_LAYOUT, entries: sessions.small.nodes.length } },
  perAppendUs: { small: us(perAppend.small), big: us(perAppend.big) },
  fullLayoutMs: +full.toFixed(2),
  paint,
  pan,
  metrics,
  pass: metrics.every((m) => m.pass),
  checksum: sink,
};
const fmt = (m) => `| ${m.name} | ${m.value} ${m.unit} | ${Number.isFinite(m.target) ? `≤ ${m.target}` : 'reported'} | ${m.pass ? 'yes' : Number.isFinite(m.target) ? 'NO' : '—'} |`;
const md = [
  '# Conversation tree graph: layout, first paint, panning',
  '',
  `${result.date}, node ${result.node}, headless Chromium (900×800). Sessions from bench/lib/graph-fixture.mjs: ${turnsBig.toLocaleString('en')} turns = ${sessions.big.nodes.length.toLocaleString('en')} entries; ${SMALL_PAINT} and ${SMALL_LAYOUT} turns for the small ones.`,
  '',
  '| | small | 5,000 turns |',
  '|---|---|---|',
  `| lane layout per append (kept) | ${us(perAppend.small)} µs | ${us(perAppend.big)} µs |`,
  `| full lane layout | | ${full.toFixed(2)} ms |`,
  `| first paint of the tab | ${paint.small.ms.toFixed(1)} ms | ${paint.big.ms.toFixed(1)} ms |`,
  `| graph render during first paint | ${paint.small.graphRenderMs.toFixed(2)} ms | ${paint.big.graphRenderMs.toFixed(2)} ms |`,
  `| render per frame while panning (median / p95) | ${pan.small.medianMs.toFixed(2)} / ${pan.small.p95Ms.toFixed(2)} ms | ${pan.big.medianMs.toFixed(2)} / ${pan.big.p95Ms.toFixed(2)} ms |`,
  `| graph DOM elements (max while panning) | ${pan.small.maxDomElements} | ${pan.big.maxDomElements} |`,
  '',
  '| metric | value | target | pass |',
  '|---|---|---|---|',
  ...metrics.map(fmt),
  '',
  'The first paint grows with the session because the whole tree is received and validated (zod) once; the graph itself draws only the rows in view.',
  '',
  `Targets met: ${result.pass ? 'yes' : 'NO'}`,
  '',
].join('\n');
mkdirSync((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), { recursive: true });
writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'tree-graph.json'), JSON.stringify(result, null, 2) + '\n');
writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'tree-graph.md'), md);
console.log(md);
process.exit(result.pass ? 0 : 1);
