#!/usr/bin/env node
// Skill scan benchmark. Run: `node bench/skills-scan.mjs` (quick: `node bench/run-all.mjs --quick skills`).
//
// Arbor scans the skill folders at every prompt so that a skill added or edited while a session runs is in
// the next request (src/agent/instructions/skill-scan.ts, docs/architecture.md "Skills and instruction
// files"). This measures what that costs, in one run, each side in fresh processes under the same Node:
//  - Arbor: ProjectInstructions.refresh() over a workspace with BENCH_SKILLS skills (real SKILL.md text from
//    test/fixtures/skills, renamed; spread over .agents/, .claude/ and .github/skills), cold (first scan)
//    and warm (the scan at each later prompt: readdir + stat, parsed files cached by size and mtime).
//  - pi 1.6.0 from npm: loadSkills() over the same three folders (what pi runs at each reload).
// Targets: Arbor's warm scan ≤ 1.0x pi's scan of the same folders (when pi is there), and ≤ 0.5x Arbor's own
// first scan (always: what the cache saves). Results: bench/results/skills-scan.{json,md}.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { bundleAndRequire, bundlePath } from './lib/bundle-source.mjs';
import { findPi16 } from './lib/pi16.mjs';
import { isQuick, writeResults } from './lib/results.mjs';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..');
const SKILLS = Number(process.env.BENCH_SKILLS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SCANS = Number(process.env.BENCH_SCANS ?? 20);
const FOLDERS = ['.agents/skills', '.claude/skills', '.github/skills'];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `count` skills from the real fixtures, renamed skill-0…, each with a reference file. */
function makeWorkspace(dir, count) {
  const sources = ['.agents/skills/mcp-builder', '.agents/skills/webapp-testing', '.github/skills/brand-guidelines'].map((p) => join(root, 'test', 'fixtures', 'skills', 'workspace', p));
  for (let i = 0; i < count; i++) {
    const source = sources[i % sources.length];
    const target = join(dir, FOLDERS[i % FOLDERS.length], `skill-${i}`);
    mkdirSync(join(target, 'reference'), { recursive: true });
    const text = readFileSync(join(source, 'SKILL.md'), 'utf8').replace(/^name: .*$/m, `name: skill-${i}`);
    writeFileSync(join(target, 'SKILL.md'), text);
    cpSync(join(source, 'LICENSE.txt'), join(target, 'reference', 'LICENSE.txt'));
  }
}

/** One side in a fresh process: the first scan, then SCANS more; prints timings as JSON. */
async function child([which, ws, lib]) {
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  const times = [];
  let found = 0;
  if (which === 'pi') {
    const pi = await import(pathToFileURL(lib).href);
    const agentDir = mkdtempSync(join(tmpdir(), 'arbor-bench-pi-agent-'));
    for (let i = 0; i <= SCANS; i++) {
      const t = now();
      found = pi.loadSkills({ cwd: ws, agentDir, skillPaths: FOLDERS.map((f) => join(ws, f)), includeDefaults: false }).skills.length;
      times.push(now() - t);
    }
  } else {
    const { ProjectInstructions } = createRequire(import.meta.url)(lib);
    const home = mkdtempSync(join(tmpdir(), 'arbor-bench-home-'));
    const instructions = new ProjectInstructions({ workspace: { folders: [{ name: 'ws', path: ws }] }, home });
    for (let i = 0; i <= SCANS; i++) {
      const t = now();
      found = (await instructions.refresh()).skills.length;
      times.push(now() - t);
    }
  }
  process.stdout.write(JSON.stringify({ cold: times[0], warm: median(times.slice(1)), found }));
}

function run(node, args) {
  const r = spawnSync(node, [self, '--child', ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${args[0]} child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'arbor-bench-skills-'));
  try {
    const ws = join(work, 'ws');
    makeWorkspace(ws, SKILLS);
    await bundleAndRequire(root, work, 'instructions', "export { ProjectInstructions } from './src/agent/instructions/project-instructions';");
    const pi = findPi16(root, { fetch: !isQuick() });
    const node = pi.node ?? process.execPath;
    const arbor = [];
    const peer = [];
    for (let i = 0; i < RUNS; i++) {
      arbor.push(run(node, ['arbor', ws, bundlePath(work, 'instructions')]));
      if (!pi.skipped) peer.push(run(node, ['pi', ws, pi.bundle]));
    }
    const side = (runs) => ({ coldMs: median(runs.map((r) => r.cold)), warmMs: median(runs.map((r) => r.warm)), found: runs[0]?.found });
    const a = side(arbor);
    const own = { name: 'warm scan vs Arbor first scan', value: a.warmMs / a.coldMs, target: 0.5, unit: 'x' };
    const result = { skills: SKILLS, runs: RUNS, scansPerRun: SCANS, node: process.versions.node, arbor: a, metrics: [own] };
    let md = `# Skill scan (${SKILLS} skills, ${RUNS} fresh processes, ${SCANS} re-scans each)\n\nArbor: first scan ${a.coldMs.toFixed(1)} ms, each later scan ${a.warmMs.toFixed(2)} ms (found ${a.found}).\n`;
    if (pi.skipped) {
      result.pi = { skipped: pi.skipped };
      md += `\npi 1.6.0: skipped (${pi.skipped}).\n\n| metric | ratio | target |\n|---|---|---|\n| ${own.name} | ${own.value.toFixed(2)}x | ≤ ${own.target}x |\n`;
    } else {
      const p = side(peer);
      result.pi = p;
      result.metrics = [
        own,
        { name: 'warm scan vs pi loadSkills', value: a.warmMs / p.warmMs, target: 1.0, unit: 'x' },
        { name: 'first scan vs pi loadSkills (first)', value: a.coldMs / p.coldMs, target: 3.0, unit: 'x' },
      ];
      md += `pi 1.6.0 loadSkills: first ${p.coldMs.toFixed(1)} ms, later ${p.warmMs.toFixed(2)} ms (found ${p.found}).\n\n| metric | ratio | target |\n|---|---|---|\n${result.metrics.map((m) => `| ${m.name} | ${m.value.toFixed(2)}x | ≤ ${m.target}x |`).join('\n')}\n`;
    }
    writeResults('skills-scan', result, md);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
