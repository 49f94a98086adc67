#!/usr/bin/env node
// Runs every benchmark (bench/*.mjs except this file; helpers live in subfolders) one after another,
// then collects their results (bench/results/<name>.json) into bench/results/summary.{json,md}: one table
// of measured ratios vs their targets. `npm run bench`. Arguments filter benchmarks by substring.
// `--quick` (`npm run bench:quick`, part of `npm test`): small sizes, results in bench/results/quick/; exits
// non-zero only when a bench fails to run. A full run exits non-zero when a bench fails or misses a target.
// A benchmark reports either `metrics: [{name, value, target, unit?, pass?}]`, or objects anywhere in its
// JSON with a numeric `target` next to a `ratio` / `timeRatio` (lower is better).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filter = args.filter((a) => a !== '--quick');
// Quick mode (CI, `npm run bench:quick`): every bench runs small and writes to a git-ignored folder; it must
// run and print its ratios, and a bench that fails to run fails the run; missed targets are only reported.
const results = quick ? join(here, 'results', 'quick') : join(here, 'results');
const self = basename(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== self && !f.startsWith('_'))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();

/**
 * The small sizes each bench runs with in quick mode (each reads these variables; see its header). A bench
 * missing here still runs in quick mode with BENCH_QUICK=1 and its own defaults.
 */
const QUICK_SIZES = {
  activation: { BENCH_RUNS: '1', BENCH_MEMORY_RUNS: '1', BENCH_ENTRIES: '3000' },
  'background-compaction': { BENCH_TURN_MS: '60', BENCH_TURNS: '66' },
  'bundle-size': { BENCH_RUNS: '1' },
  checkpoints: { BENCH_SAMPLES: '1', BENCH_FILES: '2000' },
  'session-open': { BENCH_RUNS: '1', BENCH_ENTRIES: '3000', BENCH_TURNS: '10' },
  'skills-scan': { BENCH_RUNS: '1', BENCH_SKILLS: '20', BENCH_SCANS: '5' },
  'tree-graph': { BENCH_SAMPLES: '3', BENCH_RUNS: '1' },
  'tree-patch': { BENCH_SAMPLES: '3' },
  'webview-paint': { BENCH_RUNS: '1' },
};

mkdirSync(results, { recursive: true });
const runs = [];
for (const file of benches) {
  const name = file.replace(/\.mjs$/, '');
  console.log(`\n=== bench ${name}${quick ? ' (quick)' : ''} ===`);
  const started = Date.now();
  const env = quick ? { ...process.env, BENCH_QUICK: '1', BENCH_RESULTS_DIR: results, ...QUICK_SIZES[name] } : process.env;
  const r = spawnSync(process.execPath, [join(here, file)], { cwd: root, stdio: 'inherit', env });
  const seconds = (Date.now() - started) / 1000;
  runs.push(judge(name, r.status ?? 1, started, seconds));
}

/** What one bench's run gave: its metrics when it wrote results during this run, and whether it ran at all. */
function judge(name, exitCode, started, seconds) {
  const jsonFile = join(results, `${name}.json`);
  // A result file older than this run is stale: do not report it as fresh (mtime: not every bench dates it).
  const fresh = existsSync(jsonFile) && statSync(jsonFile).mtimeMs >= started - 1000;
  let data;
  try {
    data = fresh ? JSON.parse(readFileSync(jsonFile, 'utf8')) : undefined;
  } catch {
    data = undefined;
  }
  const metrics = data ? metricsOf(data) : [];
  // A bench exits non-zero when it misses a target; it failed to *run* when it wrote no fresh results, or
  // exited non-zero with every target met (it broke after measuring), or reported no target at all.
  const missed = metrics.some((m) => !m.pass);
  const ran = data !== undefined && metrics.length > 0 && (exitCode === 0 || missed);
  const note = !fresh ? 'no results file written by this run' : !data ? 'results file is not JSON' : metrics.length === 0 ? 'no metric with a target' : !ran ? `exited ${exitCode} with every target met` : undefined;
  const skipped = data && Array.isArray(data.skipped) ? data.skipped.join('; ') : undefined;
  return { name, date: new Date(started).toISOString(), exitCode, seconds, ran, metrics, note: note ?? skipped };
}

