#!/usr/bin/env node
// Session store benchmark. Run: `node bench/session-open.mjs` (plain node; it re-runs itself with
// --expose-gc, and bundles src/session with esbuild into a temp folder so timings measure our code,
// not a TypeScript loader).
//
// Measures, in one run:
//  1. open + buildContext of a ≥35,000-entry, ≥40 MB tree session vs a floor (read the file and
//     JSON.parse every line): time (median of N) and retained heap. Target: time ratio ≤ 1.3.
//  2. per-turn cost (append one message, durably, + buildContext) at 500 vs 35,000 entries.
//     Target: ratio ≤ 1.5 (flat).
// Results: bench/results/session-open.{json,md}.
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { writeTreeSession } from './lib/session-fixture.mjs';
import { bundleAndRequire, bundlePath } from './lib/bundle-source.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

// Child mode: retained memory of one loader, measured in a fresh process so nothing else is on the heap.
if (process.argv[2] === '--memory') {
  const [, , , which, file, bundle] = process.argv;
  const { SessionStore, setPromptRoot } = createRequire(import.meta.url)(bundle);
  setPromptRoot(join(root, 'prompts'));
  const usage = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const before = usage();
  let kept;
  if (which === 'floor') {
    const text = readFileSync(file, 'utf8');
    kept = [];
    for (const line of text.split('\n')) if (line) kept.push(JSON.parse(line));
  } else {
    const store = await SessionStore.open(file);
    kept = [store, store.buildContext()];
  }
  const after = usage();
  process.stdout.write(JSON.stringify({ mb: (after - before) / 1e6, kept: kept.length }));
  process.exit(0);
}

const BIG = Number(process.env.BENCH_ENTRIES ?? 35_000);
const SMALL = 500;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TURNS = Number(process.env.BENCH_TURNS ?? 150);

