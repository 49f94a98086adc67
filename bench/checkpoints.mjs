#!/usr/bin/env node
// File checkpoints benchmark (issue 15). Run: `node bench/checkpoints.mjs` (bundles src/checkpoints with
// esbuild, so timings measure our code, not a TypeScript loader). All ratios come from one run:
//   capture around one `bash` command (snapshot before + scan after) in a 20,000-file git workspace (BENCH_FILES)
//     vs committing the same change to a shadow git repository (`git add -A && git commit`, the method
//     of the peers' checkpoints)                                                     target ≤ 0.5
//     (also reported without the folder watcher, the scan macOS and Windows get, for reference)
//   capture around one `edit`: 20,000-file vs 200-file workspace                    target ≤ 1.5
//   restore of 100 changed files (plan + journaled apply) vs copying the same files target ≤ 2
//   store size for 100 turns editing one 100 KB file / sum of its distinct contents  target ≤ 2
// Each time is the median of SAMPLES runs; every bash sample changes 10 files, which both sides capture.
// Results: bench/results/checkpoints.{json,md}.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAndRequire } from './lib/bundle-source.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 9);
const BIG = Number(process.env.BENCH_FILES ?? 20_000);
const SMALL = 200;
const work = mkdtempSync(join(tmpdir(), 'arbor-bench-checkpoints-'));
const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'core.fsmonitor=false', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

try {
  const cp = await bundleAndRequire(root, work, 'checkpoints', "export { openCheckpoints, planRestore, applyRestore } from './src/checkpoints'; export { SessionStore } from './src/session/store';");
  const result = await run(cp);
  write(result);
  process.exitCode = result.pass ? 0 : 1;
} finally {
  // exitCode, not exit(): exit() would skip this and leave the 20,000-file workspaces behind.
  rmSync(work, { recursive: true, force: true });
}

/** A built-in tool as the recorder takes it: its name and effect (test/unit/tools/tool-seam.test.ts checks the real ones). */
function builtin(_cp, name) {
  const effect = name === 'bash' ? { kind: 'runs' } : { kind: 'writesFiles', targets: (args) => [args.path] };
  return { name, effect };
}

/**
 * Flushes every file system's dirty data (outside all timings). Our capture fsyncs its blobs and the
 * session; on ext4 an fsync commits the journal and first writes out the data ordered before it, which
 * right after setup (20,000 files just written, the shadow's first commit) or after the shadow's own
 * index writes would bill us for the other side's and the setup's write-back. Each timed step starts
 * from a flushed disk instead; the shadow side writes without fsync and is unaffected.
 */
function settle() {
  execFileSync('sync');
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** A workspace of `count` small files in 100-file folders (a source tree's shape). */
function makeTree(dir, count) {
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file${i}.ts`), `export const value${i} = ${i};\n// ${'x'.repeat(200 + (i % 300))}\n`);
  }
}

function workspace(name, count, withGit) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  makeTree(dir, count);
  if (withGit) {
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
  }
  settle();
  return dir;
}

async function open(cp, name, dir, options = {}) {
  const sessions = join(work, `${name}-sessions`);
  const store = await cp.SessionStore.create({ dir: sessions, cwd: dir });
  const checkpoints = await cp.openCheckpoints(join(sessions, 'checkpoints'), { folders: [{ name: 'ws', path: dir }] }, options);
  return { store, checkpoints };
}

/** The change a bash command makes: 10 files rewritten. */
function bashChange(dir, sample) {
  const stride = Math.min(700, Math.floor(BIG / 10)); // 700 for the full 20,000 files; smaller workspaces in quick mode
  for (let k = 0; k < 10; k++) {
    const n = k * stride + 3;
    writeFileSync(join(dir, `pkg${Math.floor(n / 100)}`, `file${n}.ts`), `// bash sample ${sample} file ${k}\n`);
  }
}

