#!/usr/bin/env node
// What the user said, verbatim, after repeated compaction (issue 25 item 1; docs/architecture.md, "What the
// user said"). Run: `node bench/user-words.mjs` (all 216 corpus items, four budgets) or
// `node bench/user-words.mjs --quick` (CI: 72 items, two budgets).
//
// The corpus (test/fixtures/user-words/corpus.json) is real instructions, preferences and facts quoted from
// public AGENTS.md / CLAUDE.md / rules files and issue threads. A scripted session has the user say them
// one per turn, in varied lead-ins, with a tool call, a 1,500-character tool result and a reply after each,
// spread over 6 rounds; after each round the session is compacted by a summarizer that keeps nothing (it
// answers the required headings, empty, and never writes a ledger). After each compaction the model's
// context, built by the real context builder from the entries, is searched for every item said so far.
// Reported: the share of items found verbatim after each compaction, per budget, and the same figure for
// the old design (the keyword classifier's sentences put back under a kept section), replayed in this run
// from the classifier code that is still in the tree (or, with BASELINE_ROOT=<checkout of 9bd794a>, by
// that checkout's own engine). Target: 100% after every compaction while the user's text fits the budget.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchRoot, ensureTsx } from './lib/under-tsx.mjs';

const root = benchRoot(import.meta.url);
ensureTsx(import.meta.url);
const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const engine = await import('../src/compaction/index.ts');
const { REQUIRED_SECTIONS } = await import('../src/compaction/guard.ts');
const { contextFromPath } = await import('../src/session/context.ts');
const { convertToLlm } = await import('../src/session/convert.ts');
const { collectConstraints, constraintsFromDetails } = await import('../src/compaction/constraints.ts');
const { keepConstraints } = await import('../src/compaction/constraint-guard.ts');
const baselineRoot = process.env.BASELINE_ROOT;
const oldEngine = baselineRoot ? await import(pathToFileURL(join(baselineRoot, 'src/compaction/index.ts')).href) : undefined;

const ROUNDS = 6;
const corpus = JSON.parse(readFileSync(join(root, 'test/fixtures/user-words/corpus.json'), 'utf8')).items;
const items = quick ? corpus.filter((_, i) => i % 3 === 0) : corpus;
const BUDGETS = quick ? [20_000, 1_000] : [20_000, 4_000, 2_000, 1_000];
const settings = { ...engine.DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 1_500 };
const model = {
  provider: 'fake', id: 'fake-1', name: 'Fake', api: 'openai-completions', contextWindow: 200_000,
  maxOutputTokens: 32_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};
const usage0 = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const filler = (n, seed) => `${seed} `.concat('lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27))).slice(0, n);
/** How users lead into what they say: the item's words stay intact inside. */
const LEAD_INS = [(t) => t, (t) => `Also: ${t}`, (t) => `One more thing before you go on.\n${t}`, (t) => `${t} Thanks!`, (t) => `ok, and fyi -- ${t}`, (t) => `Quick note for the rest of this task:\n\n${t}\n\nNow carry on with the parser.`];

function newSession() {
  const entries = [];
  const append = (fields) => {
    const id = `e${entries.length}`;
    entries.push({ id, parentId: entries.length ? entries[entries.length - 1].id : null, timestamp: new Date(1_700_000_000_000 + entries.length * 1000).toISOString(), ...fields });
    return id;
  };
  const user = (content) => append({ type: 'message', message: { role: 'user', content, timestamp: entries.length } });
  const assistant = (content, stopReason) => append({ type: 'message', message: { role: 'assistant', content, api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason, timestamp: entries.length } });
  const turn = (text, n) => {
    user(text);
    const call = { type: 'toolCall', id: `c${n}`, name: 'read', arguments: { path: `src/m${n % 17}.ts` } };
    assistant([{ type: 'text', text: filler(200, `step ${n}`) }, call], 'toolUse');
    append({ type: 'message', message: { role: 'toolResult', toolCallId: call.id, toolName: 'read', content: [{ type: 'text', text: filler(1_500, `file ${n}`) }], isError: false, timestamp: entries.length } });
    assistant([{ type: 'text', text: filler(600, `reply ${n}`) }], 'stop');
  };
  return { entries, append, turn };
}

const lossyProvider = () => {
  const counter = { requests: 0 };
  return {
    counter,
    async *stream() {
      counter.requests++;
      const text = REQUIRED_SECTIONS.join('\n\n');
      yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'stop', timestamp: Date.now() } };
    },
  };
};

/** Every text of the messages sent to the model (context built from the entries, then converted), joined. */
function contextText(entries) {
  const blocks = (c) => (typeof c === 'string' ? c : c.map((b) => b.text ?? '').join('\n'));
  return convertToLlm(contextFromPath(entries).messages).map((m) => blocks(m.content)).join('\n');
}

/** The summary the old design stored: the summarizer's text, plus the classifier sentences it lost, verbatim. */
async function oldCompact(entries, preparation) {
  if (oldEngine) return oldEngine.compact(preparation, { provider: lossyProvider(), model, shortSummary: false });
  const previous = [...entries].reverse().find((e) => e.type === 'compaction');
  const span = preparation.summarizeEntryIds.concat(preparation.turnPrefixEntryIds).map((id) => ({ id, message: entries.find((e) => e.id === id).message }));
  const constraints = collectConstraints(previous ? constraintsFromDetails(previous.details, false) : [], span, new Set());
  return { summary: keepConstraints(REQUIRED_SECTIONS.join('\n\n'), constraints).summary, firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, details: { constraints } };
}

