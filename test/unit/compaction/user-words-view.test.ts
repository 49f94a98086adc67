// What a compaction marker lists under "Kept" (src/compaction/user-words-view.ts): the user's
// kept messages (pinned ones marked), then the ledger lines; an older compaction's classifier sentences.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keptWordsView } from '../../../src/compaction/user-words-view';
import { keptWordsSchema } from '../../../src/protocol/conversation-items';

test('kept messages, pinned ones and ledger lines, each valid for the protocol', () => {
  const view = keptWordsView({
    userWords: {
      version: 1,
      budgetTokens: 20_000,
      verbatim: [{ entryId: 'a', role: 'user', text: 'Prices are stored in cents.' }, { entryId: 'b', role: 'assistant', pinned: true, text: 'Deploy with fly.' }],
      ledger: [{ entryIds: ['c'], text: 'no lodash' }],
    },
  }, false);
  assert.deepEqual(view, [
    { entryId: 'a', kind: 'said', text: 'Prices are stored in cents.' },
    { entryId: 'b', kind: 'pinned', text: 'Deploy with fly.' },
    { entryId: 'c', kind: 'summarized', text: 'no lodash' },
  ]);
  for (const item of view) assert.ok(keptWordsSchema.safeParse(item).success, JSON.stringify(item));
});

test('an older compaction shows its classifier sentences; a hook\'s details show nothing', () => {
  const details = { constraints: [{ entryId: 'x', kind: 'correction', text: 'No, the tests live in spec/.' }] };
  assert.deepEqual(keptWordsView(details, false), [{ entryId: 'x', kind: 'correction', text: 'No, the tests live in spec/.' }]);
  assert.deepEqual(keptWordsView({ userWords: { verbatim: [{ entryId: 'y', role: 'user', text: 't' }], ledger: [] } }, true), []);
});
