#!/usr/bin/env node
// Runs the hardening suite (test/hardening/**/*.test.ts) with Node's test runner through tsx.
//   ARBOR_HARDENING_PROFILE=quick (default, CI: ~100 crash trials, 1,000 fuzzed files)
//   ARBOR_HARDENING_PROFILE=full  (1,000 crash trials, 10,000 fuzzed files)
//   ARBOR_HARDENING_SEED=<n>      reproduce a failing run (every failure message prints its seed)
// Optional arguments filter test files by substring. Suite figures (`# figures …` lines) are collected
// and written to test/hardening/results/<profile>.json, the numbers docs/reliability.md quotes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { findTestFiles, repoRoot } from './lib/test-files.mjs';

const root = repoRoot;
const profile = (process.env.ARBOR_HARDENING_PROFILE ?? 'quick').trim().toLowerCase() || 'quick';
if (profile !== 'quick' && profile !== 'full') {
  console.error(`ARBOR_HARDENING_PROFILE must be "quick" or "full" (got "${profile}")`);
  process.exit(2);
}
const filter = process.argv.slice(2);

const files = findTestFiles('test/hardening', ['.test.ts', '.test.mjs'], filter, 'hardening');

// A hang is a failure too: a loader stuck in a loop would otherwise stall CI forever.
const wallClockMs = profile === 'full' ? 60 * 60_000 : 10 * 60_000;
const started = Date.now();
console.log(`hardening: profile=${profile}, ${files.length} files`);
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-concurrency=1', ...files],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ARBOR_TEST: '1', ARBOR_HARDENING_PROFILE: profile } },
);
const watchdog = setTimeout(() => {
  console.error(`hardening: no result after ${wallClockMs / 60_000} min: treating as a hang`);
  child.kill('SIGKILL');
}, wallClockMs);

const figures = [];
const counts = {};
let pending = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (data) => {
  process.stdout.write(data);
  pending += data;
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    const figure = /#?\s*# figures (\S+) (.*)$/.exec(line) ?? /^\s*# figures (\S+) (.*)$/.exec(line);
    if (figure) {
      const values = Object.fromEntries(figure[2].split(' ').map((kv) => kv.split('=')).filter((kv) => kv.length === 2));
      figures.push({ suite: figure[1], ...values });
    }
    const count = /^ℹ (tests|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)/.exec(line);
    if (count) counts[count[1]] = Number(count[2]);
  }
});
child.on('close', (code, signal) => {
  clearTimeout(watchdog);
  const seconds = (Date.now() - started) / 1000;
  // Only a whole-suite run may replace the figures docs/reliability.md quotes; a filtered run would
  // overwrite them with a partial picture.
  const outFile = join(root, 'test', 'hardening', 'results', filter.length === 0 ? `${profile}.json` : `${profile}.filtered.json`);
  mkdirSync(dirname(outFile), { recursive: true });
  const result = { profile, date: new Date().toISOString(), seconds, node: process.version, filter, counts, figures, exitCode: code, signal };
  writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
  console.log(
    `hardening (${profile}): ${counts.tests ?? '?'} tests, ${counts.pass ?? '?'} passed, ${counts.fail ?? '?'} failed, ` +
      `${counts.cancelled ?? 0} cancelled in ${seconds.toFixed(1)} s; figures → ${relative(root, outFile)}`,
  );
  process.exit(code ?? 1);
});
