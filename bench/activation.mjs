#!/usr/bin/env node
// Activation cost and memory of the activated extension. Run: `node bench/activation.mjs` (plain node; it
// re-runs itself with --expose-gc). Real activation inside VS Code is hard to time from outside, so this
// measures the same code outside it: the release bundle (src/extension.ts built with the settings of
// `scripts/build.mjs --production`, into a temp folder so dist/ is untouched) is required and its activate() called with a
// working stand-in for `vscode` (bench/common/activation-vscode.cjs: configuration defaults from
// package.json, in-memory secrets/state, real folders for storage).
//
// Measures, in one run, each in fresh processes (median of N):
//  1. cold require + activate() vs requiring an empty module: time ratio.
//  2. heap the activated extension retains vs an empty process (MB), as a figure.
//  3. the 40 MB, 35,000-entry tree session (bench/lib/session-fixture.mjs, as in session-open.mjs) opened
//     through the activated extension's app: api.app.session.openSession + the snapshot the chat view posts right
//     after (postConversation: the conversation's tail, CONVERSATION_PAGE = 200 views, no tree): retained
//     heap vs a floor that keeps every line JSON.parse-d (what any loader must at least parse), and vs the
//     file's size; open time vs the floor's read + parse time. Reported beside it, not in the open time:
//     the full tree the chat view posts 100 ms later (coalesced; O(entries)), and the whole-path
//     conversation the chat view posted before it was windowed.
// Results: bench/results/activation.{json,md}.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { copyProductionBuild } from './lib/production-build.mjs';
import { isQuick, resultsDir } from './lib/results.mjs';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..');
const stub = join(root, 'bench', 'common', 'activation-vscode.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? (isQuick() ? 1 : 7));
const MEMORY_RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? (isQuick() ? 1 : 3));
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? (isQuick() ? 3_000 : 35_000));
/** CONVERSATION_PAGE in src/protocol/messages.ts: the conversation tail the chat view asks for */
const WINDOW = 200;

if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', self, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const retained = () => {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

// ---- child modes: one measurement per fresh process, printed as JSON ----
if (process.argv[2] === '--child') {
  const [, , , mode, arg1, arg2, arg3, extension] = process.argv;
  const require = createRequire(import.meta.url);
  const out = {};
  const base = retained();
  if (mode === 'empty') {
    const t = process.hrtime.bigint();
    require(arg1);
    out.ms = Number(process.hrtime.bigint() - t) / 1e6;
  } else if (mode === 'floor') {
    const t = process.hrtime.bigint();
    const kept = [];
    for (const line of readFileSync(arg1, 'utf8').split('\n')) if (line) kept.push(JSON.parse(line));
    out.ms = Number(process.hrtime.bigint() - t) / 1e6;
    out.retainedMB = (retained() - base) / 1e6;
    out.kept = kept.length;
  } else {
    // activate, and in mode "open" also open the big session through the app
    const vscode = require('vscode');
    const t0 = process.hrtime.bigint();
    const ext = require(extension);
    const t1 = process.hrtime.bigint();
    const api = ext.activate(vscode.__createContext(arg2));
    const t2 = process.hrtime.bigint();
    out.requireMs = Number(t1 - t0) / 1e6;
    out.activateMs = Number(t2 - t1) / 1e6;
    out.ms = Number(t2 - t0) / 1e6;
    out.subscriptions = api && typeof api.app === 'object' ? 'ok' : 'no api';
    await settle(); // let the async settings/model resolution started by activate() finish
    const activated = retained();
    out.activatedMB = (activated - base) / 1e6;
    if (mode === 'open') {
      const t3 = process.hrtime.bigint();
      const view = await api.app.session.openSession(arg1);
      out.attachMs = Number(process.hrtime.bigint() - t3) / 1e6;
      // what the chat view posts right after opening: the conversation's tail (ChatViewProvider.postConversation)
      let snapshot = api.app.snapshot({ tree: false, conversation: { last: Number(arg3) } });
      out.openMs = Number(process.hrtime.bigint() - t3) / 1e6;
      out.conversation = snapshot.conversation.length;
      out.hasEarlier = snapshot.conversationHasEarlier;
      out.persisted = view.persisted;
      // The snapshot is serialized into messages and dropped by the views; what the extension keeps while
      // the session is open is the app (store, indexes, caches). Measure that.
      snapshot = undefined;
      await settle();
      out.retainedMB = (retained() - activated) / 1e6;
      out.appAlive = typeof api.app.snapshot === 'function';
      // after that, not in the open time: the full tree the chat view posts 100 ms later (postTree)
      const treeStart = process.hrtime.bigint();
      out.treeNodes = api.app.snapshot({ conversation: false }).tree.length;
      out.treeMs = Number(process.hrtime.bigint() - treeStart) / 1e6;
      // for comparison: the whole path's conversation, as the chat view built it before the window
      const t4 = process.hrtime.bigint();
      out.pathConversation = api.app.snapshot({ tree: false }).conversation.length;
      out.fullConversationMs = Number(process.hrtime.bigint() - t4) / 1e6;
    }
  }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}

