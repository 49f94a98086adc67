#!/usr/bin/env node
// Compaction cost against pi's real compaction (issue 25). Run: `node bench/compaction-cost.mjs`
// (`--quick` or BENCH_QUICK=1: 60 turns instead of 120; CI). pi 1.6.0 and a Node 22 for it come from
// PI16_PACKAGE / NODE22, the cache folder, or `npm pack` (bench/lib/pi-package.mjs); when neither can be
// had, the pi column is skipped with the reason printed and the bench fails.
//
// One scripted coding session (bench/lib/cost-session.mjs: user requests, tool calls, large tool results)
// and a summarizer that answers every summary request with the same checkpoint (plus, when Arbor's prompt
// lists messages over the user-words budget, their ledger lines, as the prompt asks: ledgerAnswer; and when
// it asks for a "## Recap" section, the recap: recapAnswer)
// is played three times per API against the same loopback fake provider (test/fake-llm/server.mjs), which
// counts what each request is billed for with the provider's prompt caching (Anthropic Messages with
// cache_control breakpoints: uncached input, cache writes, cache reads; OpenAI chat completions with
// automatic prefix caching: prompt and cached tokens) and output:
//   - pi 1.6.0's own shouldCompact / prepareCompaction / compact(), in a child process under Node 22;
//   - Arbor's CompactionRunner with the summary sent as a transcript (the summarizer's own request);
//   - Arbor's CompactionRunner given the agent's live request: the summary is asked as its continuation
//     where the model's cache prices make that cheaper than the transcript.
// Before each compaction the agent's own last request (system prompt, tools, context) is sent once, as the
// agent loop sends it, so the provider's cache holds what a real session would; it is not billed to
// compaction. Prices in units of the input price: Anthropic (Claude Sonnet) cache writes 1.25, reads 0.1,
// output 5; OpenAI cached input 0.5 and output 4 (GPT-4o class), cached 0.1 and output 8 (GPT-5 class).
// BENCH_TRACE=1 prints every compaction request Arbor sent with its billed usage; the results table "Where the
// cost goes" splits each side's bill by request kind (summary, turn prefix, recap, ledger lines).
// Target: Arbor's billed cost (continuation form) ≤ 0.7 × pi's at every price. Results:
// bench/results/compaction-cost.{json,md}, as `metrics` rows that bench/run-all.mjs collects.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRoot, ensureTsx } from './lib/under-tsx.mjs';
import { RECAP, costSession, ledgerAnswer, recapAnswer, summaryAnswer } from './lib/cost-session.mjs';
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
/** Prices relative to uncached input, per API (the fake bills each API's way of caching). */
const PRICES = {
  'anthropic (Claude Sonnet)': { api: 'anthropic-messages', input: 1, cacheWrite: 1.25, cacheRead: 0.1, output: 5 },
  'openai (GPT-4o class)': { api: 'openai-completions', input: 1, cacheWrite: 1, cacheRead: 0.5, output: 4 },
  'openai (GPT-5 class)': { api: 'openai-completions', input: 1, cacheWrite: 1, cacheRead: 0.1, output: 8 },
};

const fake = await startFakeLlm({ config: { defaultModel: { contextWindow: WINDOW, maxOutputTokens: 8192 }, openaiPromptCache: true } });
const answers = costSession();
/** The fake's answers: Arbor's UI recap gets the two sentences it asks for, every other request a checkpoint. */
function script() {
  fake.reset();
  fake.addRule({ when: { lastUserIncludes: 'Write a recap of it' }, then: { text: RECAP } });
  // A summarizer that follows the instructions: asked for ledger lines (Arbor, messages over the budget),
  // it writes them, after the checkpoint or (a correction) alone; asked for a recap section, it ends with it.
  const checkpoint = summaryAnswer(costSession().text);
  fake.addRule({ when: { lastUserIncludes: 'Write only a "## User Ledger" section' }, then: (ctx) => ({ text: ledgerAnswer(ctx.lastUser) }) });
  fake.addRule({ when: {}, then: (ctx) => ({ text: [checkpoint, ledgerAnswer(ctx.lastUser), recapAnswer(ctx.lastUser)].filter(Boolean).join('\n\n') }) });
}

