// A message over the user-words budget is quoted once per summary request: in the transcript form, one
// whose whole text is in <conversation> (a message of the span itself) is named in the ledger request by
// its opening, not sent a second time; one carried from an earlier compaction (not in the transcript) is
// quoted whole, since the summarizer has nothing else to read it from (docs/architecture.md, "Compaction cost").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compact } from '../../../src/compaction/summarize';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { REQUIRED_SECTIONS } from '../../../src/compaction/guard';
import { ledgerRequest } from '../../../src/compaction/user-ledger';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { PathBuilder, chars } from './fixtures';

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 400 };
const LOSSY = REQUIRED_SECTIONS.join('\n\n');
const count = (text: string, word: string) => text.split(word).length - 1;

function turn(b: PathBuilder, i: number): void {
  b.user(`FACT-${i}: the staging port is 54${i}3. ${chars(150, 'w ')} TAIL-${i}`);
  b.assistant('', [b.toolCall('read', { path: 'src/a.ts' })]);
  b.toolResult(chars(300), 'read');
  b.assistant('done ' + chars(200));
}

async function compactNow(b: PathBuilder, provider: FakeProvider) {
  const prep = prepareCompaction(b.entries, settings, { userWordsTokens: 400 });
  assert.ok(prep, 'something to compact');
  const result = await compact(prep, { provider, model: FAKE_MODEL, shortSummary: false });
  b.compaction(result.summary, result.firstKeptEntryId, result.details);
  return prep;
}

test('a span message over the budget is named by its opening in the transcript form; its whole text is sent once', async () => {
  const b = new PathBuilder();
  for (let i = 0; i < 8; i++) turn(b, i);
  const provider = new FakeProvider(() => LOSSY);
  const prep = await compactNow(b, provider);
  const over = prep.userWords.toLedger.map((m) => Number(/FACT-(\d)/.exec(m.text)![1]));
  assert.ok(over.length >= 2, `some of the span's messages are over the budget (${over})`);
  const prompt = provider.prompt(0);
  for (const i of over) {
    assert.equal(count(prompt, `TAIL-${i}`), 1, `message ${i}: its whole text once, in <conversation>`);
    assert.match(prompt, new RegExp(`\\[#\\d+\\] FACT-${i}: the staging port is 54${i}3\\. w w`), `message ${i} is named by its opening`);
  }
  assert.match(prompt, /one quoted only by its opening, up to "…", is in the conversation above, whole/);
});

test('a carried message over the budget (not in this transcript) is still quoted whole', async () => {
  const b = new PathBuilder();
  for (let i = 0; i < 4; i++) turn(b, i);
  await compactNow(b, new FakeProvider(() => LOSSY));
  for (let i = 4; i < 9; i++) turn(b, i);
  const provider = new FakeProvider(() => LOSSY);
  const prep = await compactNow(b, provider);
  const spanIds = new Set([...prep.summarizeEntryIds, ...prep.turnPrefixEntryIds]);
  const carried = prep.userWords.toLedger.filter((m) => !spanIds.has(m.entryId));
  assert.ok(carried.length >= 1, 'a message of the first compaction left the budget');
  for (const m of carried) assert.equal(count(provider.prompt(0), m.text), 1, 'quoted whole in the ledger request');
});

test('ledgerRequest: whole, opening for all, or opening for the ids in the conversation only', () => {
  const a = { entryId: 'a', role: 'user' as const, text: `A-START ${'a '.repeat(100)}A-END` };
  const b = { entryId: 'b', role: 'user' as const, text: `B-START ${'b '.repeat(100)}B-END` };
  assert.match(ledgerRequest([a, b]), /A-END[\s\S]*B-END/);
  assert.doesNotMatch(ledgerRequest([a, b], 'opening'), /A-END|B-END/);
  const mixed = ledgerRequest([a, b], { inConversation: new Set(['b']) });
  assert.match(mixed, /A-END/);
  assert.doesNotMatch(mixed, /B-END/);
  assert.match(mixed, /\[#2\] B-START b b/);
  assert.doesNotMatch(ledgerRequest([a], { inConversation: new Set(['b']) }), /quoted only by its opening/, 'no note when nothing is cut');
});