let releaseBundle;
function child(args) {
  // activate / open: [mode, sessionFile or '-', storageDir, conversation window] + the bundle to load
  if (args[0] === 'activate' || args[0] === 'open') args = [...args, String(WINDOW), releaseBundle];
  const r = spawnSync(process.execPath, ['--expose-gc', '-r', stub, self, '--child', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`bench child ${args[0]} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const round = (v, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

const work = mkdtempSync(join(tmpdir(), 'arbor-bench-activation-'));
try {
  // The file that ships: dist/extension.js of `node scripts/build.mjs --production` (with dist/vendor/, which
  // it loads on demand), copied into the work folder; the development build is put back afterwards.
  releaseBundle = copyProductionBuild(work);
  const bundleKB = Math.round(statSync(releaseBundle).size / 1024);
  const empty = join(work, 'empty.js');
  writeFileSync(empty, 'module.exports = {};\n');

  // 1 + 2: activation, interleaved with the empty-module control so machine load affects both alike
  const emptyRuns = [];
  const activationRuns = [];
  for (let i = 0; i < RUNS; i++) {
    emptyRuns.push(child(['empty', empty]).ms);
    const storage = join(work, `storage-a${i}`);
    mkdirSync(storage, { recursive: true });
    activationRuns.push(child(['activate', '-', storage]));
  }
  if (activationRuns.some((r) => r.subscriptions !== 'ok')) throw new Error('activate() did not return the API');
  const emptyMs = median(emptyRuns);
  const activationMs = median(activationRuns.map((r) => r.ms));
  const requireMs = median(activationRuns.map((r) => r.requireMs));
  const activateMs = median(activationRuns.map((r) => r.activateMs));
  const activatedMB = median(activationRuns.map((r) => r.activatedMB));

  // 3: the 40 MB session
  const { writeTreeSession } = await import('./lib/session-fixture.mjs');
  const file = join(work, 'big.jsonl');
  await writeTreeSession(file, ENTRIES);
  const megabytes = statSync(file).size / 1e6;
  const floors = [];
  const opens = [];
  for (let i = 0; i < MEMORY_RUNS; i++) {
    floors.push(child(['floor', file]));
    const storage = join(work, `storage-o${i}`);
    mkdirSync(storage, { recursive: true });
    opens.push(child(['open', file, storage]));
  }
  const floorMB = median(floors.map((r) => r.retainedMB));
  const floorMs = median(floors.map((r) => r.ms));
  const openMB = median(opens.map((r) => r.retainedMB));
  const openMs = median(opens.map((r) => r.openMs));
  const attachMs = median(opens.map((r) => r.attachMs));
  const fullConversationMs = median(opens.map((r) => r.fullConversationMs));
  const treeMs = median(opens.map((r) => r.treeMs));
  if (opens.some((r) => r.conversation !== WINDOW || r.hasEarlier !== true)) throw new Error(`the snapshot was not the ${WINDOW}-view tail of a longer path`);

  const metrics = [
    // An empty module's require is ~0.2 ms of module-system overhead; 1000× that is ~200 ms, the same budget as below.
    { name: 'cold require + activate() vs empty-module require (ms ratio)', value: round(activationMs / emptyMs, 1), target: 1000, unit: 'x' },
    { name: 'cold require + activate() (ms)', value: round(activationMs, 1), target: 200, unit: 'ms' },
    { name: 'activate() call alone (ms)', value: round(activateMs, 1), target: 50, unit: 'ms' },
    { name: 'heap retained by the activated extension (MB)', value: round(activatedMB, 1), target: 40, unit: 'MB' },
    { name: `40 MB session opened through the app: retained heap vs JSON.parse floor`, value: round(openMB / floorMB), target: 1.3, unit: 'x' },
    { name: '40 MB session opened through the app: retained heap vs file size', value: round(openMB / megabytes), target: 2, unit: 'x' },
    { name: '40 MB session opened through the app: open time vs read + parse floor', value: round(openMs / floorMs), target: 1.5, unit: 'x' },
  ].map((m) => ({ ...m, pass: Number.isFinite(m.value) && m.value <= m.target }));
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    runs: RUNS,
    memoryRuns: MEMORY_RUNS,
    activation: { bundleKB, emptyMs: round(emptyMs), requireMs: round(requireMs, 1), activateMs: round(activateMs, 1), totalMs: round(activationMs, 1), activatedMB: round(activatedMB, 1), runsMs: activationRuns.map((r) => round(r.ms, 1)) },
    session: { entries: ENTRIES, megabytes: round(megabytes, 1), conversationEntries: opens[0].conversation, conversationWindow: WINDOW, pathConversationEntries: opens[0].pathConversation, treeNodes: opens[0].treeNodes, treeMs: round(treeMs, 1), fullConversationMs: round(fullConversationMs, 1), floorMs: round(floorMs, 1), floorRetainedMB: round(floorMB, 1), openMs: round(openMs, 1), attachMs: round(attachMs, 1), snapshotMs: round(openMs - attachMs, 1), openRetainedMB: round(openMB, 1) },
    metrics,
    pass: metrics.every((m) => m.pass),
  };
  const results = resultsDir();
  writeFileSync(join(results, 'activation.json'), JSON.stringify(result, null, 2) + '\n');
  const md = [
    '# Activation and memory',
    '',
    `${result.date}, node ${process.version}; median of ${RUNS} fresh processes (activation) and ${MEMORY_RUNS} (session).`,
    `The shipped dist/extension.js (${bundleKB} KB, \`node scripts/build.mjs --production\`) required and activate() called with the stand-in \`vscode\` (bench/common/activation-vscode.cjs).`,
    '',
    '| metric | value | target | pass |',
    '|---|---|---|---|',
    ...metrics.map((m) => `| ${m.name} | ${m.value} ${m.unit} | ≤ ${m.target} | ${m.pass ? 'yes' : 'NO'} |`),
    '',
    `Activation: require ${result.activation.requireMs} ms + activate() ${result.activation.activateMs} ms = ${result.activation.totalMs} ms; empty module ${result.activation.emptyMs} ms; ${result.activation.activatedMB} MB retained.`,
    `Session: ${ENTRIES} entries, ${result.session.megabytes} MB; floor (read + JSON.parse every line, all kept) ${result.session.floorMs} ms, ${result.session.floorRetainedMB} MB; through the app ${result.session.openMs} ms (openSession ${result.session.attachMs} ms + snapshot ${result.session.snapshotMs} ms: the conversation's newest ${result.session.conversationEntries} views, what the chat view posts), ${result.session.openRetainedMB} MB.`,
    `Not in the open time: the full tree the chat view posts 100 ms later (${result.session.treeNodes} nodes) ${result.session.treeMs} ms (with it: ${round((result.session.openMs + result.session.treeMs) / result.session.floorMs)}x the floor); the whole active path's conversation (${result.session.pathConversationEntries} views, what the chat view posted before it was windowed) ${result.session.fullConversationMs} ms.`,
    '',
  ].join('\n');
  writeFileSync(join(results, 'activation.md'), md);
  console.log(md);
  process.exitCode = result.pass ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
