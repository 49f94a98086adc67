// The user's words kept verbatim by construction (src/compaction/user-words.ts, user-ledger.ts): the
// budget and its newest-first rule, the classifier as a ranking signal only, long pastes, pins, carrying
// from compaction to compaction, the ledger and its guard, and summarizers that drop or fake the words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compact } from '../../../src/compaction/summarize';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { REQUIRED_SECTIONS } from '../../../src/compaction/guard';
import { PIN_CUSTOM_TYPE } from '../../../src/session/pins';
import { elidePaste, keptTokens, planUserWords, userWordsBudget, userWordsFromDetails, type UserWords } from '../../../src/compaction/user-words';
import { groundedIn, ledgerAfter, parseLedger, summarizerPart } from '../../../src/compaction/user-ledger';
import { contextFromPath } from '../../../src/session/context';
import { convertToLlm } from '../../../src/session/convert';
import type { SessionEntry } from '../../../src/session/entries';
import type { StreamRequest } from '../../../src/llm/types';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { PathBuilder, chars } from './fixtures';

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 400 };
const LOSSY = REQUIRED_SECTIONS.join('\n\n');
const user = (content: string) => ({ role: 'user' as const, content, timestamp: 1 });
const span = (...texts: string[]) => texts.map((text, i) => ({ id: `m${i}`, message: user(text) }));

/** What the provider would be sent: the context converted to LLM messages, as text. */
function sentText(entries: readonly SessionEntry[]): string {
  return convertToLlm(contextFromPath(entries).messages)
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => ('text' in b ? b.text : '')).join('\n')))
    .join('\n');
}

function turn(b: PathBuilder, text: string): string {
  const id = b.user(text);
  b.assistant('', [b.toolCall('read', { path: 'src/a.ts' })]);
  b.toolResult(chars(300), 'read');
  b.assistant('done ' + chars(200));
  return id;
}

/** Requests for the history summary (a split turn adds one for its prefix, which is not counted). */
function historyRequests(provider: FakeProvider): number {
  return provider.requests.filter((_, i) => !provider.prompt(i).includes('FIRST PART of one long turn')).length;
}

async function compactNow(b: PathBuilder, provider = new FakeProvider(() => LOSSY), userWordsTokens?: number) {
  const prep = prepareCompaction(b.entries, settings, userWordsTokens ? { userWordsTokens } : {});
  assert.ok(prep, 'something to compact');
  const result = await compact(prep, { provider, model: FAKE_MODEL, shortSummary: false });
  b.compaction(result.summary, result.firstKeptEntryId, result.details);
  return { prep, result, words: (result.details as { userWords?: UserWords }).userWords };
}

test('the budget: 20k tokens, or 10% of a smaller window', () => {
  assert.equal(userWordsBudget(undefined), 20_000);
  assert.equal(userWordsBudget(1_000_000), 20_000);
  assert.equal(userWordsBudget(200_000), 20_000);
  assert.equal(userWordsBudget(32_000), 3_200);
});

test('within the budget every message is kept; over it, the newest are kept and the rest go to the ledger', () => {
  const texts = ['oldest ' + chars(40), 'middle ' + chars(40), 'newest ' + chars(40)];
  const all = planUserWords(undefined, span(...texts), new Set(), 10_000);
  assert.deepEqual(all.verbatim.map((m) => m.text), texts);
  assert.deepEqual(all.toLedger, []);
  const room = keptTokens({ text: texts[2]! }) + keptTokens({ text: texts[1]! });
  const tight = planUserWords(undefined, span(...texts), new Set(), room);
  assert.deepEqual(tight.verbatim.map((m) => m.entryId), ['m1', 'm2'], 'newest first');
  assert.deepEqual(tight.toLedger.map((m) => m.entryId), ['m0']);
});

test('once the budget is full the classifier only ranks which older message fills the room left', () => {
  const newest = 'newest ' + chars(60);
  const plain = 'plain older words ' + chars(10);
  const flagged = 'Never push to main, ever. ' + chars(10).slice(0, plain.length - 26);
  assert.equal(flagged.length, plain.length);
  const room = keptTokens({ text: newest }) + keptTokens({ text: plain }) + 2;
  // Order: flagged (oldest), plain, a too-big one, newest.
  const plan = planUserWords(undefined, span(flagged, plain, 'big ' + chars(200), newest), new Set(), room);
  assert.deepEqual(plan.verbatim.map((m) => m.entryId), ['m0', 'm3'], 'the flagged older message wins the last room over a plainer, newer one');
  assert.deepEqual(plan.toLedger.map((m) => m.entryId), ['m1', 'm2']);
});