async function play(mode, budget) {
  const session = newSession();
  const provider = lossyProvider();
  const perRound = Math.ceil(items.length / ROUNDS);
  const curve = [];
  let said = 0;
  let sectionTokens = 0;
  let ledgerLines = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const item of items.slice(round * perRound, (round + 1) * perRound)) {
      session.turn(LEAD_INS[said % LEAD_INS.length](item.text), said);
      said++;
      if (said % 4 === 0) session.turn(`Next step: ${filler(120, `task ${said}`)}`, 1000 + said);
    }
    session.turn(`Round ${round + 1} done; continue.`, 5000 + round);
    const engineFor = mode === 'old' && oldEngine ? oldEngine : engine;
    const preparation = engineFor.prepareCompaction(session.entries, settings, { userWordsTokens: budget });
    if (!preparation) throw new Error(`${mode} ${budget}: round ${round + 1} has nothing to compact`);
    const result = mode === 'old' ? await oldCompact(session.entries, preparation) : await engine.compact(preparation, { provider, model, shortSummary: false });
    session.append({ type: 'compaction', summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore: result.tokensBefore, details: result.details });
    const context = contextText(session.entries);
    const saidSoFar = items.slice(0, said);
    const found = saidSoFar.filter((item) => context.includes(item.text));
    const section = result.summary.indexOf('## What the User Said (verbatim)');
    sectionTokens = section >= 0 ? Math.ceil((result.summary.length - section) / 4) : 0;
    ledgerLines = Math.max(ledgerLines, result.details?.userWords?.ledger?.length ?? 0);
    curve.push({ compaction: round + 1, said: saidSoFar.length, verbatim: found.length, share: Number((found.length / saidSoFar.length).toFixed(4)) });
  }
  const last = curve[curve.length - 1];
  const byKind = Object.fromEntries(['instruction', 'fact', 'preference'].map((kind) => {
    const context = contextText(session.entries);
    const ofKind = items.filter((i) => i.kind === kind);
    return [kind, Number((ofKind.filter((i) => context.includes(i.text)).length / ofKind.length).toFixed(4))];
  }));
  return { mode, budgetTokens: budget, curve, finalShare: last.share, byKind, summarizerRequests: provider.counter.requests, userWordsSectionTokens: sectionTokens, fits: ledgerLines === 0, maxLedgerLines: ledgerLines };
}

const userTokens = Math.ceil(items.reduce((sum, item) => sum + item.text.length, 0) / 4);
const runs = [];
for (const budget of BUDGETS) runs.push(await play('new', budget));
const old = await play('old', BUDGETS[0]);
// "Fits": no compaction of the run had to put a message into the ledger.
const fits = runs.filter((r) => r.fits);
if (fits.length === 0) throw new Error('no budget held the whole corpus: the within-budget figure would be empty');
const minWithin = Math.min(...fits.flatMap((r) => r.curve.map((c) => c.share)));
const result = {
  date: new Date().toISOString(),
  quick,
  corpus: { items: items.length, of: corpus.length, estimatedTokens: userTokens, byKind: Object.fromEntries(['instruction', 'fact', 'preference'].map((k) => [k, items.filter((i) => i.kind === k).length])) },
  rounds: ROUNDS,
  baseline: oldEngine ? `engine at ${baselineRoot}` : 'classifier replayed in this run (src/compaction/constraints.ts + constraint-guard.ts)',
  runs,
  old,
  metrics: [
    { name: `items lost within the budget after any of ${ROUNDS} lossy compactions (of ${items.length})`, value: Math.round((1 - minWithin) * items.length), target: 0, unit: '' },
    { name: 'share of the items lost within the budget, worst compaction', value: Number((1 - minWithin).toFixed(4)), target: 0, unit: '' },
  ],
};
// quick mode (run-all --quick, CI) writes to the git-ignored folder it names, never over the measured figures
const resultsDir = process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'user-words.json'), JSON.stringify(result, null, 2) + '\n');
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const md = [
  '# What the user said, after 6 lossy compactions',
  '',
  `${result.date}${quick ? ' (quick mode)' : ''}. Corpus: ${items.length} public instructions, preferences and facts (about ${userTokens.toLocaleString('en-US')} tokens), said one per turn with tool traffic between; a summarizer that keeps nothing compacts after each of ${ROUNDS} rounds. Share of the items said so far that are in the model's context verbatim:`,
  '',
  `| design | budget (tokens) | ${runs[0].curve.map((c) => `after ${c.compaction}`).join(' | ')} | summarizer requests |`,
  `|---|---:|${runs[0].curve.map(() => '---:').join('|')}|---:|`,
  ...runs.map((r) => `| verbatim user words${r.fits ? ' (fits)' : ''} | ${r.budgetTokens.toLocaleString('en-US')} | ${r.curve.map((c) => pct(c.share)).join(' | ')} | ${r.summarizerRequests} |`),
  `| old keyword classifier | – | ${old.curve.map((c) => pct(c.share)).join(' | ')} | – |`,
  '',
  `By kind after the last compaction (budget ${BUDGETS[0].toLocaleString('en-US')}): ${Object.entries(runs[0].byKind).map(([k, v]) => `${k} ${pct(v)}`).join(', ')}; old classifier: ${Object.entries(old.byKind).map(([k, v]) => `${k} ${pct(v)}`).join(', ')}.`,
  `Size of the "What the User Said" section after the last compaction: ${runs.map((r) => `${r.userWordsSectionTokens.toLocaleString('en-US')} tokens (budget ${r.budgetTokens.toLocaleString('en-US')})`).join(', ')}.`,
  `Baseline: ${result.baseline}.`,
  '',
].join('\n');
writeFileSync(join(resultsDir, 'user-words.md'), md);
console.log(md);
process.exit(result.metrics.every((m) => m.value <= m.target) ? 0 : 1);
