#!/usr/bin/env node
// Runs every client scenario of the MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
// devDependencies) against Arbor's MCP client (test/mcp-conformance/client.ts) and compares the outcome with
// the committed expected-failures.json (scenario → the reason it fails). Exit 1 on a failure that is not
// listed, and on a listed scenario that now passes or no longer exists, so the list only shrinks.
// Everything runs on loopback: the suite starts its own test server per scenario.
//   node test/mcp-conformance/run.mjs [scenario-substring…]
// The suite needs Node ≥ 22; under an older Node the harness's Node 24 is used (test/harness/install.mjs).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVsCodeUnderTest } from '../harness/install.mjs';
import { repoRoot, testResultsDir } from '../harness/paths.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const expected = JSON.parse(readFileSync(join(here, 'expected-failures.json'), 'utf8'));
const filters = process.argv.slice(2);
const outDir = join(testResultsDir, 'mcp-conformance');
const CONCURRENCY = 4;

async function nodeBinary() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const { nodeBinDir } = await ensureVsCodeUnderTest();
  return join(nodeBinDir, 'node');
}

function run(node, args) {
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function clientScenarios(node) {
  const { output } = await run(node, [cli, 'list', '--client']);
  return [...output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** The failed checks the suite saved for the scenario's newest run. */
function failedChecks(scenario) {
  const folder = join(outDir, dirname(scenario));
  const prefix = `${basename(scenario)}-`;
  const dirs = existsSync(folder) ? readdirSync(folder).filter((d) => d.startsWith(prefix) && /^\d{4}-/.test(d.slice(prefix.length))).sort() : [];
  const latest = dirs.at(-1) && join(folder, dirs.at(-1), 'checks.json');
  if (!latest || !existsSync(latest)) return [];
  return JSON.parse(readFileSync(latest, 'utf8')).filter((c) => c.status === 'FAILURE').map((c) => c.id);
}

async function runScenario(node, scenario) {
  const command = `${node} --import tsx ${join('test', 'mcp-conformance', 'client.ts')}`;
  const { code, output } = await run(node, [cli, 'client', '--command', command, '--scenario', scenario, '--timeout', '30000', '-o', outDir]);
  const passed = code === 0 && /OVERALL: PASSED/.test(output);
  return { scenario, passed, failed: passed ? [] : failedChecks(scenario), output };
}

async function runAll(node, scenarios) {
  const results = [];
  const queue = [...scenarios];
  const worker = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) results.push(await runScenario(node, s));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results.sort((a, b) => scenarios.indexOf(a.scenario) - scenarios.indexOf(b.scenario));
}

function verdict(result) {
  const listed = Object.hasOwn(expected, result.scenario);
  if (result.passed) return listed ? 'STALE (passes: strike it from expected-failures.json)' : 'pass';
  return listed ? `expected failure: ${expected[result.scenario].slice(0, 90)}…` : `UNEXPECTED FAILURE (${result.failed.join(', ') || 'see output'})`;
}

const node = await nodeBinary();
const all = await clientScenarios(node);
if (all.length === 0) throw new Error('the conformance suite listed no client scenarios');
const scenarios = filters.length ? all.filter((s) => filters.some((f) => s.includes(f))) : all;
const results = await runAll(node, scenarios);
let bad = 0;
for (const result of results) {
  const line = verdict(result);
  if (line.startsWith('UNEXPECTED') || line.startsWith('STALE')) {
    bad++;
    console.error(result.output.split('\n').slice(-30).join('\n'));
  }
  console.log(`${result.passed ? '✔' : '✖'} ${result.scenario}: ${line}`);
}
const missing = filters.length ? [] : Object.keys(expected).filter((s) => !all.includes(s));
for (const s of missing) console.log(`✖ ${s}: listed in expected-failures.json but the suite has no such scenario`);
bad += missing.length;
const passed = results.filter((r) => r.passed).length;
console.log(`MCP conformance (client): ${passed}/${results.length} scenarios passed, ${results.length - passed} failed (${results.length - passed - (bad - missing.length)} expected); results in ${outDir}`);
process.exit(bad === 0 ? 0 : 1);
