// Issue #14 item 3: read-only tools cannot freeze the extension host. A hostile repository (a file with a
// line that makes a backtracking regex explode, a long path against a `**a**a…c` glob, the same glob in
// its .gitignore, a FIFO) and a hostile pattern from the model must each end within 3 s, with the event
// loop never stalled for more than 1 s, and Stop must end a running grep within 0.5 s. Each probe runs in
// its own process (freeze-probe.ts) under a watchdog, so a frozen probe fails instead of hanging CI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportFigures } from '../profile';

const PROBE = join(__dirname, 'freeze-probe.ts');
/** Process start-up (tsx, module loading) on a loaded CI machine, plus every probe's own bound. */
const STARTUP_ALLOWANCE_MS = 30_000;
const BOUND_MS = 3_000;
const MAX_GAP_MS = 1_000;
const HAS_RG = spawnSync('rg', ['--version']).status === 0;

interface Probe {
  tool: string;
  args: unknown;
  engine: 'rg' | 'none';
  abortAfterMs?: number;
}

interface ProbeResult {
  ms: number;
  stopMs: number;
  maxGap: number;
  isError: boolean;
  text: string;
}

/** Runs the probes in one child process under a watchdog; a probe that never answers fails by name. */
function runProbes(ws: string, probes: Probe[]): ProbeResult[] {
  const watchdog = STARTUP_ALLOWANCE_MS + BOUND_MS * probes.length;
  const run = spawnSync(process.execPath, ['--import', 'tsx', PROBE, JSON.stringify({ ws, probes })], {
    encoding: 'utf8',
    timeout: watchdog,
    killSignal: 'SIGKILL',
  });
  const lines = run.stdout.split('\n').filter((line) => line.startsWith('{'));
  const results = lines.map((line) => JSON.parse(line) as ProbeResult & { crash?: string });
  for (const result of results) assert.equal(result.crash, undefined, result.crash);
  if (results.length < probes.length) {
    const stuck = probes[results.length];
    assert.fail(`${stuck.tool} ${JSON.stringify(stuck.args)} (${stuck.engine}) never returned: frozen (watchdog ${watchdog} ms). stderr: ${run.stderr.slice(0, 300)}`);
  }
  return results;
}

function assertBounded(label: string, result: ProbeResult): void {
  assert.ok(result.ms < BOUND_MS, `${label}: took ${result.ms} ms (bound ${BOUND_MS} ms): ${result.text}`);
  assert.ok(result.maxGap < MAX_GAP_MS, `${label}: event loop stalled for ${result.maxGap} ms`);
}

function workspace(t: { after(fn: () => void): void }): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-freeze-')));
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  return ws;
}

const figures: Record<string, number> = {};
const engines: ('rg' | 'none')[] = HAS_RG ? ['rg', 'none'] : ['none'];
const EVIL_GLOB = `${'**a'.repeat(12)}**c`;
const LONG_NAME = 'a'.repeat(200);

test('grep with a catastrophic regex on a 35-character line ends within 3 s without freezing the loop', (t) => {
  const ws = workspace(t);
  writeFileSync(join(ws, 'evil.txt'), `${'a'.repeat(35)}b\n`);
  // One file always goes through the JS engine; a folder goes through ripgrep when it is there.
  const probes: Probe[] = [
    { tool: 'grep', args: { pattern: '^(a+)+$', path: 'evil.txt' }, engine: 'rg' },
    ...engines.map((engine): Probe => ({ tool: 'grep', args: { pattern: '^(a+)+$' }, engine })),
  ];
  runProbes(ws, probes).forEach((result, i) => {
    const probe = probes[i];
    assertBounded(`grep ${JSON.stringify(probe.args)} (${probe.engine})`, result);
    if ('path' in (probe.args as object)) assert.ok(result.isError && /timed out/i.test(result.text), `a clear timeout report, got: ${result.text}`);
    figures[`grepRedosMs_${probe.engine}`] = Math.max(figures[`grepRedosMs_${probe.engine}`] ?? 0, result.ms);
  });
});

