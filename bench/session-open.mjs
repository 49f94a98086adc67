#!/usr/bin/env node
// Session open benchmark. Run: `node bench/session-open.mjs` (quick: `node bench/run-all.mjs --quick session`).
//
// Measures, in one run:
//  1. Opening a ≥35,000-entry, ≥40 MB tree session and building its leaf context, each side in fresh
//     processes, alternated: Arbor (src/session bundled as the production build bundles it), pi 1.6.0 from
//     npm (SessionManager.open + buildSessionContext, fetched by bench/lib/pi16.mjs) and a floor (read the
//     file, JSON.parse every line, keep the entries; the text is dropped as a loader would). Per side: wall
//     time and CPU time of open + context (median), and peak RSS growth during it (peak RSS minus RSS just
//     before; each side's own module code is loaded before, so pi's larger bundle does not count against it).
//     Targets (docs/architecture.md "Opening a session"): time and peak memory ≤ 0.7x pi 1.6.0's.
//  2. Per-turn cost (append one message, durably, + buildContext) at 500 vs 35,000 entries: target ≤ 1.5.
// Every side runs under the same Node (one able to run pi). Results: bench/results/session-open.{json,md}.
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { writeTreeSession } from './lib/session-fixture.mjs';
import { findPi16 } from './lib/pi16.mjs';
import { isQuick, writeResults } from './lib/results.mjs';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..');

/** One side, one fresh process: modules loaded first, then open + leaf context measured. */
async function child([which, file, lib]) {
  let run;
  if (which === 'pi') {
    const pi = await import(pathToFileURL(lib).href);
    run = () => pi.SessionManager.open(file).buildSessionContext().messages.length;
  } else if (which === 'arbor') {
    const { SessionStore } = createRequire(import.meta.url)(lib);
    run = async () => (await SessionStore.open(file)).buildContext().messages.length;
  } else {
    run = () => floor(file).length;
  }
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const messages = await run();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, growthMB: (peak - rssBefore) / 1e6, peakMB: peak / 1e6, messages }));
}

/** The floor: read the file, parse every line, keep the entries (the text goes once parsed). */
function floor(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const line of text.split('\n')) if (line) out.push(JSON.parse(line));
  return out;
}

async function main() {
  const quick = isQuick();
  const BIG = Number(process.env.BENCH_ENTRIES ?? (quick ? 3_000 : 35_000));
  const SMALL = 500;
  const RUNS = Number(process.env.BENCH_RUNS ?? (quick ? 1 : 7));
  const TURNS = Number(process.env.BENCH_TURNS ?? (quick ? 10 : 150));
  const work = mkdtempSync(join(tmpdir(), 'arbor-bench-'));
  try {
    const lib = await bundleSession(work);
    const pi = findPi16(root, { fetch: !quick });
    const node = pi.node ?? process.execPath;
    const bigFile = join(work, 'big.jsonl');
    const big = await writeTreeSession(bigFile, BIG);
    const smallFile = join(work, 'small.jsonl');
    await writeTreeSession(smallFile, SMALL);
    for (const file of [smallFile, bigFile]) syncFile(file);

    const sides = { floor: null, arbor: lib, ...(pi.bundle ? { pi: pi.bundle } : {}) };
    const samples = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    const names = Object.keys(sides);
    for (const name of names) runChild(node, name, bigFile, sides[name]); // warm-up: page cache, code cache
    for (let i = 0; i < RUNS; i++) {
      const order = names.map((_, k) => names[(i + k) % names.length]); // alternate who goes first
      for (const name of order) samples[name].push(runChild(node, name, bigFile, sides[name]));
    }
    const open = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, summarize(list)]));
    if (open.pi && open.pi.messages !== open.arbor.messages) throw new Error(`pi's context has ${open.pi.messages} messages, Arbor's ${open.arbor.messages}`);
    const perTurn = await measureTurns(lib, smallFile, bigFile, TURNS);
    const result = report({ quick, node, pi, big, bigFile, RUNS, TURNS, open, perTurn });
    writeResults('session-open', result, markdown(result));
    process.exitCode = result.pass ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** src/session bundled with the production build's options (minified CommonJS for Node). */
async function bundleSession(work) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  const outfile = join(work, 'session.cjs');
  await esbuild.build({
    stdin: { contents: "export { SessionStore } from './src/session/store'; export { setPromptRoot } from './src/core/prompts';", resolveDir: root, loader: 'ts' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, outfile, logLevel: 'error',
  });
  return outfile;
}

