#!/usr/bin/env node
// Checks that pi reads Arbor's compactions unchanged and sends the user's kept words to the model
// (docs/architecture.md, "What the user said"). Arbor's own store and compaction runner write a session:
// 60 corpus items said one per turn with tool traffic between, a large paste, a pinned message, then
// three compactions by a summarizer that keeps nothing. pi's SessionManager opens the file; the context
// pi builds (buildSessionContext) and the messages pi sends (convertToLlm) must hold every item, the
// pinned message and the paste's first and last lines verbatim, and Arbor's context must equal pi's.
// The file and pi's reading of it are checked in under test/fixtures/user-words/pi-1.6/, where
// test/unit/compaction/user-words-pi.test.ts compares them with what the current code builds.
//
// Run (pi 1.6.0 from npm, CONTRIBUTING.md "Regenerating the pi fixtures"):
//   PI_BUNDLE=<pi 1.6.0>/dist/bundle/index.js <node 22>/bin/node --import tsx scripts/check-pi-reads-user-words.mjs
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPiBundle } from './lib/pi-bundle.mjs';

const pi = await loadPiBundle();
const { SessionStore } = await import('../src/session/store.ts');
const { CompactionRunner, DEFAULT_COMPACTION_SETTINGS, REQUIRED_SECTIONS } = await import('../src/compaction/index.ts');
const { PIN_CUSTOM_TYPE, pinData } = await import('../src/session/pins.ts');

const root = join(import.meta.dirname, '..');
const outDir = join(root, 'test', 'fixtures', 'user-words', 'pi-1.6');
const items = JSON.parse(readFileSync(join(root, 'test/fixtures/user-words/corpus.json'), 'utf8')).items.filter((_, i) => i % 4 === 1).slice(0, 60);
const work = mkdtempSync(join(tmpdir(), 'pi-user-words-'));
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const model = { provider: 'fake', id: 'fake-1', name: 'Fake', api: 'openai-completions', contextWindow: 200_000, maxOutputTokens: 32_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
let clock = Date.parse('2026-03-01T00:00:00.000Z');
const now = () => (clock += 1000);
const filler = (n, seed) => `${seed} `.concat('lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27))).slice(0, n);

const lossy = {
  async *stream() {
    yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: REQUIRED_SECTIONS.join('\n\n') }], api: 'x', provider: 'fake', model: 'fake-1', usage, stopReason: 'stop', timestamp: now() } };
  },
};

const store = await SessionStore.create({ dir: work, cwd: '/work/project' });
const runner = new CompactionRunner({
  store,
  settings: () => ({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 600 }),
  models: () => ({ current: model, available: [model] }),
  providerFor: () => lossy,
});
async function turn(text, n) {
  const entry = await store.appendMessage({ role: 'user', content: [{ type: 'text', text }], timestamp: now() });
  const call = { type: 'toolCall', id: `call_${n}`, name: 'read', arguments: { path: `src/m${n}.ts` } };
  await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'reading' }, call], api: 'openai-completions', provider: 'fake', model: 'fake-1', usage, stopReason: 'toolUse', timestamp: now() });
  await store.appendMessage({ role: 'toolResult', toolCallId: call.id, toolName: 'read', content: [{ type: 'text', text: filler(400, `file ${n}`) }], isError: false, timestamp: now() });
  await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: filler(300, `reply ${n}`) }], api: 'openai-completions', provider: 'fake', model: 'fake-1', usage, stopReason: 'stop', timestamp: now() });
  return entry.id;
}

const pasteLines = Array.from({ length: 400 }, (_, i) => `2026-03-01T10:${String(i % 60).padStart(2, '0')} worker-${i} processed batch ${i * 7}`);
const paste = `Here is the log from last night:\n${pasteLines.join('\n')}\nWhy did batch 2793 stall?`;
const pinnedText = 'Release checklist: bump the version, tag vX.Y.Z, publish with --access public.';
let n = 0;
for (let round = 0; round < 3; round++) {
  for (const item of items.slice(round * 20, round * 20 + 20)) await turn(item.text, n++);
  if (round === 0) {
    const pinned = await turn(pinnedText, n++);
    await store.appendCustomEntry(PIN_CUSTOM_TYPE, pinData(pinned, true));
    await turn(paste, n++);
  }
  await turn(`Round ${round + 1} done, go on.`, n++);
  const outcome = await runner.run({ reason: 'manual' });
  assert.equal(outcome.status, 'compacted', `round ${round + 1}: ${JSON.stringify(outcome)}`);
}
await turn('And now the last question.', n++);

const read = pi.SessionManager.open(store.file, work);
const context = read.buildSessionContext();
const sent = pi.convertToLlm(context.messages);
const sentText = sent.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('\n'))).join('\n');
for (const item of items) assert.ok(sentText.includes(item.text), `pi sends "${item.text}"`);
assert.ok(sentText.includes(pinnedText), 'pi sends the pinned message');
assert.ok(sentText.includes(pasteLines[0]) && sentText.includes('Why did batch 2793 stall?'), "pi sends the paste's first and last lines");
assert.ok(!sentText.includes(pasteLines[200]), "the paste's middle is left out");
assert.match(sentText, /more lines \([\d,]+ characters\) of this message are left out here/);
const compactions = read.getEntries().filter((e) => e.type === 'compaction');
assert.equal(compactions.length, 3);
for (const c of compactions) assert.deepEqual(Object.keys(c).filter((k) => ['summary', 'firstKeptEntryId', 'tokensBefore', 'details'].includes(k)).sort(), ['details', 'firstKeptEntryId', 'summary', 'tokensBefore']);
const arbor = JSON.parse(JSON.stringify((await SessionStore.open(store.file)).buildContext()));
assert.deepEqual(arbor, JSON.parse(JSON.stringify(context)), "Arbor's context of the file equals pi's");

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
copyFileSync(store.file, join(outDir, 'session.jsonl'));
writeFileSync(join(outDir, 'pi-context.json'), JSON.stringify({ piVersion: pi.VERSION, context, sent }, null, 1) + '\n');
writeFileSync(join(outDir, 'said.json'), JSON.stringify({ items: items.map((i) => i.id), pinned: pinnedText, pasteFirst: pasteLines[0], pasteLast: 'Why did batch 2793 stall?', pasteMiddle: pasteLines[200] }, null, 1) + '\n');
rmSync(work, { recursive: true, force: true });
console.log(`pi ${pi.VERSION}: read ${read.getEntries().length} entries, 3 compactions; its context holds all ${items.length} items, the pinned message and the paste's ends verbatim; Arbor's context equals pi's.`);