test('Stop ends a running grep within 0.5 s', (t) => {
  const ws = workspace(t);
  writeFileSync(join(ws, 'evil.txt'), `${'a'.repeat(48)}b\n`);
  const [result] = runProbes(ws, [{ tool: 'grep', args: { pattern: '^(a+)+$', path: 'evil.txt' }, engine: 'none', abortAfterMs: 300 }]);
  assert.ok(result.stopMs >= 0 && result.stopMs < 500, `grep ended ${result.stopMs} ms after Stop (bound 500 ms)`);
  assert.ok(result.isError && /abort/i.test(result.text), result.text);
  figures.grepStopMs = result.stopMs;
});

test('a `**a**a…c` glob against a long path ends within 3 s (find and grep)', (t) => {
  const ws = workspace(t);
  mkdirSync(join(ws, LONG_NAME, LONG_NAME), { recursive: true });
  writeFileSync(join(ws, LONG_NAME, LONG_NAME, LONG_NAME), 'x\n');
  const probes = engines.flatMap((engine) =>
    [EVIL_GLOB, `${LONG_NAME}/${EVIL_GLOB}`].flatMap((pattern): Probe[] => [
      { tool: 'find', args: { pattern }, engine },
      { tool: 'grep', args: { pattern: 'x', glob: pattern }, engine },
    ]),
  );
  runProbes(ws, probes).forEach((result, i) => {
    const probe = probes[i];
    assertBounded(`${probe.tool} ${JSON.stringify(probe.args).slice(0, 40)}… (${probe.engine})`, result);
    assert.match(result.text, /^No (files|matches)/);
    figures[`globMs_${probe.engine}`] = Math.max(figures[`globMs_${probe.engine}`] ?? 0, result.ms);
  });
});

test("a repository's hostile .gitignore does not freeze the pure-Node walk", (t) => {
  const ws = workspace(t);
  writeFileSync(join(ws, '.gitignore'), `${EVIL_GLOB}\n/${'**/a'.repeat(30)}**c\n`);
  mkdirSync(join(ws, LONG_NAME), { recursive: true });
  writeFileSync(join(ws, LONG_NAME, LONG_NAME), 'needle\n');
  const [found, grep] = runProbes(ws, [
    { tool: 'find', args: { pattern: '*' }, engine: 'none' },
    { tool: 'grep', args: { pattern: 'needle' }, engine: 'none' },
  ]);
  assertBounded('find with hostile .gitignore', found);
  assert.match(found.text, new RegExp(LONG_NAME));
  assertBounded('grep with hostile .gitignore', grep);
  assert.match(grep.text, /needle/);
  figures.gitignoreMs = Math.max(found.ms, grep.ms);
});

test('read, grep, edit and write refuse a FIFO, and walks skip FIFO .gitignore files, within 3 s', { skip: process.platform === 'win32' ? 'no FIFOs on Windows' : false }, (t) => {
  const ws = workspace(t);
  assert.equal(spawnSync('mkfifo', [join(ws, 'pipe')]).status, 0, 'mkfifo failed');
  // A FIFO where the pure-Node walk reads the repository's ignore rules.
  mkdirSync(join(ws, 'sub'));
  assert.equal(spawnSync('mkfifo', [join(ws, '.gitignore'), join(ws, 'sub', '.gitignore')]).status, 0, 'mkfifo failed');
  writeFileSync(join(ws, 'sub', 'found.txt'), 'x\n');
  const probes: Probe[] = [
    { tool: 'read', args: { path: 'pipe' }, engine: 'none' },
    { tool: 'grep', args: { pattern: 'x', path: 'pipe' }, engine: 'none' },
    { tool: 'edit', args: { path: 'pipe', oldText: 'a', newText: 'b' }, engine: 'none' },
    { tool: 'write', args: { path: 'pipe', content: 'x' }, engine: 'none' },
  ];
  const walks: Probe[] = [
    { tool: 'find', args: { pattern: '*.txt' }, engine: 'none' },
    { tool: 'grep', args: { pattern: 'x' }, engine: 'none' },
  ];
  const results = runProbes(ws, [...probes, ...walks]);
  results.forEach((result, i) => {
    const probe = [...probes, ...walks][i];
    assertBounded(`${probe.tool} ${JSON.stringify(probe.args)} with FIFOs`, result);
    if (i < probes.length) assert.ok(result.isError && /not a regular file/i.test(result.text), `${probe.tool}: ${result.text}`);
    else assert.match(result.text, /found\.txt/);
    figures.fifoMs = Math.max(figures.fifoMs ?? 0, result.ms);
  });
});

test('figures', () => {
  reportFigures('attacks/tool-freeze', figures);
});