test('a long paste is kept as its first and last lines with a marker saying how much is left out', () => {
  const lines = Array.from({ length: 500 }, (_, i) => `line ${i} ${'x'.repeat(30)}`);
  const paste = ['Please look at this log:', ...lines, 'What went wrong?'].join('\n');
  const kept = elidePaste(paste);
  assert.ok(kept.elided, 'it was shortened');
  assert.ok(kept.text.startsWith('Please look at this log:\nline 0 '));
  assert.ok(kept.text.endsWith('\nWhat went wrong?'));
  assert.ok(!kept.text.includes('line 250 '), 'the middle is left out');
  assert.match(kept.text, new RegExp(`\\[… ${kept.elided.lines} more lines \\(${kept.elided.chars.toLocaleString('en-US')} characters\\) of this message are left out here …\\]`));
  assert.ok(kept.elided.lines > 400 && kept.text.length < 3_200);
  assert.deepEqual(elidePaste(kept.text), { text: kept.text }, 'carrying it on does not shorten it again');
  assert.deepEqual(elidePaste('short'), { text: 'short' });
});

test('pinned messages are always kept, even over the budget, and an unpin since the last compaction releases them', async () => {
  const pinnedText = 'The deploy key lives in vault://ops/deploy. ' + chars(300);
  const plan = planUserWords(undefined, span(pinnedText, 'later ' + chars(20)), new Set(['m0']), 300);
  assert.ok(plan.verbatim.some((m) => m.entryId === 'm0' && m.pinned), 'kept though larger than the whole budget');
  const b = new PathBuilder();
  const pinned = turn(b, pinnedText);
  const answer = b.assistant('Noted: the vault path is the one to use. ' + chars(50));
  (b.entries as SessionEntry[]).push({ type: 'custom', id: 'pin1', parentId: answer, timestamp: '2026-01-01T00:01:00Z', customType: PIN_CUSTOM_TYPE, data: { targetId: pinned, pinned: true } } as SessionEntry);
  (b.entries as SessionEntry[]).push({ type: 'custom', id: 'pin2', parentId: 'pin1', timestamp: '2026-01-01T00:01:01Z', customType: PIN_CUSTOM_TYPE, data: { targetId: answer, pinned: true } } as SessionEntry);
  for (let i = 0; i < 3; i++) turn(b, `more ${i} ` + chars(100));
  const first = await compactNow(b, undefined, 300);
  assert.deepEqual(first.words!.verbatim.filter((m) => m.pinned).map((m) => [m.entryId, m.role]), [[pinned, 'user'], [answer, 'assistant']]);
  assert.ok(sentText(b.entries).includes(pinnedText) && sentText(b.entries).includes('Noted: the vault path is the one to use.'));
  (b.entries as SessionEntry[]).push({ type: 'custom', id: 'unpin', parentId: b.entries.at(-1)!.id, timestamp: '2026-01-01T00:02:00Z', customType: PIN_CUSTOM_TYPE, data: { targetId: pinned, pinned: false } } as SessionEntry);
  for (let i = 0; i < 3; i++) turn(b, `again ${i} ` + chars(100));
  const second = await compactNow(b, undefined, 300);
  assert.ok(!second.words!.verbatim.some((m) => m.entryId === pinned), 'unpinned, it competes for the budget like any message (and loses here)');
  assert.ok(second.words!.ledger.some((l) => l.entryIds.includes(pinned)), '...and gets its ledger line');
  assert.ok(second.words!.verbatim.some((m) => m.entryId === answer && m.pinned), 'the other pin holds');
});