function syncFile(file) {
  const fd = openSync(file, 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

function runChild(node, which, file, lib) {
  const r = spawnSync(node, [self, '--child', which, file, lib ?? ''], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${which} child failed (${r.status}): ${r.stderr.slice(0, 800)}`);
  return JSON.parse(r.stdout);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function summarize(list) {
  return {
    ms: +median(list.map((s) => s.ms)).toFixed(1),
    cpuMs: +median(list.map((s) => s.cpuMs)).toFixed(1),
    growthMB: +median(list.map((s) => s.growthMB)).toFixed(1),
    peakMB: +median(list.map((s) => s.peakMB)).toFixed(1),
    messages: list[0].messages,
  };
}

/** Both stores open at once, turns alternating small/large so disk and GC noise hit both alike. */
async function measureTurns(lib, smallFile, bigFile, turns) {
  const { SessionStore, setPromptRoot } = createRequire(import.meta.url)(lib);
  setPromptRoot(join(root, 'prompts'));
  const stores = { small: await SessionStore.open(smallFile), large: await SessionStore.open(bigFile) };
  stores.small.buildContext();
  stores.large.buildContext();
  const samples = { small: [], large: [] };
  for (let i = 0; i < turns + 10; i++) {
    for (const key of ['small', 'large']) {
      const t0 = process.hrtime.bigint();
      await stores[key].appendMessage({ role: 'user', content: `bench turn ${i}`, timestamp: Date.now() });
      stores[key].buildContext();
      if (i >= 10) samples[key].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  const small = median(samples.small);
  const large = median(samples.large);
  return { smallEntries: stores.small.entryCount, largeEntries: stores.large.entryCount, smallTurnMs: +small.toFixed(3), largeTurnMs: +large.toFixed(3), ratio: +(large / small).toFixed(3), target: 1.5 };
}

const ratio = (a, b) => +(a / b).toFixed(3);

function report({ quick, node, pi, big, bigFile, RUNS, TURNS, open, perTurn }) {
  const metric = (name, value, target, unit = 'x') => ({ name, value, target, unit, pass: value <= target });
  const metrics = [];
  if (open.pi) {
    metrics.push(metric('open + leaf context time vs pi 1.6.0 (fresh processes)', ratio(open.arbor.ms, open.pi.ms), 0.7));
    metrics.push(metric('open + leaf context peak RSS growth vs pi 1.6.0', ratio(open.arbor.growthMB, open.pi.growthMB), 0.7));
    metrics.push(metric('open + leaf context CPU time vs pi 1.6.0', ratio(open.arbor.cpuMs, open.pi.cpuMs), 0.7));
  }
  metrics.push(metric('open + leaf context time vs floor (read + JSON.parse every line)', ratio(open.arbor.ms, open.floor.ms), 1));
  metrics.push(metric('open + leaf context peak RSS growth vs floor', ratio(open.arbor.growthMB, open.floor.growthMB), 1));
  metrics.push(metric('per turn (append + fsync + context), 35,000 / 500 entries', perTurn.ratio, perTurn.target));
  return {
    date: new Date().toISOString(),
    quick,
    node: spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim(),
    file: { entries: big.entries, megabytes: +(statSync(bigFile).size / 1e6).toFixed(1), contextMessages: open.arbor.messages },
    runs: RUNS,
    turns: TURNS,
    piSkipped: pi.skipped,
    skipped: pi.skipped ? [`pi 1.6.0 column skipped: ${pi.skipped}`] : [],
    open,
    perTurn,
    metrics,
    pass: metrics.every((m) => m.pass),
  };
}

function markdown(r) {
  const row = (label, s) => (s ? `| ${label} | ${s.ms} ms | ${s.cpuMs} ms | ${s.growthMB} MB | ${s.peakMB} MB |` : `| ${label} | skipped | | | |`);
  return [
    '# Session open benchmark',
    '',
    `${r.date}, Node ${r.node}${r.quick ? ' (quick mode: small file, one run; figures prove the bench runs, not the targets)' : ''}. File: ${r.file.entries} entries, ${r.file.megabytes} MB; leaf context ${r.file.contextMessages} messages.`,
    `Each side in a fresh process, alternated, median of ${r.runs} (after one warm-up each).`,
    r.piSkipped ? `\n**pi 1.6.0 column skipped**: ${r.piSkipped}\n` : '',
    '| side | open + leaf context | CPU time | peak RSS growth | peak RSS |',
    '|---|---|---|---|---|',
    row('Arbor (open + buildContext)', r.open.arbor),
    row('pi 1.6.0 (SessionManager.open + buildSessionContext)', r.open.pi),
    row('floor (read + JSON.parse every line, entries kept)', r.open.floor),
    '',
    '| metric | value | target | met |',
    '|---|---|---|---|',
    ...r.metrics.map((m) => `| ${m.name} | ${m.value} ${m.unit} | ≤ ${m.target} | ${m.pass ? 'yes' : 'NO'} |`),
    '',
    `Per turn (median of ${r.turns}): ${r.perTurn.smallTurnMs} ms at ${r.perTurn.smallEntries} entries, ${r.perTurn.largeTurnMs} ms at ${r.perTurn.largeEntries}.`,
    '',
  ].join('\n');
}

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
