#!/usr/bin/env node
// pi 1.6.0's own compaction of the scripted session of ./cost-session.mjs, for bench/compaction-cost.mjs.
// Runs under Node >= 22.19 with pi's bundle (./pi-package.mjs prepares both). After every turn it builds
// pi's context (buildSessionContext), estimates it with pi's estimateTokens, asks pi's shouldCompact and,
// when due, runs pi's prepareCompaction and compact() against the loopback fake provider given in argv.
// Prints one JSON line: the compactions it made (turn, tokens before, kept entry).
import { pathToFileURL } from 'node:url';
import { costSession } from './cost-session.mjs';

const [bundle, baseUrl, turnsArg, windowArg, api = 'anthropic-messages'] = process.argv.slice(2);
const pi = await import(pathToFileURL(bundle).href);
const prepareCompaction = pi.__arborPrepareCompaction;
if (typeof prepareCompaction !== 'function' || typeof pi.compact !== 'function') throw new Error('pi bundle without compact/prepareCompaction');
const window = Number(windowArg);
const model = api === 'openai-completions'
  ? { id: 'fake-gpt', name: 'Fake GPT', api, provider: 'openai', baseUrl, reasoning: false, input: ['text'], cost: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 }, contextWindow: window, maxTokens: 8192 }
  : { id: 'fake-claude', name: 'Fake Claude', api, provider: 'anthropic', baseUrl, reasoning: false, input: ['text'], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: window, maxTokens: 8192 };
const settings = { ...pi.DEFAULT_COMPACTION_SETTINGS };
const session = costSession({ api, provider: model.provider, model: model.id });
const entries = [];
let n = 0;
const append = (fields) => {
  const entry = { id: `p${n}`, parentId: n > 0 ? `p${n - 1}` : null, timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(), ...fields };
  n++;
  entries.push(entry);
};
const compactions = [];
for (let turn = 0; turn < Number(turnsArg); turn++) {
  for (const message of session.turn(turn)) append({ type: 'message', message });
  const context = pi.buildSessionContext(entries);
  const tokens = context.messages.reduce((sum, m) => sum + pi.estimateTokens(m), 0);
  if (!pi.shouldCompact(tokens, window, settings)) continue;
  const preparation = prepareCompaction(entries, settings);
  if (!preparation) continue;
  const result = await pi.compact(preparation, model, 'fake-key');
  append({ type: 'compaction', summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore: result.tokensBefore, details: result.details });
  compactions.push({ turn, tokensBefore: result.tokensBefore, splitTurn: preparation.isSplitTurn });
}
console.log(JSON.stringify({ compactions, entries: entries.length }));
