#!/usr/bin/env node
// Runs every benchmark (bench/*.mjs except this file; helpers live in subfolders) one after another,
// then collects their results (bench/results/<name>.json) into bench/results/summary.{json,md}: one table
// of measured ratios vs their targets. `npm run bench`. Arguments filter benchmarks by substring.
// A benchmark reports either `metrics: [{name, value, target, unit?, pass?}]`, or objects anywhere in its
// JSON with a numeric `target` next to a `ratio` / `timeRatio` (lower is better).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const results = join(here, 'results');
const filter = process.argv.slice(2);
const self = basename(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== self && !f.startsWith('_'))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();

mkdirSync(results, { recursive: true });
const runs = [];
for (const file of benches) {
  const name = file.replace(/\.mjs$/, '');
  console.log(`\n=== bench ${name} ===`);
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(here, file)], { cwd: root, stdio: 'inherit', env: process.env });
  const seconds = (Date.now() - started) / 1000;
  const jsonFile = join(results, `${name}.json`);
  let data;
  try {
    data = existsSync(jsonFile) ? JSON.parse(readFileSync(jsonFile, 'utf8')) : undefined;
  } catch {
    data = undefined;
  }
  // A result file older than this run is stale: do not report it as fresh.
  const fresh = data && typeof data.date === 'string' ? Date.parse(data.date) >= started - 1000 : Boolean(data);
  runs.push({ name, date: new Date(started).toISOString(), exitCode: r.status, seconds, metrics: fresh ? metricsOf(data) : [], note: !data ? 'no results file' : fresh ? undefined : 'results file not rewritten by this run' });
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
    for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
  };
  walk(data, []);
  return found;
}

// A filtered run refreshes only its benches: the others keep their rows from the last summary (each run
// records its date), so `node bench/run-all.mjs tree-patch` does not drop every other bench's figures.
if (filter.length > 0) {
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
const pass = runs.every((r) => r.exitCode === 0) && rows.every((r) => r.pass);
const summary = { date: new Date().toISOString(), node: process.version, pass, runs, rows };
writeFileSync(join(results, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
// four significant digits at most: a bench's raw 90.29999999981374 ms reads as 90.3 ms
const fmt = (v) => (Number.isFinite(v) ? String(Number(v.toPrecision(Math.max(4, Math.ceil(Math.log10(Math.abs(v) + 1)))))) : '—');
const md = [
  '# Benchmark summary',
  '',
  `${summary.date}, node ${process.version}. Each value is a ratio or figure measured within one run; lower is better.`,
  '',
  '| bench | metric | value | target | pass |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.bench} | ${r.name} | ${fmt(r.value)}${r.unit && Number.isFinite(r.value) ? ' ' + r.unit : ''} | ≤ ${fmt(r.target)} | ${r.pass ? 'yes' : 'NO'} |`),
  '',
  '| bench | run at | exit | seconds |',
  '|---|---|---|---|',
  ...runs.map((r) => `| ${r.name} | ${r.date ?? summary.date} | ${r.exitCode} | ${r.seconds.toFixed(1)} |`),
].join('\n') + '\n';
writeFileSync(join(results, 'summary.md'), md);
console.log('\n' + md);
process.exit(pass ? 0 : 1);
