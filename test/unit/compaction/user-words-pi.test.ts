// pi 1.6.0 reads Arbor's compactions with the user's kept words unchanged (test/fixtures/user-words/pi-1.6,
// written by Arbor's store and compaction runner and read by pi's own SessionManager in
// scripts/check-pi-reads-user-words.mjs): the entries are pi v3 `compaction` entries, Arbor's context of
// the file equals the one pi built, and what pi sends the model holds every word the user said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';

const dir = join(__dirname, '..', '..', 'fixtures', 'user-words');
const pi = JSON.parse(readFileSync(join(dir, 'pi-1.6', 'pi-context.json'), 'utf8')) as {
  piVersion: string;
  context: unknown;
  sent: { role: string; content: string | { type: string; text?: string }[] }[];
};
const said = JSON.parse(readFileSync(join(dir, 'pi-1.6', 'said.json'), 'utf8')) as { items: string[]; pinned: string; pasteFirst: string; pasteLast: string; pasteMiddle: string };
const corpus = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as { items: { id: string; text: string }[] };

test('pi 1.6.0 reads the compactions as its own v3 entries and builds the same context as Arbor', async () => {
  assert.equal(pi.piVersion, '1.6.0');
  const store = await SessionStore.open(join(dir, 'pi-1.6', 'session.jsonl'));
  assert.deepEqual(store.loadReport, []);
  const compactions = store.getBranch().filter((e) => e.type === 'compaction');
  assert.equal(compactions.length, 3);
  for (const c of compactions) {
    assert.equal(typeof c.summary, 'string');
    assert.equal(typeof c.firstKeptEntryId, 'string');
    assert.equal(typeof c.tokensBefore, 'number');
    assert.ok(Array.isArray((c.details as { userWords: { verbatim: unknown[] } }).userWords.verbatim), 'the structured copy Arbor carries forward');
  }
  assert.deepEqual(JSON.parse(JSON.stringify(store.buildContext())), pi.context);
});

test('what pi sends the model holds every item the user said, the pinned message and the ends of the paste, verbatim', () => {
  const text = pi.sent.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('\n'))).join('\n');
  const byId = new Map(corpus.items.map((i) => [i.id, i.text]));
  assert.ok(said.items.length >= 50);
  for (const id of said.items) assert.ok(text.includes(byId.get(id)!), `${id}: ${byId.get(id)}`);
  assert.ok(text.includes(said.pinned));
  assert.ok(text.includes(said.pasteFirst) && text.includes(said.pasteLast));
  assert.ok(!text.includes(said.pasteMiddle));
  const summaries = pi.sent.filter((m) => JSON.stringify(m.content).includes('## What the User Said (verbatim)'));
  assert.equal(summaries.length, 1, 'the words travel inside the one summary message pi sends');
});
