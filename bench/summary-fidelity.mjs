#!/usr/bin/env node
// Summary fidelity benchmark. Run: `node bench/summary-fidelity.mjs`.
//
// A scripted coding session states its constraints once (early, in passing, as corrections, one pinned
// message) and reads and edits files; it is then compacted 5 times in a row by a deliberately lossy
// summarizer that answers only the empty section headings. After every compaction the model's context
// (built by the real context builder from the entries) is searched for every constraint, verbatim, and
// every path read or modified. Target: nothing lost (0 constraints, 0 paths) after every round, with at
// most one corrective summarizer request per compaction. Results: bench/results/summary-fidelity.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchRoot, ensureTsx } from './lib/under-tsx.mjs';

const root = benchRoot(import.meta.url);
// The engine is TypeScript: run under the tsx loader (this measures tokens, not time).
ensureTsx(import.meta.url);
const engine = await import('../src/compaction/index.ts');
const { REQUIRED_SECTIONS } = await import('../src/compaction/guard.ts');
const { PIN_CUSTOM_TYPE } = await import('../src/compaction/constraints.ts');
const { contextFromPath } = await import('../src/session/context.ts');

const ROUNDS = 5;
const settings = { ...engine.DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 2_000 };
const model = {
  provider: 'fake', id: 'fake-1', name: 'Fake', api: 'openai-completions', contextWindow: 128_000,
  maxOutputTokens: 32_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};
const usage0 = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const filler = (n) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);

const entries = [];
let n = 0;
const append = (fields) => {
  const entry = { id: `e${n}`, parentId: n > 0 ? `e${n - 1}` : null, timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(), ...fields };
  n++;
  entries.push(entry);
  return entry;
};
const user = (content) => append({ type: 'message', message: { role: 'user', content, timestamp: n } });
const toolStep = (name, path) => {
  const call = { type: 'toolCall', id: `c${n}`, name, arguments: { path } };
  append({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: filler(200) }, call], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'toolUse', timestamp: n } });
  append({ type: 'message', message: { role: 'toolResult', toolCallId: call.id, toolName: name, content: [{ type: 'text', text: filler(3_000) }], isError: false, timestamp: n } });
};
const reply = () => append({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: filler(600) }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'stop', timestamp: n } });

const constraints = [
  'Never add runtime dependencies to package.json.',
  'Keep the public API of src/api.ts unchanged.',
  'Use tabs, not spaces, in the Makefile.',
  'No, the tests live in spec/, not test/.',
  'Always write dates as ISO 8601 in UTC.',
  'The staging database is read-only for us; never run migrations against it.',
];
const pinnedText = 'Release checklist: bump version, tag vX.Y.Z, then publish with --access public.';
const paths = new Set();

// The session: constraints are stated once each, spread over the first turns; files are read and edited.
user(`Build the CSV exporter. ${constraints[0]} ${constraints[1]}`);
for (let turn = 0; turn < 24; turn++) {
  if (turn === 3) user(`Small thing. ${constraints[2]}`);
  else if (turn === 5) user(`${constraints[3]} Please move them.`);
  else if (turn === 8) user(`Go on with the formatting. ${constraints[4]}`);
  else if (turn === 10) {
    const pin = user(pinnedText);
    append({ type: 'custom', customType: PIN_CUSTOM_TYPE, data: { targetId: pin.id, pinned: true } });
  } else if (turn === 12) user(`Careful: ${constraints[5]}`);
  else user(`Turn ${turn}: continue with the next part. ${filler(300)}`);
  for (const [name, path] of [['read', `src/module${turn % 9}.ts`], [turn % 2 ? 'edit' : 'write', `src/out${turn}.ts`]]) {
    toolStep(name, path);
    paths.add(path);
  }
  reply();
}

let requests = 0;
const provider = {
  async *stream() {
    requests++;
    const text = REQUIRED_SECTIONS.join('\n\n');
    yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'stop', timestamp: Date.now() } };
  },
};

const expected = [...constraints, pinnedText];
const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  if (round > 0) {
    user(`Round ${round}: more work. ${filler(400)}`);
    toolStep('read', `src/late${round}.ts`);
    paths.add(`src/late${round}.ts`);
    reply();
  }
  const preparation = engine.prepareCompaction(entries, settings);
  if (!preparation) throw new Error(`round ${round}: nothing to compact`);
  const before = requests;
  const prefixRequests = preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0 && !engine.mergesSplitTurn(preparation) ? 1 : 0;
  const result = await engine.compact(preparation, { provider, model, shortSummary: false });
  append({ type: 'compaction', summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore: result.tokensBefore, details: result.details });
  const context = JSON.stringify(contextFromPath(entries).messages);
  const has = (text) => context.includes(JSON.stringify(text).slice(1, -1));
  rounds.push({
    round: round + 1,
    constraintsLost: expected.filter((c) => !has(c)).length,
    lost: expected.filter((c) => !has(c)),
    pathsLost: [...paths].filter((p) => !has(p)).length,
    corrections: requests - before - 1 - prefixRequests,
    restoredVerbatim: result.details.restoredConstraints ?? 0,
  });
}

const worst = (key) => Math.max(...rounds.map((r) => r[key]));
const result = {
  date: new Date().toISOString(),
  rounds,
  constraintsStated: expected.length,
  pathsTouched: paths.size,
  metrics: [
    { name: `constraints lost after any of ${ROUNDS} lossy compactions (of ${expected.length})`, value: worst('constraintsLost'), target: 0, unit: '' },
    { name: `paths lost after any of ${ROUNDS} lossy compactions (of ${paths.size})`, value: worst('pathsLost'), target: 0, unit: '' },
    { name: 'corrective summarizer requests per compaction (one when the summary dropped words)', value: worst('corrections'), target: 1, unit: '' },
  ],
};
mkdirSync((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), { recursive: true });
writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'summary-fidelity.json'), JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result, null, 2));
process.exit(result.metrics.every((m) => m.value <= m.target) ? 0 : 1);
