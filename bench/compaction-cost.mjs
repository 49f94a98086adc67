#!/usr/bin/env node
// Compaction cost benchmark. Run: `node bench/compaction-cost.mjs`.
//
// Plays one long scripted coding session (user requests, assistant tool calls, large tool results)
// through the real compaction engine with a recording fake provider: after every turn the context is
// measured and compacted when it crosses the threshold. At the same compaction points, in the same run,
// a naive summarizer that resends the whole history every time is billed for comparison.
// Measured: input tokens billed (chars/4 of system prompt + request messages, the same rule for both).
// Target: engine / naive ≤ 0.5. Results: bench/results/compaction-cost.{json,md}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchRoot, ensureTsx } from './lib/under-tsx.mjs';

const root = benchRoot(import.meta.url);
// The engine is TypeScript: run under the tsx loader (this measures tokens, not time).
ensureTsx(import.meta.url);
const engine = await import('../src/compaction/index.ts');
const { convertToLlm } = await import('../src/session/convert.ts');
const { compactionPrompt } = await import('../src/compaction/prompt-text.ts');

const TURNS = 120;
const CONTEXT_WINDOW = 128_000;
const settings = { ...engine.DEFAULT_COMPACTION_SETTINGS };
const model = {
  provider: 'fake', id: 'fake-1', name: 'Fake', api: 'openai-completions', contextWindow: CONTEXT_WINDOW,
  maxOutputTokens: 32_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};
const usage0 = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

// Deterministic pseudo-random text so runs are comparable.
let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const words = ['parser', 'token', 'buffer', 'session', 'compaction', 'tree', 'branch', 'leaf', 'render', 'cache', 'index', 'module'];
const text = (tokens) => Array.from({ length: Math.ceil(tokens * 4 / 7) }, () => words[Math.floor(rand() * words.length)]).join(' ');

const entries = [];
let n = 0;
const append = (fields) => {
  const entry = { id: `e${n}`, parentId: n > 0 ? `e${n - 1}` : null, timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(), ...fields };
  n++;
  entries.push(entry);
  return entry;
};
const message = (m) => append({ type: 'message', message: { timestamp: Date.now(), ...m } });

const tokensOfRequest = (req) => Math.ceil((req.systemPrompt.length + JSON.stringify(req.messages.map((m) => m.content)).length) / 4);
const engineRequests = [];
const provider = {
  async *stream(req) {
    engineRequests.push(tokensOfRequest(req));
    const prompt = JSON.stringify(req.messages);
    const answer = prompt.includes('Write a recap')
      ? 'We refactored the parser and will continue with the cache.'
      : ['## Goal', text(200), '## Constraints & Preferences', '- (none)', '## Progress', '### Done', `- [x] ${text(300)}`, '### In Progress', '- [ ] x', '### Blocked', '- (none)', '## Key Decisions', `- **A**: ${text(100)}`, '## Next Steps', '1. go on', '## Critical Context', `- ${text(200)}`].join('\n');
    yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: answer }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'stop', timestamp: Date.now() } };
  },
};

// Naive baseline: every compaction sends the whole history since the session start, as is.
// A second baseline also resends everything but cuts tool output to 2000 chars like the engine, to
// show how much of the saving comes from not resending history rather than from truncation.
const naiveRequests = [];
const naiveTruncatedRequests = [];
function billNaive() {
  const all = convertToLlm(entries.filter((e) => e.type === 'message').map((e) => e.message));
  for (const [list, limit] of [[naiveRequests, Number.MAX_SAFE_INTEGER], [naiveTruncatedRequests, engine.TOOL_RESULT_MAX_CHARS]]) {
    const prompt = `<conversation>\n${engine.serializeConversation(all, limit)}\n</conversation>\n\n${compactionPrompt('summary')}`;
    list.push(Math.ceil((compactionPrompt('system').length + prompt.length) / 4));
  }
}