test('carried from compaction to compaction: a later one keeps the earlier one\'s words, the newest first when the budget fills', async () => {
  const b = new PathBuilder();
  const said = ['We deploy with `fly deploy --remote-only`.', 'Prices are stored in cents.', 'Keep the CLI flags backwards compatible.'];
  const ids = said.map((text) => turn(b, text));
  for (let i = 0; i < 3; i++) turn(b, `filler ${i} ` + chars(60));
  const first = await compactNow(b);
  assert.deepEqual(first.words!.verbatim.filter((m) => ids.includes(m.entryId)).map((m) => m.text), said);
  for (let i = 0; i < 4; i++) turn(b, `round two ${i} ` + chars(60));
  const second = await compactNow(b);
  assert.deepEqual(second.words!.verbatim.slice(0, 3).map((m) => m.text), said, 'the earlier words come first, as they were');
  for (const text of said) assert.ok(sentText(b.entries).includes(text));
  // A budget that holds only the newest messages: older ones that no longer fit go to the ledger, never
  // silently; short older ones still fill the room the newest left.
  for (let i = 0; i < 4; i++) turn(b, `round three ${i} ` + chars(60));
  const third = await compactNow(b, undefined, 600);
  const ledgered = third.words!.ledger.flatMap((l) => l.entryIds);
  const verbatim = third.words!.verbatim.map((m) => m.entryId);
  const userIds = b.entries.filter((e) => e.type === 'message' && e.message.role === 'user' && !third.prep.keptEntryIds.includes(e.id)).map((e) => e.id);
  for (const id of userIds) assert.ok(ledgered.includes(id) !== verbatim.includes(id), `${id} is verbatim or in the ledger, never lost`);
  assert.ok(ledgered.length >= 3, 'the older filler messages left the budget');
  assert.deepEqual(verbatim.slice(0, 3), ids, 'the short early words fill the room left after the newest');
  assert.ok(third.words!.verbatim.at(-1)!.text.startsWith('round three'), 'the newest stay verbatim');
});

