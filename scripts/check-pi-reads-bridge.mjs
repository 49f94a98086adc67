#!/usr/bin/env node
// Checks that pi reads a background compaction committed with a bridge (docs/architecture.md, "Background
// compaction") unchanged: Arbor's store, runner and BackgroundCompaction write a session whose summary was
// written while four tool turns came in, committed with those turns bridged. pi's SessionManager opens the
// file; the context pi builds must start with the summary (its bridge section and the user's words in it)
// and keep the entries from the entry's firstKeptEntryId on, and Arbor's context must equal pi's. The file and
// pi's reading of it are checked in under test/fixtures/bridge/pi-1.6/, where
// test/unit/compaction/bridge-pi.test.ts compares them with what the current code builds.
//
// Run (pi 1.6.0 from npm, CONTRIBUTING.md "Regenerating the pi fixtures"):
//   PI_BUNDLE=<pi 1.6.0>/dist/bundle/index.js <node 22>/bin/node --import tsx scripts/check-pi-reads-bridge.mjs
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPiBundle } from './lib/pi-bundle.mjs';

const pi = await loadPiBundle();
const { SessionStore } = await import('../src/session/store.ts');
const { CompactionRunner, DEFAULT_COMPACTION_SETTINGS, REQUIRED_SECTIONS } = await import('../src/compaction/index.ts');
const { BackgroundCompaction } = await import('../src/agent/background-compaction.ts');

const work = mkdtempSync(join(tmpdir(), 'pi-bridge-'));
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const model = { provider: 'fake', id: 'fake-1', name: 'Fake', api: 'openai-completions', contextWindow: 200_000, maxOutputTokens: 32_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
let clock = Date.parse('2026-03-01T00:00:00.000Z');
const now = () => (clock += 1000);
const filler = (n, seed) => `${seed} `.concat('lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27))).slice(0, n);
const summarizer = {
  async *stream(req) {
    const recap = JSON.stringify(req.messages).includes('Write a recap');
    yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: recap ? 'Recap.' : REQUIRED_SECTIONS.join('\n\n') }], api: 'x', provider: 'fake', model: 'fake-1', usage, stopReason: 'stop', timestamp: now() } };
  },
};

const store = await SessionStore.create({ dir: work, cwd: '/work/project' });
const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 800, thresholdTokens: 10_000, remoteEnabled: false };
const runner = new CompactionRunner({ store, settings: () => settings, models: () => ({ current: model, available: [model] }), providerFor: () => summarizer });
const background = new BackgroundCompaction({ runner, branch: () => store.getBranch(), settings: () => settings, model: () => model, now });
async function turn(n) {
  await store.appendMessage({ role: 'user', content: [{ type: 'text', text: `Ask ${n}: keep the port at ${5400 + n}.` }], timestamp: now() });
  const call = { type: 'toolCall', id: `call_${n}`, name: 'read', arguments: { path: `src/m${n}.ts` } };
  await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'reading' }, call], api: 'openai-completions', provider: 'fake', model: 'fake-1', usage, stopReason: 'toolUse', timestamp: now() });
  await store.appendMessage({ role: 'toolResult', toolCallId: call.id, toolName: 'read', content: [{ type: 'text', text: filler(1200, `file ${n}`) }], isError: false, timestamp: now() });
  await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: filler(900, `reply ${n}`) }], api: 'openai-completions', provider: 'fake', model: 'fake-1', usage, stopReason: 'stop', timestamp: now() });
}

for (let n = 0; n < 6; n++) await turn(n);
background.consider(9_700);
await background.pending;
for (let n = 6; n < 12; n++) await turn(n);
const prepared = await background.take(10_100);
assert.ok(prepared, 'the background summary is taken');
const outcome = await runner.run({ reason: 'threshold', prepared });
assert.equal(outcome.status, 'compacted', JSON.stringify(outcome));
await store.appendMessage({ role: 'user', content: [{ type: 'text', text: 'And now the last question.' }], timestamp: now() });

const read = pi.SessionManager.open(store.file, work);
const compaction = read.getEntries().find((e) => e.type === 'compaction');
assert.ok(compaction.details.bridge, 'the entry records its bridge');
assert.match(compaction.summary, /^## Since This Summary Was Written$/m);
const context = read.buildSessionContext();
const sent = pi.convertToLlm(context.messages);
const sentText = sent.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('\n'))).join('\n');
assert.ok(sentText.includes('## Since This Summary Was Written'), 'pi sends the bridge');
for (let n = 0; n < 12; n++) assert.ok(sentText.includes(`Ask ${n}: keep the port at ${5400 + n}.`), `pi sends ask ${n} word for word`);
const keptIds = read.getBranch().slice(read.getBranch().findIndex((e) => e.id === compaction.firstKeptEntryId)).filter((e) => e.type === 'message').length;
assert.equal(context.messages.length, 1 + keptIds, 'pi keeps the entries from firstKeptEntryId on');
const arbor = JSON.parse(JSON.stringify((await SessionStore.open(store.file)).buildContext()));
assert.deepEqual(arbor, JSON.parse(JSON.stringify(context)), "Arbor's context of the file equals pi's");
const outDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'bridge', 'pi-1.6');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
copyFileSync(store.file, join(outDir, 'session.jsonl'));
writeFileSync(join(outDir, 'pi-context.json'), JSON.stringify({ piVersion: pi.VERSION, context, sent }, null, 1) + '\n');
rmSync(work, { recursive: true, force: true });
console.log(`pi ${pi.VERSION}: read the bridged compaction (${compaction.details.bridge.entries} messages, ~${compaction.details.bridge.tokens} tokens shortened to ~${compaction.details.bridge.sectionTokens}); its context holds the bridge and every ask word for word, kept from firstKeptEntryId; Arbor's context equals pi's.`);
