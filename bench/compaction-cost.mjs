#!/usr/bin/env node
// Compaction cost against pi's real compaction (issue 25). Run: `node bench/compaction-cost.mjs`
// (`--quick` or BENCH_QUICK=1: 60 turns instead of 120; CI). pi 1.6.0 and a Node 22 for it come from
// PI16_PACKAGE / NODE22, the cache folder, or `npm pack` (bench/lib/pi-package.mjs); when neither can be
// had, the pi column is skipped with the reason printed and the bench fails.
//
// One scripted coding session (bench/lib/cost-session.mjs: user requests, tool calls, large tool results)
// is played three times against the same loopback fake Anthropic provider (test/fake-llm/server.mjs),
// which counts what each request is billed for with Anthropic's prompt caching (uncached input, cache
// writes, cache reads, output):
//   - pi 1.6.0's own shouldCompact / prepareCompaction / compact(), in a child process under Node 22;
//   - Arbor's CompactionRunner with the summary sent as a transcript (the summarizer's own request);
//   - Arbor's CompactionRunner with the summary asked as the continuation of the agent's conversation.
// Before each compaction the agent's own last request (system prompt, tools, context) is sent once, as the
// agent loop sends it, so the provider's cache holds what a real session would; it is not billed to
// compaction. Prices in units of the input price: cache writes 1.25, reads 0.1, output 5 (Claude Sonnet).
// Target: Arbor's billed cost (continuation form) ≤ 0.7 × pi's. Results: bench/results/compaction-cost.*
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRoot, ensureTsx } from './lib/under-tsx.mjs';
import { costSession, summaryAnswer } from './lib/cost-session.mjs';
import { PI_VERSION, preparePi } from './lib/pi-package.mjs';

const root = benchRoot(import.meta.url);
ensureTsx(import.meta.url);
const engine = await import('../src/compaction/index.ts');
const { SessionStore } = await import('../src/session/store.ts');
const { convertToLlm } = await import('../src/session/convert.ts');
const { createProvider, staticKeyResolver } = await import('../src/llm/index.ts');
const { startFakeLlm } = await import('../test/fake-llm/server.mjs');

const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const TURNS = QUICK ? 60 : 120;
const WINDOW = 128_000;
const TARGET = 0.7;
/** Anthropic's prices relative to uncached input (Claude Sonnet: $3 in, $15 out, writes 1.25×, reads 0.1×). */
const PRICE = { input: 1, cacheWrite: 1.25, cacheRead: 0.1, output: 5 };

const fake = await startFakeLlm({ config: { defaultModel: { contextWindow: WINDOW, maxOutputTokens: 8192 } } });
const answers = costSession();
/** The fake's answers: Arbor's UI recap gets the two sentences it asks for, every other request a checkpoint. */
function script() {
  fake.reset();
  fake.addRule({ when: { lastUserIncludes: 'Write a recap of it' }, then: { text: 'We refactored the parser and moved the cache into its own module. Next we wire the cache into the renderer.' } });
  fake.addRule({ when: {}, then: { text: summaryAnswer(costSession().text) } });
}

const model = {
  provider: 'anthropic', id: 'fake-claude', name: 'Fake Claude', api: 'anthropic-messages', baseUrl: fake.anthropicBaseUrl,
  contextWindow: WINDOW, maxOutputTokens: 8192, reasoning: false, pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};
const provider = createProvider(model, staticKeyResolver({ anthropic: 'fake-key' }), { maxRetries: 0 });
const SYSTEM = `You are a coding agent working in a VS Code workspace.\n${answers.text(1500)}`;
const TOOLS = ['read', 'edit', 'bash'].map((name) => ({
  name, description: `The ${name} tool. ${answers.text(60)}`,
  parameters: { type: 'object', properties: { path: { type: 'string' }, command: { type: 'string' } }, additionalProperties: false },
}));