const work = mkdtempSync(join(tmpdir(), 'arbor-bench-'));
try {
  const bundle = bundlePath(work, 'session'); // the memory children require the same bundle
  const { SessionStore, convertToLlm, setPromptRoot } = await bundleAndRequire(
    root,
    work,
    'session',
    "export { SessionStore } from './src/session/store'; export { convertToLlm } from './src/session/convert'; export { setPromptRoot } from './src/core/prompts';",
  );
  setPromptRoot(join(root, 'prompts'));

  const bigFile = join(work, 'big.jsonl');
  const big = await writeTreeSession(bigFile, BIG);
  const smallFile = join(work, 'small.jsonl');
  await writeTreeSession(smallFile, SMALL);
  const sizeMB = statSync(bigFile).size / 1e6;

  function floor(file) {
    const text = readFileSync(file, 'utf8');
    const out = [];
    for (const line of text.split('\n')) if (line) out.push(JSON.parse(line));
    return out;
  }
  async function ours(file) {
    const store = await SessionStore.open(file);
    const context = store.buildContext();
    return { store, context };
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  async function timeIt(fn) {
    gc();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const kept = await fn();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = process.cpuUsage(c0);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, kept };
  }
  function retained(which) {
    const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--memory', which, bigFile, bundle], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`memory child failed: ${r.stderr}`);
    return JSON.parse(r.stdout).mb;
  }

  await ours(bigFile); floor(bigFile); // warm up (JIT, page cache)
  const floorTimes = [];
  const oursTimes = [];
  const floorCpu = [];
  const oursCpu = [];
  for (let i = 0; i < RUNS; i++) {
    const f = await timeIt(async () => floor(bigFile));
    const o = await timeIt(() => ours(bigFile));
    floorTimes.push(f.ms);
    oursTimes.push(o.ms);
    floorCpu.push(f.cpuMs);
    oursCpu.push(o.cpuMs);
  }
  const floorMem = retained('floor');
  const oursMem = retained('ours');
  const { store: bigStore, context: bigContext } = await ours(bigFile);
  const llmMessages = convertToLlm(bigContext.messages).length;

  // Per turn: both stores open at once, turns alternate small/large so disk and GC noise hit both alike.
  // Fixture files are fsynced and warmed up first: we measure steady state, not the kernel flushing the
  // 40 MB we just generated.
  for (const file of [smallFile, bigFile]) {
    const fd = openSync(file, 'r+');
    fsyncSync(fd);
    closeSync(fd);
  }
  const stores = { small: await SessionStore.open(smallFile), large: await SessionStore.open(bigFile) };
  const samples = { small: { turn: [], context: [] }, large: { turn: [], context: [] } };
  for (let i = 0; i < TURNS + 10; i++) {
    for (const key of ['small', 'large']) {
      const store = stores[key];
      const t0 = process.hrtime.bigint();
      await store.appendMessage({ role: 'user', content: `bench turn ${i}`, timestamp: Date.now() });
      const t1 = process.hrtime.bigint();
      store.buildContext();
      const t2 = process.hrtime.bigint();
      if (i < 10) continue; // warm-up
      samples[key].turn.push(Number(t2 - t0) / 1e6);
      samples[key].context.push(Number(t2 - t1) / 1e6);
    }
  }
  const small = { turnMs: median(samples.small.turn), contextMs: median(samples.small.context), entries: stores.small.entryCount };
  const large = { turnMs: median(samples.large.turn), contextMs: median(samples.large.context), entries: stores.large.entryCount };

  const result = {
    date: new Date().toISOString(),
    node: process.version,
    file: { entries: big.entries, megabytes: +sizeMB.toFixed(1), pathLength: bigStore.getBranch().length, contextMessages: bigContext.messages.length, llmMessages },
    open: {
      floorMs: +median(floorTimes).toFixed(1),
      oursMs: +median(oursTimes).toFixed(1),
      timeRatio: +(median(oursTimes) / median(floorTimes)).toFixed(3),
      // CPU time of the process (all threads, GC included): steadier than wall time on a shared machine
      floorCpuMs: +median(floorCpu).toFixed(1),
      oursCpuMs: +median(oursCpu).toFixed(1),
      cpuRatio: +(median(oursCpu) / median(floorCpu)).toFixed(3),
      floorRetainedMB: +floorMem.toFixed(1),
      oursRetainedMB: +oursMem.toFixed(1),
      memoryRatio: +(oursMem / floorMem).toFixed(3),
      target: 1.3,
    },
    perTurn: {
      smallEntries: small.entries, smallTurnMs: +small.turnMs.toFixed(3), smallContextMs: +small.contextMs.toFixed(4),
      largeEntries: large.entries, largeTurnMs: +large.turnMs.toFixed(3), largeContextMs: +large.contextMs.toFixed(4),
      ratio: +(large.turnMs / small.turnMs).toFixed(3),
      contextOnlyRatio: +(large.contextMs / small.contextMs).toFixed(3),
      target: 1.5,
    },
  };
  result.pass = result.open.timeRatio <= 1.3 && result.perTurn.ratio <= 1.5;
  const md = [
    '# Session open benchmark',
    '',
    `${result.date}, Node ${result.node}. File: ${result.file.entries} entries, ${result.file.megabytes} MB, active path ${result.file.pathLength} entries, context ${result.file.contextMessages} messages.`,
    '',
    '| measure | floor (read + JSON.parse every line) | Arbor (open + buildContext) | ratio | target |',
    '|---|---|---|---|---|',
    `| time (median of ${RUNS}) | ${result.open.floorMs} ms | ${result.open.oursMs} ms | ${result.open.timeRatio} | ≤ 1.3 |`,
    `| CPU time, all threads (median of ${RUNS}) | ${result.open.floorCpuMs} ms | ${result.open.oursCpuMs} ms | ${result.open.cpuRatio} | (reported) |`,
    `| retained memory | ${result.open.floorRetainedMB} MB | ${result.open.oursRetainedMB} MB | ${result.open.memoryRatio} | (reported) |`,
    '',
    '| per turn (append + fsync + buildContext, median of ' + TURNS + ') | ' + `${result.perTurn.smallEntries} entries` + ' | ' + `${result.perTurn.largeEntries} entries` + ' | ratio | target |',
    '|---|---|---|---|---|',
    `| whole turn | ${result.perTurn.smallTurnMs} ms | ${result.perTurn.largeTurnMs} ms | ${result.perTurn.ratio} | ≤ 1.5 |`,
    `| buildContext only | ${result.perTurn.smallContextMs} ms | ${result.perTurn.largeContextMs} ms | ${result.perTurn.contextOnlyRatio} | (reported) |`,
    '',
    `Targets met: ${result.pass ? 'yes' : 'NO'}`,
    '',
  ].join('\n');
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'session-open.json'), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(join(root, 'bench', 'results', 'session-open.md'), md);
  console.log(md);
} finally {
  rmSync(work, { recursive: true, force: true });
}
