#!/usr/bin/env node
// Background compaction benchmark (issues 17 and 25). Run: `node bench/background-compaction.mjs`
// (`--quick` or BENCH_QUICK=1: every time scaled by 0.2, the same ratios in a fifth of the time; CI).
//
// One scripted session is played twice at the same time, through the real engine (SessionStore on disk,
// CompactionRunner, BackgroundCompaction), with a fake summarizer whose summary call takes 3 s and a fake
// agent whose every turn takes 200, 500 or 1,500 ms (all three speeds in the same run). The foreground
// path compacts at the threshold and the user waits for the summary; the background path starts the
// summary in the band below the threshold, which adapts to the measured growth, and commits it at the
// threshold (docs/architecture.md, "Background compaction").
// Measured in one run, per turn speed and seed (three seeds of the scripted text), background vs foreground: the wait at each threshold compaction
// (threshold reached → entry saved) over the summarizer's time, the context right after the compaction,
// and the summarizer input tokens billed (chars/4 of system prompt + request). Per background compaction,
// its bridge (what came while its summary was written, committed shortened with no model call): the
// estimated tokens of the messages it shortens and of the section that stands for them.
// Targets: median wait ≤ 0.1 × the summarizer's time; context after ≤ 1.1 × the foreground one; billed
// input ≤ 1.2 × the foreground path. Also reported: the growth while one summary is written and the floors
// of the context ratio it implies for a schedule of model-written summaries alone (no wait; at the wait
// target); the bridge is not model-written, which is how the background path gets below them. Results: bench/results/background-compaction.{json,md}, as
// `metrics` rows that bench/run-all.mjs collects.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRoot, ensureTsx } from './lib/under-tsx.mjs';
import { ledgerAnswer } from './lib/cost-session.mjs';

const root = benchRoot(import.meta.url);
ensureTsx(import.meta.url);
const engine = await import('../src/compaction/index.ts');
const { SessionStore } = await import('../src/session/store.ts');
const { BackgroundCompaction } = await import('../src/agent/background-compaction.ts');

const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const SCALE = QUICK ? 0.2 : 1;
const SUMMARY_MS = 3000 * SCALE;
const TURN_SPEEDS = [200, 500, 1500].map((ms) => ms * SCALE);
const TURNS = Number(process.env.BENCH_TURNS ?? 66);
/** Seeds of the scripted session's text: every speed is played once per seed, all at once. */
const SEEDS = [12345, 777, 4242];
const WINDOW = 50_000;
const settings = { ...engine.DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 8000, remoteEnabled: false };
const model = {
  provider: 'fake', id: 'fake-1', name: 'Fake', api: 'openai-completions', contextWindow: WINDOW,
  maxOutputTokens: 32_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};
const usage0 = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

/** Deterministic text: both paths play the same session. */
function textSource(start) {
  let seed = start;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const words = ['parser', 'token', 'buffer', 'session', 'compaction', 'tree', 'branch', 'leaf', 'render', 'cache'];
  return { rand, text: (tokens) => Array.from({ length: Math.ceil((tokens * 4) / 7) }, () => words[Math.floor(rand() * words.length)]).join(' ') };
}

/** The text of a request's last message. */
const promptOf = (req) => JSON.stringify(req.messages.at(-1)?.content ?? '').replace(/\\"/g, '"').replace(/\\n/g, '\n');

/**
 * The fake summarizer: the summary call takes SUMMARY_MS, the recap is instant; bills chars/4 of each
 * request. It follows the instructions: asked for ledger lines (messages over the user-words budget) it
 * writes them (bench/lib/cost-session.mjs ledgerAnswer), so a compaction is one summary call.
 */
function summarizer(billed) {
  return {
    async *stream(req) {
      billed.tokens += Math.ceil((req.systemPrompt.length + JSON.stringify(req.messages.map((m) => m.content)).length) / 4);
      const recap = JSON.stringify(req.messages).includes('Write a recap');
      if (!recap) await sleep(SUMMARY_MS, req.signal);
      const ledger = ledgerAnswer(promptOf(req));
      const ledgerOnly = promptOf(req).includes('Write only a "## User Ledger" section');
      const text = recap ? 'We went on with the parser.' : ledgerOnly ? ledger : [ledger, '## Goal', 'Refactor the parser.', '## Constraints & Preferences', '- (none)', '## Progress', '### Done', '- [x] step', '### In Progress', '- [ ] next', '### Blocked', '- (none)', '## Key Decisions', '- **A**: b', '## Next Steps', '1. go on', '## Critical Context', '- none'].filter(Boolean).join('\n');
      yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: req.signal?.aborted ? 'aborted' : 'stop', timestamp: Date.now() } };
    },
  };
}