/** One model per price class: its own pricing decides whether Arbor asks the summary as a continuation. */
const MODELS = {
  'anthropic (Claude Sonnet)': {
    provider: 'anthropic', id: 'fake-claude', name: 'Fake Claude', api: 'anthropic-messages', baseUrl: fake.anthropicBaseUrl,
    contextWindow: WINDOW, maxOutputTokens: 8192, reasoning: false, pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  },
  'openai (GPT-4o class)': {
    provider: 'openai', id: 'fake-gpt', name: 'Fake GPT', api: 'openai-completions', baseUrl: fake.openaiBaseUrl,
    contextWindow: WINDOW, maxOutputTokens: 8192, reasoning: false, pricing: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
  },
  'openai (GPT-5 class)': {
    provider: 'openai', id: 'fake-gpt', name: 'Fake GPT', api: 'openai-completions', baseUrl: fake.openaiBaseUrl,
    contextWindow: WINDOW, maxOutputTokens: 8192, reasoning: false, pricing: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  },
};
const keys = staticKeyResolver({ anthropic: 'fake-key', openai: 'fake-key' });
const SYSTEM = `You are a coding agent working in a VS Code workspace.\n${answers.text(1500)}`;
const TOOLS = ['read', 'edit', 'bash'].map((name) => ({
  name, description: `The ${name} tool. ${answers.text(60)}`,
  parameters: { type: 'object', properties: { path: { type: 'string' }, command: { type: 'string' } }, additionalProperties: false },
}));

/** What a summary request was for, read from its last message (Arbor's prompts and pi's). */
const KINDS = [
  ['recap', /Write a recap of it/],
  ['turn prefix', /FIRST PART of one long turn|earlier context from an ongoing conversation/],
  ['ledger lines', /Write only a \\"## User Ledger\\" section/],
  ['summary', /./],
];
function kindOf(request) {
  const last = JSON.stringify(request.body.messages?.at(-1)?.content ?? '');
  return KINDS.find(([, re]) => re.test(last))[0];
}

const zero = () => ({ requests: 0, input: 0, cacheWrite: 0, cacheRead: 0, output: 0 });

/** The tokens the requests in [from, to) were billed for, by token kind (either API's usage), and by request kind. */
function billed(from, to = fake.requests.length) {
  const sum = zero();
  sum.kinds = {};
  for (const r of fake.requests.slice(from, to)) {
    const one = zero();
    countUsage(one, r);
    sum.kinds[kindOf(r)] = add(sum.kinds[kindOf(r)] ?? zero(), one);
    countUsage(sum, r);
  }
  return sum;
}

/** Adds one request's billed tokens to `sum`. */
function countUsage(sum, r) {
  {
    const u = r.usage ?? {};
    sum.requests++;
    if (r.api === 'anthropic') {
      sum.input += u.input_tokens ?? r.promptTokens;
      sum.cacheWrite += u.cache_creation_input_tokens ?? 0;
      sum.cacheRead += u.cache_read_input_tokens ?? 0;
      sum.output += u.output_tokens ?? 0;
    } else {
      const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
      sum.input += (u.prompt_tokens ?? r.promptTokens) - cached;
      sum.cacheRead += cached;
      sum.output += u.completion_tokens ?? 0;
    }
  }
}

const TOKEN_KEYS = ['requests', 'input', 'cacheWrite', 'cacheRead', 'output'];
const add = (a, b) => ({ ...a, ...Object.fromEntries(TOKEN_KEYS.map((k) => [k, a[k] + b[k]])), ...(a.kinds || b.kinds ? { kinds: addKinds(a.kinds ?? {}, b.kinds ?? {}) } : {}) });
const addKinds = (a, b) => Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, add(a[k] ?? zero(), b[k] ?? zero())]));

/** Cost in units of the input price. */
function costOf(tokens, price) {
  const input = tokens.input * price.input + tokens.cacheWrite * price.cacheWrite + tokens.cacheRead * price.cacheRead;
  return { inputCost: Math.round(input), cost: Math.round(input + tokens.output * price.output) };
}