let compactions = 0;
for (let turn = 0; turn < TURNS; turn++) {
  message({ role: 'user', content: `Turn ${turn}: ${text(150 + rand() * 300)}` });
  const steps = 1 + Math.floor(rand() * 3);
  for (let s = 0; s < steps; s++) {
    const name = rand() < 0.5 ? 'read' : rand() < 0.5 ? 'edit' : 'bash';
    const call = { type: 'toolCall', id: `c${turn}-${s}`, name, arguments: { path: `src/file${Math.floor(rand() * 20)}.ts` } };
    message({ role: 'assistant', content: [{ type: 'text', text: text(80) }, call], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'toolUse' });
    message({ role: 'toolResult', toolCallId: call.id, toolName: name, content: [{ type: 'text', text: text(800 + rand() * 3000) }], isError: false });
  }
  message({ role: 'assistant', content: [{ type: 'text', text: text(200) }], api: 'x', provider: 'fake', model: 'fake-1', usage: usage0, stopReason: 'stop' });

  const tokens = engine.measureContext(entries).tokens;
  if (!engine.shouldCompact(tokens, CONTEXT_WINDOW, settings)) continue;
  const preparation = engine.prepareCompaction(entries, settings);
  if (!preparation) continue;
  const result = await engine.compact(preparation, { provider, model });
  billNaive();
  append({ type: 'compaction', summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore: result.tokensBefore, details: result.details });
  compactions++;
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const engineTotal = sum(engineRequests);
const naiveTotal = sum(naiveRequests);
const result = {
  turns: TURNS,
  entries: entries.length,
  contextWindow: CONTEXT_WINDOW,
  compactions,
  engine: { requests: engineRequests.length, inputTokens: engineTotal, perCompaction: Math.round(engineTotal / Math.max(1, compactions)) },
  naive: { requests: naiveRequests.length, inputTokens: naiveTotal, perCompaction: Math.round(naiveTotal / Math.max(1, compactions)) },
  naiveTruncated: { requests: naiveTruncatedRequests.length, inputTokens: sum(naiveTruncatedRequests) },
  ratio: Number((engineTotal / naiveTotal).toFixed(3)),
  ratioVsTruncated: Number((engineTotal / sum(naiveTruncatedRequests)).toFixed(3)),
  target: 0.5,
  pass: engineTotal / naiveTotal <= 0.5,
};
mkdirSync((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), { recursive: true });
writeFileSync(join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'compaction-cost.json'), JSON.stringify(result, null, 2) + '\n');
writeFileSync(
  join((process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')), 'compaction-cost.md'),
  [
    '# Compaction cost',
    '',
    `Scripted session: ${TURNS} turns, ${entries.length} entries, ${CONTEXT_WINDOW.toLocaleString('en')}-token window, default settings; ${compactions} compactions.`,
    'Input tokens billed (chars/4 of system prompt + request), engine vs a summarizer that resends the whole history at the same points, same run.',
    '',
    '| | requests | input tokens | per compaction |',
    '|---|---:|---:|---:|',
    `| engine (span + previous summary, tool output ≤ 2000 chars, recap from summary) | ${result.engine.requests} | ${engineTotal} | ${result.engine.perCompaction} |`,
    `| naive (whole history every time) | ${result.naive.requests} | ${naiveTotal} | ${result.naive.perCompaction} |`,
    `| naive, tool output also cut to 2000 chars | ${result.naiveTruncated.requests} | ${result.naiveTruncated.inputTokens} | ${Math.round(result.naiveTruncated.inputTokens / Math.max(1, compactions))} |`,
    '',
    `Ratio engine / naive: **${result.ratio}** (target ≤ ${result.target}: ${result.pass ? 'met' : 'NOT met'}); engine / truncated naive: ${result.ratioVsTruncated}.`,
    '',
  ].join('\n'),
);
console.log(JSON.stringify(result, null, 2));
process.exit(result.pass ? 0 : 1);
