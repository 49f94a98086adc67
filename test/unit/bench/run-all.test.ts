// bench/run-all.mjs judges its benches: copied next to fake benches (one that measures, one that misses its
// target, one that crashes, one that writes nothing), it must say which ran and exit non-zero when one did not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../session/helpers';

const runAll = join(__dirname, '..', '..', '..', 'bench', 'run-all.mjs');

/** A fake bench writing one metric (value vs target) to BENCH_RESULTS_DIR, then exiting with `code`. */
function fakeBench(name: string, value: number, code: number): string {
  return `import { writeFileSync, mkdirSync } from 'node:fs';
const dir = process.env.BENCH_RESULTS_DIR ?? new URL('./results', import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
writeFileSync(dir + '/${name}.json', JSON.stringify({ metrics: [{ name: 'ratio', value: ${value}, target: 1, unit: 'x' }] }));
process.exit(${code});
`;
}

function setUp(t: { after(fn: () => void): void }, benches: Record<string, string>): string {
  const bench = join(tempDir(t), 'bench');
  mkdirSync(bench, { recursive: true });
  copyFileSync(runAll, join(bench, 'run-all.mjs'));
  for (const [name, source] of Object.entries(benches)) writeFileSync(join(bench, `${name}.mjs`), source);
  return bench;
}

function run(bench: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [join(bench, 'run-all.mjs'), ...args], { encoding: 'utf8' });
  const summary = JSON.parse(readFileSync(join(bench, 'results', ...(args.includes('--quick') ? ['quick'] : []), 'summary.json'), 'utf8'));
  return { code: r.status, summary };
}

test('quick mode: a missed target is reported, not failed; every bench ran → exit 0', (t) => {
  const bench = setUp(t, { good: fakeBench('good', 0.5, 0), slow: fakeBench('slow', 2, 1) });
  const { code, summary } = run(bench, '--quick');
  assert.equal(code, 0);
  assert.deepEqual(summary.runs.map((r: { name: string; ran: boolean }) => [r.name, r.ran]), [['good', true], ['slow', true]]);
  assert.deepEqual(summary.rows.map((r: { bench: string; pass: boolean }) => [r.bench, r.pass]), [['good', true], ['slow', false]]);
});

test('a full run fails on a missed target', (t) => {
  const bench = setUp(t, { good: fakeBench('good', 0.5, 0), slow: fakeBench('slow', 2, 1) });
  assert.equal(run(bench).code, 1);
});

test('a bench that crashes, or writes no results, makes the run fail, also in quick mode', (t) => {
  const bench = setUp(t, { crash: "throw new Error('stand-in host lacks env.appRoot');\n", silent: 'process.exit(0);\n', good: fakeBench('good', 0.5, 0) });
  const { code, summary } = run(bench, '--quick');
  assert.equal(code, 1);
  const ran = Object.fromEntries(summary.runs.map((r: { name: string; ran: boolean; note?: string }) => [r.name, [r.ran, r.note]]));
  assert.deepEqual(ran.crash, [false, 'no results file written by this run']);
  assert.deepEqual(ran.silent, [false, 'no results file written by this run']);
  assert.deepEqual(ran.good, [true, undefined]);
});

test('a bench that measured, met every target, then exited non-zero did not run cleanly', (t) => {
  const bench = setUp(t, { broke: fakeBench('broke', 0.5, 3) });
  const { code, summary } = run(bench, '--quick');
  assert.equal(code, 1);
  assert.equal(summary.runs[0].note, 'exited 3 with every target met');
});

test('targets next to the measured fields (`targets: {field: target}`) are read', (t) => {
  const source = `import { writeFileSync, mkdirSync } from 'node:fs';
mkdirSync(process.env.BENCH_RESULTS_DIR, { recursive: true });
writeFileSync(process.env.BENCH_RESULTS_DIR + '/bg.json', JSON.stringify({ waitRatio: 0.05, tokenRatio: 1.5, targets: { waitRatio: 0.1, tokenRatio: 1.2 } }));
`;
  const { summary } = run(setUp(t, { bg: source }), '--quick');
  assert.deepEqual(summary.rows.map((r: { name: string; pass: boolean }) => [r.name, r.pass]), [['waitRatio', true], ['tokenRatio', false]]);
});