/** `watchFolders: false`: the scan without the folder watcher (macOS, Windows, more than 5,000 folders). */
async function measureBash(cp, name, watchFolders) {
  const dir = workspace(name, BIG, true);
  const shadow = join(work, `${name}-shadow.git`);
  const shadowGit = (...args) => git(dir, `--git-dir=${shadow}`, `--work-tree=${dir}`, ...args);
  git(work, 'init', '-q', '--bare', shadow);
  shadowGit('add', '-A');
  shadowGit('commit', '-qm', 'initial');
  settle();
  const { store, checkpoints } = await open(cp, name, dir, { watchFolders });
  const ours = [];
  const theirs = [];
  for (let sample = 0; sample <= SAMPLES; sample++) {
    // Our capture is the check before the command plus the scan and manifest after it; the command's own
    // writes are outside both timings, as they are for the shadow commit, which then commits the same
    // change (until 2026-11-26 a second change was made for the shadow, which our next check had to
    // capture as an outside edit: 10 more durable blobs per sample that the shadow never paid for).
    // Both sides start from a flushed disk.
    settle();
    const before = await timed(() => checkpoints.recorder.beforeTool(builtin(cp, 'bash'), { command: 'x' }));
    bashChange(dir, `sample ${sample}`);
    ours.push(before + (await timed(async () => {
      await checkpoints.recorder.afterTool(builtin(cp, 'bash'), { command: 'x' });
      await checkpoints.recorder.finishTurn((type, data) => store.appendCustomEntry(type, data));
    })));
    settle();
    theirs.push(await timed(async () => {
      shadowGit('add', '-A');
      shadowGit('commit', '-qm', `sample ${sample}`);
    }));
    // The folder watcher is built in the background after the first scan; the samples measure it built.
    if (sample === 0) await checkpoints.files.watchers.settled();
  }
  // The first sample warms caches (the stat cache, git's index): both sides drop it.
  return { oursMs: median(ours.slice(1)), shadowGitMs: median(theirs.slice(1)), scans: { ...checkpoints.files.watchers.counts } };
}

/** One edit-capture sample in a `count`-file workspace: check before, the edit, check after, manifest. */
async function editSampler(cp, name, count) {
  const dir = workspace(name, count, false);
  const { store, checkpoints } = await open(cp, name, dir);
  return (sample) => timed(async () => {
    await checkpoints.recorder.beforeTool(builtin(cp, 'edit'), { path: 'pkg1/file150.ts' });
    writeFileSync(join(dir, 'pkg1', 'file150.ts'), `// edit ${sample}\n`);
    await checkpoints.recorder.afterTool(builtin(cp, 'edit'), { path: 'pkg1/file150.ts' });
    await checkpoints.recorder.finishTurn((type, data) => store.appendCustomEntry(type, data));
  });
}

/** Samples of both workspaces alternate, so both see the same disk (an fsync's latency varies with the load). */
async function measureEdits(cp) {
  const big = await editSampler(cp, 'edit-big', BIG);
  const small = await editSampler(cp, 'edit-small', SMALL);
  const times = { big: [], small: [] };
  for (let sample = 0; sample <= SAMPLES; sample++) {
    times.big.push(await big(sample));
    times.small.push(await small(sample));
  }
  return { editBig: median(times.big.slice(1)), editSmall: median(times.small.slice(1)) };
}

async function measureRestore(cp) {
  const dir = workspace('restore', 1000, false);
  const { store, checkpoints } = await open(cp, 'restore', dir);
  const rec = checkpoints.recorder;
  const names = Array.from({ length: 100 }, (_, i) => `pkg${i % 10}/file${(i % 10) * 100 + Math.floor(i / 10)}.ts`);
  const version = async (tag) => {
    for (const n of names) {
      await rec.beforeTool(builtin(cp, 'write'), { path: n });
      writeFileSync(join(dir, n), `// ${tag} ${n}\n${'y'.repeat(4000)}\n`);
      await rec.afterTool(builtin(cp, 'write'), { path: n });
    }
    return rec.finishTurn((type, data) => store.appendCustomEntry(type, data));
  };
  const a = await version('A');
  const b = await version('B');
  const staging = join(work, 'staging');
  for (const n of names) {
    mkdirSync(dirname(join(staging, n)), { recursive: true });
    writeFileSync(join(staging, n), `// A ${n}\n${'y'.repeat(4000)}\n`);
  }
  settle();
  const ours = [];
  const copies = [];
  let from = b;
  for (let sample = 0; sample <= SAMPLES; sample++) {
    const to = from === b ? a : b;
    ours.push(await timed(async () => {
      const plan = await cp.planRestore(checkpoints.files, store, from, to);
      if (plan.changes.length !== 100) throw new Error(`expected 100 changes, got ${plan.changes.length}`);
      const outcome = await cp.applyRestore(checkpoints.files, checkpoints.storeDir, plan, { overwrite: new Set() });
      if (outcome.kind !== 'restored') throw new Error(outcome.message);
    }));
    store.branch(to);
    from = to;
    copies.push(await timed(async () => {
      for (const n of names) copyFileSync(join(staging, n), join(work, 'copy-target', n.replace('/', '-')));
    }).catch(async () => {
      mkdirSync(join(work, 'copy-target'), { recursive: true });
      return timed(async () => {
        for (const n of names) copyFileSync(join(staging, n), join(work, 'copy-target', n.replace('/', '-')));
      });
    }));
  }
  return { restoreMs: median(ours.slice(1)), copyMs: median(copies.slice(1)) };
}