/** Arbor: the real runner on a real store; `continuation` gives it the agent's live request. */
async function playArbor(label, continuation) {
  const model = MODELS[label];
  const api = model.api;
  const provider = createProvider(model, keys, { maxRetries: 0 });
  script();
  const dir = mkdtempSync(join(tmpdir(), 'arbor-bench-cost-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const settings = { ...engine.DEFAULT_COMPACTION_SETTINGS, remoteEnabled: false, background: false };
  const live = () => ({ systemPrompt: SYSTEM, messages: convertToLlm(store.buildContext().messages), tools: TOOLS });
  const runner = new engine.CompactionRunner({
    store, settings: () => settings, models: () => ({ current: model, available: [model] }), providerFor: () => provider,
    ...(continuation ? { liveContext: live } : {}),
  });
  const session = costSession({ api, provider: model.provider, model: model.id });
  const compactions = [];
  let spent = { ...zero(), kinds: {} };
  for (let turn = 0; turn < TURNS; turn++) {
    for (const message of session.turn(turn)) await store.appendMessage(message);
    const tokens = engine.measureContext(store.getBranch()).tokens;
    if (!engine.shouldCompact(tokens, WINDOW, settings)) continue;
    await agentRequest(provider, model, live());
    const from = fake.requests.length;
    const outcome = await runner.run({ reason: 'threshold' });
    if (outcome.status !== 'compacted') throw new Error(`Arbor compaction ${outcome.status}: ${outcome.errorMessage ?? outcome.message ?? ''}`);
    const bill = billed(from);
    if (process.env.BENCH_TRACE) for (const r of fake.requests.slice(from)) { const m = r.body.messages ?? []; const last = JSON.stringify(m.at(-1)?.content ?? '').slice(0, 50); console.error(label, continuation ? 'cont' : 'tx', turn, r.promptTokens, JSON.stringify(r.usage).slice(0,110), m.length, last); }
    spent = add(spent, bill);
    compactions.push({ turn, requests: bill.requests, summaryChars: store.getBranch().at(-1).summary.length, repeatsReferenced: referencesIn(from) });
  }
  rmSync(dir, { recursive: true, force: true });
  return { compactions, ...spent };
}

/** Tool results Arbor's requests since `from` sent as a reference to an identical earlier one (src/compaction/serialize.ts). */
function referencesIn(from) {
  return fake.requests.slice(from).reduce((n, r) => n + (JSON.stringify(r.body).match(/\[same output as the previous /g)?.length ?? 0), 0);
}

/** The agent's request that produced the newest reply: everything before that reply, as the loop sends it. */
async function agentRequest(provider, model, context) {
  const messages = context.messages.slice(0, -1);
  for await (const event of provider.stream({ model, systemPrompt: context.systemPrompt, messages, tools: context.tools, maxTokens: 64 })) void event;
}

/** pi 1.6.0's compaction in a child process under Node 22, against the same fake provider. */
async function playPi(pi, api) {
  if (pi.skip) return { skipped: pi.skip };
  script();
  const child = spawn(pi.node, [fileURLToPath(new URL('./lib/pi-compaction-child.mjs', import.meta.url)), pi.bundle, api === 'openai-completions' ? fake.openaiBaseUrl : fake.anthropicBaseUrl, String(TURNS), String(WINDOW), api], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) return { skipped: `pi's child process exited with ${code}` };
  const { compactions } = JSON.parse(out.trim().split('\n').at(-1));
  return { compactions, ...billed(0) };
}

const piPackage = preparePi(root);
const plays = {};
const piPlays = {};
for (const [label, price] of Object.entries(PRICES)) {
  // pi's compaction does not depend on prices: one play per API
  piPlays[price.api] ??= await playPi(piPackage, price.api);
  plays[label] = { pi: piPlays[price.api], transcript: await playArbor(label, false), continuation: await playArbor(label, true) };
}
await fake.close();

const skipped = piPlays['anthropic-messages'].skipped;
const priced = Object.entries(PRICES).map(([label, price]) => {
  const play = plays[label];
  const of = (side) => (side.skipped ? undefined : { ...costOf(side, price) });
  const pi = of(play.pi);
  const transcript = of(play.transcript);
  const continuation = of(play.continuation);
  const ratio = (side, key) => (pi && side ? Number((side[key] / pi[key]).toFixed(3)) : NaN);
  return { label, price, pi, transcript, continuation, ratio: ratio(continuation, 'cost'), inputRatio: ratio(continuation, 'inputCost'), transcriptRatio: ratio(transcript, 'cost') };
});
const metrics = priced.map((p) => ({ name: `billed cost / pi ${PI_VERSION}'s, ${p.label}`, value: p.ratio, target: TARGET, unit: 'x' }))
  .map((m) => ({ ...m, pass: Number.isFinite(m.value) && m.value <= m.target }));
const result = { date: new Date().toISOString(), quick: QUICK, turns: TURNS, contextWindow: WINDOW, plays, priced, metrics, pass: !skipped && metrics.every((m) => m.pass) };
if (skipped) console.log(`compaction-cost: the pi column is skipped: ${skipped}`);
const resultsDir = process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'compaction-cost.json'), JSON.stringify(result, null, 2) + '\n');
/** One row per side and request kind of a price class. */
function kindRows(label, price, play) {
  const sides = [[`pi ${PI_VERSION}`, play.pi], ['Arbor transcript', play.transcript], ['Arbor (continuation where cheaper)', play.continuation]];
  return sides.filter(([, side]) => !side.skipped).flatMap(([name, side]) => Object.entries(side.kinds).map(([kind, t]) =>
    `| ${label} | ${name} | ${kind} | ${t.requests} | ${t.input} | ${t.cacheWrite} | ${t.cacheRead} | ${t.output} | ${costOf(t, price).cost} |`));
}
const tokensRow = (label, s) => (s.skipped ? `| ${label} | skipped: ${s.skipped} | | | | | |` : `| ${label} | ${s.compactions.length} | ${s.requests} | ${s.input} | ${s.cacheWrite} | ${s.cacheRead} | ${s.output} |`);
writeFileSync(
  join(resultsDir, 'compaction-cost.md'),
  [
    '# Compaction cost against pi',
    '',
    `Scripted session: ${TURNS} turns, ${WINDOW.toLocaleString('en')}-token window, default settings of each${QUICK ? ' (quick mode)' : ''}. Every summary request goes to the same loopback fake provider, which bills like the provider's prompt caching (Anthropic: cache_control breakpoints; OpenAI: automatic prefix caching, 128-token steps from 1,024). The agent's own request before each compaction primes the cache and is not counted.`,
    '',
    '| model (prices) | side | compactions | requests | uncached input | cache writes | cache reads | output |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(plays).flatMap(([api, play]) => [
      tokensRow(`${api} | pi ${PI_VERSION} compact()`, play.pi),
      tokensRow(`${api} | Arbor, summary from a transcript`, play.transcript),
      tokensRow(`${api} | Arbor, continuation when its prices make it cheaper`, play.continuation),
    ]),
    '',
    `Tool results sent as a reference to an identical earlier result of the same call (Arbor): ${Object.entries(plays).map(([label, play]) => `${label} ${play.transcript.skipped ? '—' : play.transcript.compactions.reduce((n, c) => n + c.repeatsReferenced, 0)}`).join(', ')} (the scripted session's tool outputs are all different).`,
    '',
    'Cost in units of the input price:',
    '',
    '| prices | cached read / write / output | pi | Arbor transcript | Arbor (continuation where cheaper) | Arbor / pi | input cost only | transcript / pi | target |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...priced.map((p) => `| ${p.label} | ${p.price.cacheRead} / ${p.price.cacheWrite} / ${p.price.output} | ${p.pi?.cost ?? '—'} | ${p.transcript?.cost ?? '—'} | ${p.continuation?.cost ?? '—'} | **${p.ratio}** | ${p.inputRatio} | ${p.transcriptRatio} | ≤ ${TARGET}: ${Number.isFinite(p.ratio) && p.ratio <= TARGET ? 'met' : 'NOT met'} |`),
    '',
    ...priced.filter((p) => p.pi && plays[p.label].pi.kinds?.['turn prefix']).map((p) => {
      const out = plays[p.label].pi.kinds['turn prefix'].output;
      const fairer = p.pi.cost - Math.round((out * 2 * p.price.output) / 3);
      return `Fairness, ${p.label}: the fake answers pi's turn-prefix requests with the whole checkpoint (${out} output tokens) where pi asks for a concise one; at a third of that, pi's cost would be ${fairer} and Arbor / pi ${(p.continuation.cost / fairer).toFixed(3)}.`;
    }),
    '',
    'Where the cost goes, by request kind (requests, uncached input, cache writes, cache reads, output; cost in units of the input price):',
    '',
    '| prices | side | kind | requests | uncached input | cache writes | cache reads | output | cost |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(PRICES).flatMap(([label, price]) => kindRows(label, price, plays[label])),
    '',
  ].join('\n'),
);
console.log(JSON.stringify({ priced, metrics, pass: result.pass }, null, 2));
process.exit(result.pass ? 0 : 1);