function metricsOf(data) {
  if (Array.isArray(data.metrics)) {
    return data.metrics.map((m) => ({ name: m.name, value: m.value, target: m.target, unit: m.unit ?? '', pass: m.pass ?? (Number.isFinite(m.value) && m.value <= m.target) }));
  }
  const found = [];
  const walk = (node, path) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    if (typeof node.target === 'number') {
      const key = ['ratio', 'timeRatio'].find((k) => typeof node[k] === 'number');
      if (key) found.push({ name: [...path, key].join('.') || key, value: node[key], target: node.target, unit: 'x', pass: node[key] <= node.target });
    }
    // `targets: { field: target }` next to the measured fields (e.g. background-compaction)
    if (node.targets && typeof node.targets === 'object') {
      for (const [key, target] of Object.entries(node.targets)) {
        if (typeof target === 'number' && typeof node[key] === 'number') found.push({ name: [...path, key].join('.'), value: node[key], target, unit: 'x', pass: node[key] <= target });
      }
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'targets') walk(v, [...path, k]);
  };
  walk(data, []);
  return found;
}

// A filtered run refreshes only its benches: the others keep their rows from the last summary (each run
// records its date), so `node bench/run-all.mjs tree-patch` does not drop every other bench's figures.
if (filter.length > 0 && !quick) {
  const previous = readPreviousSummary();
  const rerun = new Set(runs.map((r) => r.name));
  for (const run of previous?.runs ?? []) if (!rerun.has(run.name)) runs.push({ ...run, date: run.date ?? previous.date });
  runs.sort((a, b) => a.name.localeCompare(b.name));
}

function readPreviousSummary() {
  try {
    return JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

const rows = runs.flatMap((run) =>
  run.metrics.length > 0
    ? run.metrics.map((m) => ({ bench: run.name, ...m }))
    : [{ bench: run.name, name: run.note ?? 'no metric with a target', value: NaN, target: NaN, unit: '', pass: false }],
);
const allRan = runs.every((r) => r.ran !== false);
const pass = allRan && (quick || (runs.every((r) => r.exitCode === 0) && rows.every((r) => r.pass)));
const summary = { date: new Date().toISOString(), node: process.version, quick, pass, allRan, runs, rows };
writeFileSync(join(results, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
// four significant digits at most: a bench's raw 90.29999999981374 ms reads as 90.3 ms
const fmt = (v) => (Number.isFinite(v) ? String(Number(v.toPrecision(Math.max(4, Math.ceil(Math.log10(Math.abs(v) + 1)))))) : '—');
const md = [
  '# Benchmark summary',
  '',
  `${summary.date}, node ${process.version}${quick ? ', quick mode: small sizes, one run each; the figures prove each bench runs, they do not judge the targets' : ''}. Each value is a ratio or figure measured within one run; lower is better.`,
  '',
  '| bench | metric | value | target | met |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.bench} | ${r.name} | ${fmt(r.value)}${r.unit && Number.isFinite(r.value) ? ' ' + r.unit : ''} | ≤ ${fmt(r.target)} | ${r.pass ? 'yes' : 'NO'} |`),
  '',
  '| bench | run at | exit | ran | seconds |',
  '|---|---|---|---|---|',
  ...runs.map((r) => `| ${r.name} | ${r.date ?? summary.date} | ${r.exitCode} | ${r.ran === false ? `NO: ${r.note}` : r.note ? `yes (${r.note})` : 'yes'} | ${r.seconds.toFixed(1)} |`),
].join('\n') + '\n';
writeFileSync(join(results, 'summary.md'), md);
console.log('\n' + md);
if (!allRan) console.error(`bench: did not run: ${runs.filter((r) => r.ran === false).map((r) => `${r.name} (${r.note})`).join(', ')}`);
process.exit(pass ? 0 : 1);