async function play(background, TURN_MS, seed) {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-bench-bg-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const billed = { tokens: 0 };
  const provider = summarizer(billed);
  const runner = new engine.CompactionRunner({ store, settings: () => settings, models: () => ({ current: model, available: [model] }), providerFor: () => provider });
  const ahead = background ? new BackgroundCompaction({ runner, branch: () => store.getBranch(), settings: () => settings, model: () => model, ...(process.env.BENCH_LOG ? { log: (m) => console.error(`[${TURN_MS}] ${m}`) } : {}) }) : undefined;
  const { rand, text } = textSource(seed);
  const waits = [];
  const after = [];
  const began = performance.now();
  let waited = 0;
  let grown = 0;
  let previous = engine.measureContext(store.getBranch()).tokens;
  const summaries = [];
  const bridges = [];
  for (let turn = 0; turn < TURNS; turn++) {
    await store.appendMessage({ role: 'user', content: `Turn ${turn}: ${text(100 + rand() * 200)}`, timestamp: Date.now() });
    await sleep(TURN_MS); // the agent's request
    await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: text(600 + rand() * 1200) }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'stop', timestamp: Date.now() });
    const tokens = engine.measureContext(store.getBranch()).tokens;
    grown += tokens - previous;
    previous = tokens;
    const below = !engine.shouldCompact(tokens, WINDOW, settings);
    if (below) ahead?.consider(tokens);
    // a ready summary whose kept part reached keepRecentTokens is committed below the threshold (as the session does)
    if (below && !ahead?.commitDue(tokens)) continue;
    const start = performance.now();
    const prepared = await ahead?.take(tokens);
    const outcome = await runner.run({ reason: 'threshold', ...(prepared ? { prepared } : {}) });
    waits.push(performance.now() - start);
    waited += waits.at(-1);
    if (outcome.status !== 'compacted') throw new Error(`compaction ${outcome.status}`);
    after.push((previous = engine.measureContext(store.getBranch()).tokens));
    // as the session does after a background commit: the next summary starts at once when in the band
    if (prepared) ahead.committed(previous);
    const entry = store.getBranch().findLast((e) => e.type === 'compaction');
    summaries.push(Math.ceil(entry.summary.length / 4));
    const bridge = engine.bridgeDetailsOf(entry);
    bridges.push(bridge ? `${bridge.tokens}→${bridge.sectionTokens}` : '–');
  }
  // the pace of the session as played (compaction waits excluded): tokens it gains while one summary is written
  const turnMs = (performance.now() - began - waited) / TURNS;
  const summaryGrowth = Math.round(((grown / TURNS) * SUMMARY_MS) / turnMs);
  rmSync(dir, { recursive: true, force: true });
  return { compactions: waits.length, waitsMs: waits.map(Math.round), billedInputTokens: billed.tokens, tokensAfter: after, summaryTokens: summaries, bridges, turnMs: Math.round(turnMs / SCALE), summaryGrowth };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const TARGETS = { waitRatio: 0.1, contextAfterRatio: 1.1, billedInputRatio: 1.2 };
const round3 = (v) => Number(v.toFixed(3));

/**
 * One seed at one turn speed: both paths at once, and their ratios. `noWaitFloor`: the least context
 * ratio any path that never waits can reach, since a summary covers at most what existed when it was
 * started: its summary plus what arrives while it is written, over the foreground context after.
 */
async function seedRun(turnMs, seed) {
  const [foreground, background] = await Promise.all([play(false, turnMs, seed), play(true, turnMs, seed)]);
  const ratios = {
    waitRatio: median(background.waitsMs) / SUMMARY_MS,
    foregroundWaitRatio: median(foreground.waitsMs) / SUMMARY_MS,
    contextAfterRatio: median(background.tokensAfter) / median(foreground.tokensAfter),
    billedInputRatio: background.billedInputTokens / foreground.billedInputTokens,
    // the same per compaction: one compaction more or less in a 66-turn session moves the total by a third
    billedPerCompactionRatio: (background.billedInputTokens / background.compactions) / (foreground.billedInputTokens / foreground.compactions),
    noWaitFloor: (median(background.summaryTokens) + foreground.summaryGrowth) / median(foreground.tokensAfter),
    // a compaction that waits at most the wait target still keeps what arrived in the rest of its summary time
    floorAtWaitTarget: (median(background.summaryTokens) + (1 - TARGETS.waitRatio) * foreground.summaryGrowth) / median(foreground.tokensAfter),
  };
  return { seed, foreground, background, ...Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, round3(v)])) };
}

/** One turn speed over every seed: each ratio's worst seed is its value, the range is reported. */
async function speed(turnMs) {
  const runs = await Promise.all(SEEDS.map((seed) => seedRun(turnMs, seed)));
  const range = (key) => ({ min: Math.min(...runs.map((r) => r[key])), max: Math.max(...runs.map((r) => r[key])) });
  const keys = ['waitRatio', 'foregroundWaitRatio', 'contextAfterRatio', 'billedInputRatio', 'billedPerCompactionRatio', 'noWaitFloor', 'floorAtWaitTarget'];
  return { turnMs, runs, ...Object.fromEntries(keys.map((k) => [k, range(k)])) };
}