async function measureStore(cp) {
  const dir = join(work, 'store-ws');
  mkdirSync(dir, { recursive: true });
  const { store, checkpoints } = await open(cp, 'store', dir);
  const base = Buffer.alloc(100 * 1024);
  for (let i = 0; i < base.length; i++) base[i] = 97 + ((i * 7919) % 26);
  const distinct = new Map();
  for (let t = 0; t < 100; t++) {
    const content = Buffer.from(base);
    content.write(`turn ${t % 60} `, (t * 997) % (content.length - 20));
    distinct.set(content.toString('latin1'), content.length);
    await checkpoints.recorder.beforeTool(builtin(cp, 'edit'), { path: 'big.txt' });
    writeFileSync(join(dir, 'big.txt'), content);
    await checkpoints.recorder.afterTool(builtin(cp, 'edit'), { path: 'big.txt' });
    await checkpoints.recorder.finishTurn((type, data) => store.appendCustomEntry(type, data));
  }
  const size = await checkpoints.blobs.size();
  const distinctBytes = [...distinct.values()].reduce((s, n) => s + n, 0);
  return { storeBytes: size.bytes, blobs: size.blobs, distinctContents: distinct.size, distinctBytes };
}

async function run(cp) {
  const bash = await measureBash(cp, 'bash', true);
  const unwatched = await measureBash(cp, 'bash-unwatched', false);
  const { editBig, editSmall } = await measureEdits(cp);
  const restore = await measureRestore(cp);
  const storeSize = await measureStore(cp);
  const metric = (name, value, target, unit = 'x') => ({ name, value: Number(value.toFixed(3)), target, unit, pass: value <= target });
  const metrics = [
    metric(`bash capture / shadow git add+commit (${BIG.toLocaleString('en')} files)`, bash.oursMs / bash.shadowGitMs, 0.5),
    { ...metric('without the folder watcher (macOS, Windows, > 5,000 folders): bash capture / shadow git', unwatched.oursMs / unwatched.shadowGitMs, 0.5), informational: true },
    metric(`edit capture ${BIG.toLocaleString('en')} files / ${SMALL} files`, editBig / editSmall, 1.5),
    metric('restore 100 files / copy 100 files', restore.restoreMs / restore.copyMs, 2),
    metric('store bytes / distinct content bytes (100 turns, 100 KB file)', storeSize.storeBytes / storeSize.distinctBytes, 2),
  ];
  return {
    date: new Date().toISOString(),
    node: process.version,
    samples: SAMPLES,
    scans: bash.scans,
    timesMs: { bashCapture: bash.oursMs, shadowGitCommit: bash.shadowGitMs, bashCaptureUnwatched: unwatched.oursMs, shadowGitCommitUnwatchedRun: unwatched.shadowGitMs, editCaptureBig: editBig, editCaptureSmall: editSmall, restore100: restore.restoreMs, copy100: restore.copyMs },
    storeSize,
    metrics,
    pass: metrics.every((m) => m.pass || m.informational),
  };
}

function write(result) {
  const r2 = (v) => Number(v.toFixed(2));
  const t = result.timesMs;
  const md = [
    '# File checkpoints',
    '',
    `${result.date}, node ${result.node}. Median of ${result.samples} samples (one warm-up sample dropped on each side).`,
    '',
    '| measured | ms |',
    '|---|---|',
    `| capture around one bash command, ${BIG.toLocaleString('en')}-file git workspace (10 files changed) | ${r2(t.bashCapture)} |`,
    `| shadow git: git add -A && git commit of the same change | ${r2(t.shadowGitCommit)} |`,
    `| scans after those commands: ${result.scans.narrowed} narrowed to the touched paths, ${result.scans.full} full, ${result.scans.untouched} without git | |`,
    `| the same without the folder watcher: capture / shadow commit | ${r2(t.bashCaptureUnwatched)} / ${r2(t.shadowGitCommitUnwatchedRun)} |`,
    `| capture around one edit, ${BIG.toLocaleString('en')} files / ${SMALL} files | ${r2(t.editCaptureBig)} / ${r2(t.editCaptureSmall)} |`,
    `| restore of 100 changed files (plan + journal + apply) / copying them | ${r2(t.restore100)} / ${r2(t.copy100)} |`,
    `| store after 100 turns on one 100 KB file: ${result.storeSize.blobs} blobs, ${result.storeSize.storeBytes} bytes for ${result.storeSize.distinctContents} distinct contents (${result.storeSize.distinctBytes} bytes) | |`,
    '',
    '| metric | value | target | pass |',
    '|---|---|---|---|',
    ...result.metrics.map((m) => `| ${m.name} | ${m.value} ${m.unit} | ${m.informational ? `(≤ ${m.target}, for reference)` : `≤ ${m.target}`} | ${m.pass ? 'yes' : 'NO'} |`),
    '',
  ].join('\n');
  mkdirSync((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), { recursive: true });
  writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'checkpoints.json'), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'checkpoints.md'), md);
  console.log(md);
}