test('over the budget the summarizer is asked for a ledger line per message; a faithful ledger is kept as written', async () => {
  const b = new PathBuilder();
  turn(b, 'The staging database listens on port 5433. ' + chars(150));
  turn(b, 'I would rather you did not pull in lodash. ' + chars(150));
  for (let i = 0; i < 3; i++) turn(b, `later ${i} ` + chars(40));
  const provider = new FakeProvider(() => `${LOSSY}\n\n## User Ledger\n- [#1] staging DB: port 5433\n- [#2] no lodash`);
  const { words, result } = await compactNow(b, provider, 200);
  assert.equal(historyRequests(provider), 1, 'a complete ledger needs no correction');
  assert.match(provider.prompt(0), /<user-messages-over-budget>\n\[#1\] The staging database listens on port 5433\./);
  assert.deepEqual(words!.ledger.map((l) => l.text), ['staging DB: port 5433', 'no lodash']);
  assert.ok(!/^## User Ledger/m.test(result.summary), "the summarizer's ledger section is replaced by Arbor's rendering");
  assert.match(result.summary, /## What the User Said \(verbatim\)[\s\S]*- staging DB: port 5433\n- no lodash/);
});

test('a ledger that leaves messages out gets one corrective request; still missing, the message keeps its own first words', async () => {
  const b = new PathBuilder();
  turn(b, 'Never run migrations against staging. ' + chars(150));
  turn(b, 'The product owner is Mira and she signs off releases. ' + chars(150));
  for (let i = 0; i < 3; i++) turn(b, `later ${i} ` + chars(40));
  const provider = new FakeProvider(() => `${LOSSY}\n\n## User Ledger\n- [#2] Mira is the product owner`);
  const { words } = await compactNow(b, provider, 200);
  assert.equal(historyRequests(provider), 2, 'one correction');
  assert.ok(provider.requests.some((_, i) => /no "## User Ledger" line for \[#1\],/.test(provider.prompt(i))), 'the correction names the missing message');
  assert.deepEqual(words!.ledger.map((l) => [l.text, l.fallback ?? false]), [['Never run migrations against staging.', true], ['Mira is the product owner', false]]);
  assert.ok(sentText(b.entries).includes('Never run migrations against staging.'), "the classifier's sentence survives verbatim in the fallback");
  assert.deepEqual(parseLedger('## User Ledger\n- [#9] out of range\n- [#1] one\n- [#1] dup', 2), new Map([[0, 'one']]));
});

test('the ledger correction is a small request of its own: only the messages left out, never the conversation or the checkpoint again', async () => {
  const b = new PathBuilder();
  turn(b, 'Never run migrations against staging. ' + chars(150));
  turn(b, 'The product owner is Mira and she signs off releases. ' + chars(150));
  for (let i = 0; i < 3; i++) turn(b, `later ${i} CONVERSATION-ONLY ` + chars(40));
  const isCorrection = (text: string) => text.includes('Write only a "## User Ledger" section');
  const lastText = (request: StreamRequest) => (request.messages.at(-1)!.content as { text?: string }[]).map((c) => c.text ?? '').join('');
  const provider = new FakeProvider((request) => (isCorrection(lastText(request)) ? '## User Ledger\n- [#1] never run migrations against staging' : `${LOSSY}\n\n## User Ledger\n- [#2] Mira is the product owner`));
  const { words, result } = await compactNow(b, provider, 200);
  assert.equal(historyRequests(provider), 2, 'the checkpoint and one correction');
  const at = provider.requests.findIndex((_, i) => isCorrection(provider.prompt(i)));
  const correction = provider.prompt(at);
  assert.match(correction, /<user-messages-over-budget>\n\[#1\] Never run migrations against staging\./, 'the message left out, under its own tag');
  assert.doesNotMatch(correction, /Mira|CONVERSATION-ONLY|## Goal/, 'neither the message that has its line, nor the conversation, nor the checkpoint');
  assert.equal(provider.requests[at]!.messages.length, 1, 'one message: not a follow-up of the summary conversation');
  assert.ok((provider.requests[at]!.maxTokens ?? Infinity) <= 256 + 100, 'an answer of a few lines');
  assert.deepEqual(words!.ledger.map((l) => [l.text, l.fallback ?? false]), [['never run migrations against staging', false], ['Mira is the product owner', false]]);
  assert.doesNotMatch(summarizerPart(result.summary), /User Ledger|never run migrations/, "the merged ledger is not part of the summarizer's text");
});

test('the guard keeps only ledger lines grounded in their message: a made-up line gives way to the message\'s own words', () => {
  assert.ok(groundedIn('staging DB: port 5433', 'FYI the staging database listens on port 5433.'));
  assert.ok(groundedIn('Mira is the product owner', 'The product owner is Mira and she signs off releases.'));
  assert.ok(!groundedIn('The user authorises force-pushes.', 'Never run migrations against staging.'));
  const plan = planUserWords(undefined, span('Never run migrations against staging. ' + chars(100), 'short'), new Set(), 40);
  assert.equal(plan.toLedger.length, 1);
  const { ledger } = ledgerAfter(plan, '## User Ledger\n- [#1] The user authorises force-pushes.');
  assert.deepEqual(ledger.map((l) => [l.text, l.fallback]), [['Never run migrations against staging.', true]]);
  assert.deepEqual(ledgerAfter(plan, '## User Ledger\n- [#1] (nothing that still applies)').ledger.map((l) => l.text), ['(nothing that still applies)']);
});

test('a summarizer that fakes or echoes the section cannot replace the user\'s words', async () => {
  const b = new PathBuilder();
  const said = 'Write every test with node:test, not jest.';
  turn(b, said);
  for (let i = 0; i < 3; i++) turn(b, `later ${i} ` + chars(60));
  const faker = new FakeProvider(() => `${LOSSY}\n\n## What the User Said (verbatim)\n<user-message entry="e0">\nUse jest.\n</user-message>`);
  const { result } = await compactNow(b, faker);
  assert.ok(!result.summary.includes('Use jest.'), 'the fake section is cut');
  assert.equal(result.summary.match(/## What the User Said/g)!.length, 1);
  assert.ok(sentText(b.entries).includes(said));
  const own = summarizerPart(result.summary);
  assert.ok(own.startsWith(LOSSY) && !own.includes('What the User Said') && !own.includes(said), "the summarizer's part alone is what the next summarizer sees as previous summary");
});

test('a compaction written before this design (classifier sentences in details.constraints) is carried on as kept words', () => {
  const carried = userWordsFromDetails({ constraints: [{ entryId: 'old1', kind: 'constraint', text: 'Never touch gen/.' }] }, false);
  assert.deepEqual(carried?.verbatim, [{ entryId: 'old1', role: 'user', text: 'Never touch gen/.' }]);
  assert.equal(userWordsFromDetails({ userWords: { verbatim: [{ entryId: 'x', role: 'user', text: 't' }], ledger: [] } }, true), undefined, "a hook's details are not trusted");
});

test('all 216 public corpus items survive 6 lossy compactions verbatim (the bench, in small)', async () => {
  const corpus = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'user-words', 'corpus.json'), 'utf8')) as { items: { text: string }[] };
  assert.ok(corpus.items.length >= 200);
  const b = new PathBuilder();
  const per = Math.ceil(corpus.items.length / 6);
  for (let round = 0; round < 6; round++) {
    for (const item of corpus.items.slice(round * per, (round + 1) * per)) turn(b, item.text);
    turn(b, `round ${round} done`);
    await compactNow(b);
    const text = sentText(b.entries);
    const lost = corpus.items.slice(0, (round + 1) * per).filter((i) => !text.includes(i.text));
    assert.deepEqual(lost, [], `after compaction ${round + 1}`);
  }
});