/** What the requests in [from, to) were billed, in units of the input price. */
function billed(from, to = fake.requests.length) {
  const sum = { requests: 0, input: 0, cacheWrite: 0, cacheRead: 0, output: 0 };
  for (const r of fake.requests.slice(from, to)) {
    const u = r.usage ?? { input_tokens: r.promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
    sum.requests++;
    sum.input += u.input_tokens;
    sum.cacheWrite += u.cache_creation_input_tokens;
    sum.cacheRead += u.cache_read_input_tokens;
    sum.output += u.output_tokens;
  }
  const inputCost = sum.input * PRICE.input + sum.cacheWrite * PRICE.cacheWrite + sum.cacheRead * PRICE.cacheRead;
  return { ...sum, inputCost: Math.round(inputCost), cost: Math.round(inputCost + sum.output * PRICE.output) };
}

/** Arbor: the real runner on a real store; `continuation` gives it the agent's live request. */
async function playArbor(continuation) {
  script();
  const dir = mkdtempSync(join(tmpdir(), 'arbor-bench-cost-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const settings = { ...engine.DEFAULT_COMPACTION_SETTINGS, remoteEnabled: false, background: false };
  const live = () => ({ systemPrompt: SYSTEM, messages: convertToLlm(store.buildContext().messages), tools: TOOLS });
  const runner = new engine.CompactionRunner({
    store, settings: () => settings, models: () => ({ current: model, available: [model] }), providerFor: () => provider,
    ...(continuation ? { liveContext: live } : {}),
  });
  const session = costSession();
  const compactions = [];
  const spent = { requests: 0, input: 0, cacheWrite: 0, cacheRead: 0, output: 0, inputCost: 0, cost: 0 };
  for (let turn = 0; turn < TURNS; turn++) {
    for (const message of session.turn(turn)) await store.appendMessage(message);
    const tokens = engine.measureContext(store.getBranch()).tokens;
    if (!engine.shouldCompact(tokens, WINDOW, settings)) continue;
    await agentRequest(live());
    const from = fake.requests.length;
    const outcome = await runner.run({ reason: 'threshold' });
    if (outcome.status !== 'compacted') throw new Error(`Arbor compaction ${outcome.status}: ${outcome.errorMessage ?? outcome.message ?? ''}`);
    const bill = billed(from);
    for (const k of Object.keys(spent)) spent[k] += bill[k];
    compactions.push({ turn, requests: bill.requests, cost: bill.cost, summaryChars: store.getBranch().at(-1).summary.length });
  }
  rmSync(dir, { recursive: true, force: true });
  return { compactions, ...spent };
}

/** The agent's request that produced the newest reply: everything before that reply, as the loop sends it. */
async function agentRequest(context) {
  const messages = context.messages.slice(0, -1);
  for await (const event of provider.stream({ model, systemPrompt: context.systemPrompt, messages, tools: context.tools, maxTokens: 64 })) void event;
}

/** pi 1.6.0's compaction in a child process under Node 22, against the same fake provider. */
async function playPi() {
  const pi = preparePi(root);
  if (pi.skip) return { skipped: pi.skip };
  script();
  const child = spawn(pi.node, [fileURLToPath(new URL('./lib/pi-compaction-child.mjs', import.meta.url)), pi.bundle, fake.anthropicBaseUrl, String(TURNS), String(WINDOW)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) return { skipped: `pi's child process exited with ${code}` };
  const { compactions } = JSON.parse(out.trim().split('\n').at(-1));
  return { compactions, ...billed(0) };
}

const pi = await playPi();
const transcript = await playArbor(false);
const continued = await playArbor(true);
await fake.close();

const ratio = (a, b) => (b && Number.isFinite(b.cost) ? Number((a.cost / b.cost).toFixed(3)) : NaN);
const inputRatio = (a, b) => (b && Number.isFinite(b.inputCost) ? Number((a.inputCost / b.inputCost).toFixed(3)) : NaN);
const metrics = [
  { name: `billed cost / pi ${PI_VERSION}'s (continuation form)`, value: ratio(continued, pi), target: TARGET, unit: 'x' },
  { name: `billed input cost / pi's (continuation form)`, value: inputRatio(continued, pi), target: TARGET, unit: 'x' },
].map((m) => ({ ...m, pass: Number.isFinite(m.value) && m.value <= m.target }));
const result = {
  date: new Date().toISOString(),
  quick: QUICK,
  turns: TURNS,
  contextWindow: WINDOW,
  prices: PRICE,
  pi,
  arborTranscript: transcript,
  arborContinuation: continued,
  transcriptRatio: ratio(transcript, pi),
  metrics,
  pass: !pi.skipped && metrics.every((m) => m.pass),
};
if (pi.skipped) console.log(`compaction-cost: the pi column is skipped: ${pi.skipped}`);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/compaction-cost.json'), JSON.stringify(result, null, 2) + '\n');
const row = (label, s) => (s.skipped ? `| ${label} | skipped: ${s.skipped} | | | | | | |` : `| ${label} | ${s.compactions.length} | ${s.requests} | ${s.input} | ${s.cacheWrite} | ${s.cacheRead} | ${s.output} | ${s.cost} |`);
writeFileSync(
  join(root, 'bench/results/compaction-cost.md'),
  [
    '# Compaction cost against pi',
    '',
    `Scripted session: ${TURNS} turns, ${WINDOW.toLocaleString('en')}-token window, default settings of each${QUICK ? ' (quick mode)' : ''}. Every summary request goes to the same loopback fake Anthropic provider, which bills like Anthropic's prompt caching; cost in units of the input price (writes ${PRICE.cacheWrite}, reads ${PRICE.cacheRead}, output ${PRICE.output}). The agent's own request before each compaction primes the cache and is not counted.`,
    '',
    '| | compactions | requests | uncached input | cache writes | cache reads | output | cost |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row(`pi ${PI_VERSION} compact()`, pi),
    row('Arbor, summary from a transcript', transcript),
    row('Arbor, summary as a continuation of the cached conversation', continued),
    '',
    `Arbor / pi billed cost: transcript form **${result.transcriptRatio}**, continuation form **${metrics[0].value}** (target ≤ ${TARGET}: ${metrics[0].pass ? 'met' : 'NOT met'}); input cost alone ${metrics[1].value}.`,
    '',
  ].join('\n'),
);
console.log(JSON.stringify({ ...result, pi: { ...pi, compactions: pi.compactions?.length }, arborTranscript: { ...transcript, compactions: transcript.compactions.length }, arborContinuation: { ...continued, compactions: continued.compactions.length } }, null, 2));
process.exit(result.pass ? 0 : 1);
