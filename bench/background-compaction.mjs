#!/usr/bin/env node
// Background compaction benchmark (issue 17). Run: `node bench/background-compaction.mjs`.
//
// One scripted session is played twice at the same time, through the real engine (SessionStore on disk,
// CompactionRunner, BackgroundCompaction), with a fake summarizer whose summary call takes 3 s and a fake
// agent whose every turn takes TURN_MS. The foreground path compacts at the threshold and the user waits
// for the summary; the background path starts the summary in the band below the threshold and commits it
// at the threshold (docs/architecture.md, "Background compaction").
// Measured in one run: the wait at each threshold compaction (threshold reached → entry saved) and the
// summarizer input tokens billed (chars/4 of system prompt + request), background vs foreground.
// Targets: median wait ≤ 0.1 × the summarizer's time; billed input ≤ 1.2 × the foreground path.
// Results: bench/results/background-compaction.{json,md}.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRoot, ensureTsx } from './lib/under-tsx.mjs';

const root = benchRoot(import.meta.url);
ensureTsx(import.meta.url);
const engine = await import('../src/compaction/index.ts');
const { SessionStore } = await import('../src/session/store.ts');
const { BackgroundCompaction } = await import('../src/agent/background-compaction.ts');

const SUMMARY_MS = 3000;
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 1500);
const TURNS = Number(process.env.BENCH_TURNS ?? 66);
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
function textSource() {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const words = ['parser', 'token', 'buffer', 'session', 'compaction', 'tree', 'branch', 'leaf', 'render', 'cache'];
  return { rand, text: (tokens) => Array.from({ length: Math.ceil((tokens * 4) / 7) }, () => words[Math.floor(rand() * words.length)]).join(' ') };
}

/** The fake summarizer: the summary call takes SUMMARY_MS, the recap is instant; bills chars/4 of each request. */
function summarizer(billed) {
  return {
    async *stream(req) {
      billed.tokens += Math.ceil((req.systemPrompt.length + JSON.stringify(req.messages.map((m) => m.content)).length) / 4);
      const recap = JSON.stringify(req.messages).includes('Write a recap');
      if (!recap) await sleep(SUMMARY_MS, req.signal);
      const text = recap ? 'We went on with the parser.' : ['## Goal', 'Refactor the parser.', '## Constraints & Preferences', '- (none)', '## Progress', '### Done', '- [x] step', '### In Progress', '- [ ] next', '### Blocked', '- (none)', '## Key Decisions', '- **A**: b', '## Next Steps', '1. go on', '## Critical Context', '- none'].join('\n');
      yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: req.signal?.aborted ? 'aborted' : 'stop', timestamp: Date.now() } };
    },
  };
}

async function play(background) {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-bench-bg-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const billed = { tokens: 0 };
  const provider = summarizer(billed);
  const runner = new engine.CompactionRunner({ store, settings: () => settings, models: () => ({ current: model, available: [model] }), providerFor: () => provider });
  const ahead = background ? new BackgroundCompaction({ runner, branch: () => store.getBranch(), settings: () => settings, model: () => model }) : undefined;
  const { rand, text } = textSource();
  const waits = [];
  const after = [];
  for (let turn = 0; turn < TURNS; turn++) {
    await store.appendMessage({ role: 'user', content: `Turn ${turn}: ${text(100 + rand() * 200)}`, timestamp: Date.now() });
    await sleep(TURN_MS); // the agent's request
    await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: text(600 + rand() * 1200) }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'stop', timestamp: Date.now() });
    const tokens = engine.measureContext(store.getBranch()).tokens;
    if (!engine.shouldCompact(tokens, WINDOW, settings)) {
      ahead?.consider(tokens);
      continue;
    }
    const start = performance.now();
    const prepared = await ahead?.take(tokens);
    const outcome = await runner.run({ reason: 'threshold', ...(prepared ? { prepared } : {}) });
    waits.push(performance.now() - start);
    if (outcome.status !== 'compacted') throw new Error(`compaction ${outcome.status}`);
    after.push(engine.measureContext(store.getBranch()).tokens);
  }
  rmSync(dir, { recursive: true, force: true });
  return { compactions: waits.length, waitsMs: waits.map(Math.round), billedInputTokens: billed.tokens, tokensAfter: after };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const [foreground, background] = await Promise.all([play(false), play(true)]);
const waitRatio = median(background.waitsMs) / SUMMARY_MS;
const tokenRatio = background.billedInputTokens / foreground.billedInputTokens;
const result = {
  summarizerMs: SUMMARY_MS,
  turnMs: TURN_MS,
  turns: TURNS,
  contextWindow: WINDOW,
  foreground,
  background,
  waitRatio: Number(waitRatio.toFixed(4)),
  foregroundWaitRatio: Number((median(foreground.waitsMs) / SUMMARY_MS).toFixed(3)),
  tokenRatio: Number(tokenRatio.toFixed(3)),
  targets: { waitRatio: 0.1, tokenRatio: 1.2 },
  pass: waitRatio <= 0.1 && tokenRatio <= 1.2 && background.compactions === foreground.compactions && background.compactions > 0,
};
mkdirSync((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), { recursive: true });
writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'background-compaction.json'), JSON.stringify(result, null, 2) + '\n');
writeFileSync(
  join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'background-compaction.md'),
  [
    '# Background compaction',
    '',
    `One scripted session of ${TURNS} turns (${TURN_MS} ms each), ${WINDOW.toLocaleString('en')}-token window, keepRecentTokens ${settings.keepRecentTokens}, played twice at once; the fake summary call takes ${SUMMARY_MS} ms.`,
    '',
    '| path | compactions | waits at the threshold (ms) | summarizer input tokens | context after |',
    '|---|---:|---|---:|---|',
    `| foreground | ${foreground.compactions} | ${foreground.waitsMs.join(', ')} | ${foreground.billedInputTokens} | ${foreground.tokensAfter.join(', ')} |`,
    `| background | ${background.compactions} | ${background.waitsMs.join(', ')} | ${background.billedInputTokens} | ${background.tokensAfter.join(', ')} |`,
    '',
    `Median wait / summarizer time: **${result.waitRatio}** (target ≤ 0.1; foreground ${result.foregroundWaitRatio}). Billed input background / foreground: **${result.tokenRatio}** (target ≤ 1.2). ${result.pass ? 'Both met.' : 'NOT met.'}`,
    '',
  ].join('\n'),
);
console.log(JSON.stringify(result, null, 2));
process.exit(result.pass ? 0 : 1);