const speeds = await Promise.all(TURN_SPEEDS.map(speed));
const label = (turnMs) => `${Math.round(turnMs / SCALE)} ms turns`;
const metrics = speeds.flatMap((s) => [
  { name: `wait / summarizer time, ${label(s.turnMs)}`, value: s.waitRatio.max, min: s.waitRatio.min, target: TARGETS.waitRatio, unit: 'x' },
  { name: `context after / foreground's, ${label(s.turnMs)}`, value: s.contextAfterRatio.max, min: s.contextAfterRatio.min, target: TARGETS.contextAfterRatio, unit: 'x' },
  { name: `billed input / foreground's, ${label(s.turnMs)}`, value: s.billedInputRatio.max, min: s.billedInputRatio.min, target: TARGETS.billedInputRatio, unit: 'x' },
]).map((m) => ({ ...m, pass: Number.isFinite(m.value) && m.value <= m.target }));
const sameCompactions = speeds.every((s) => s.runs.every((r) => r.background.compactions === r.foreground.compactions && r.background.compactions > 0));
const result = {
  date: new Date().toISOString(),
  quick: QUICK,
  summarizerMs: SUMMARY_MS,
  turns: TURNS,
  seeds: SEEDS,
  contextWindow: WINDOW,
  keepRecentTokens: settings.keepRecentTokens,
  speeds,
  targets: TARGETS,
  metrics,
  sameCompactions,
  pass: sameCompactions && metrics.every((m) => m.pass),
};
const out = process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'background-compaction.json'), JSON.stringify(result, null, 2) + '\n');
const row = (s, r, path) => `| ${label(s.turnMs)} | ${r.seed} | ${path} | ${r[path].turnMs} | ${r[path].compactions} | ${r[path].waitsMs.join(', ')} | ${r[path].billedInputTokens} | ${r[path].tokensAfter.join(', ')} | ${r[path].bridges.join(', ')} |`;
writeFileSync(
  join(out, 'background-compaction.md'),
  [
    '# Background compaction',
    '',
    `One scripted session of ${TURNS} turns per seed (${SEEDS.join(', ')}), ${WINDOW.toLocaleString('en')}-token window, keepRecentTokens ${settings.keepRecentTokens}, played twice at once (foreground, background) at each turn speed, all in one run; the fake summary call takes ${SUMMARY_MS} ms${QUICK ? ' (quick mode: every time × 0.2)' : ''}.`,
    '',
    '| turns | seed | path | ms per turn as played | compactions | waits at the threshold (ms) | summarizer input tokens | context after | bridge: tokens shortened → section |',
    '|---|---:|---|---:|---:|---|---:|---|---|',
    ...speeds.flatMap((s) => s.runs.flatMap((r) => [row(s, r, 'foreground'), row(s, r, 'background')])),
    '',
    'Value: the worst of the scripted texts (seeds); range: over them.',
    '',
    '| metric | value | range | target | met |',
    '|---|---:|---|---:|---|',
    ...metrics.map((m) => `| ${m.name} | ${m.value} | ${m.min}–${m.value} | ≤ ${m.target} | ${m.pass ? 'yes' : 'NO'} |`),
    '',
    'What model-written summaries alone can reach: a summary covers at most what existed when it was asked for, so a compaction the user does not wait for keeps its summary plus everything added while it was written, and one that waits at most the wait target keeps its summary plus what was added in the rest of its time. Over the foreground context after, those are floors of the context ratio for any schedule of summaries; where the second is above the context target, both targets cannot hold at once with summaries alone. The background path commits what came meanwhile as a bridge (shortened by Arbor, no model call, summarized in full by the next compaction), which is not bound by these floors: its figures are the ones above.',
    '',
    '| turns | growth while a summary is written (tokens, per seed) | floor of the context ratio, no wait | floor at the wait target |',
    '|---|---|---|---|',
    ...speeds.map((s) => `| ${label(s.turnMs)} | ${s.runs.map((r) => r.foreground.summaryGrowth).join(', ')} | ${s.noWaitFloor.min}–${s.noWaitFloor.max} | ${s.floorAtWaitTarget.min}–${s.floorAtWaitTarget.max} |`),
    '',
    `Billed input per compaction, background over foreground, range over the scripted texts — ${speeds.map((s) => `${label(s.turnMs)} ${s.billedPerCompactionRatio.min}–${s.billedPerCompactionRatio.max}`).join('; ')}.`,
    '',
    `Same number of compactions on both paths at every speed and seed: ${sameCompactions ? 'yes' : 'NO'}.`,
    '',
  ].join('\n'),
);
console.log(JSON.stringify({ ...result, speeds: speeds.map(({ runs, ...rest }) => ({ ...rest, runs: runs.map(({ foreground, background, ...r }) => ({ ...r, foregroundAfter: foreground.tokensAfter, backgroundAfter: background.tokensAfter, foregroundWaits: foreground.waitsMs, backgroundWaits: background.waitsMs })) })) }, null, 2));
process.exit(result.pass ? 0 : 1);
