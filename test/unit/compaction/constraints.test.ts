// The user's constraints, corrections and pinned messages survive compaction verbatim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compact } from '../../../src/compaction/summarize';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { PIN_CUSTOM_TYPE, constraintsInMessage, missingConstraints, sentencesOf } from '../../../src/compaction/constraints';
import { keepConstraints, withoutKeptSection } from '../../../src/compaction/constraint-guard';
import { REQUIRED_SECTIONS } from '../../../src/compaction/guard';
import { contextFromPath } from '../../../src/session/context';
import type { SessionEntry } from '../../../src/session/entries';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { PathBuilder, chars, wellFormedSummary } from './fixtures';

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 400 };
const user = (text: string) => ({ role: 'user' as const, content: text, timestamp: 1 });

/** A summarizer that keeps nothing: only the required headings, empty. */
const LOSSY = REQUIRED_SECTIONS.join('\n\n');

test('constraints and corrections are found verbatim, sentence by sentence; chit-chat is not', () => {
  const found = constraintsInMessage('u1', user('Please fix the parser. Never touch the generated files in gen/. Thanks for that.\n- Always run the tests with --runInBand'));
  assert.deepEqual(found.map((c) => c.text), ['Never touch the generated files in gen/.', 'Always run the tests with --runInBand']);
  assert.ok(found.every((c) => c.entryId === 'u1' && c.kind === 'constraint'));
  const correction = constraintsInMessage('u2', user('No, that is the wrong file. The config lives in conf/app.toml.'));
  assert.deepEqual(correction.map((c) => [c.kind, c.text]), [['correction', 'No, that is the wrong file.']]);
  assert.deepEqual(constraintsInMessage('u3', user('Thanks, looks good to me.')), []);
  assert.deepEqual(constraintsInMessage('u4', user('Use tabs, not spaces, in the Makefile.')).map((c) => c.text), ['Use tabs, not spaces, in the Makefile.']);
  assert.deepEqual(constraintsInMessage('a', { role: 'assistant', content: [{ type: 'text', text: 'I will never do that.' }] } as never), []);
  assert.deepEqual(sentencesOf('One thing. Two things!\n3) three'), ['One thing.', 'Two things!', 'three']);
});

test('matching ignores case, white space, quotes and final punctuation', () => {
  const c = [{ entryId: 'x', kind: 'constraint' as const, text: "Don't   use  `any` in TypeScript." }];
  assert.deepEqual(missingConstraints('- dont use any in typescript', c), []);
  assert.equal(missingConstraints('- avoid any', c).length, 1);
});

test('keepConstraints puts back what the summary lost, in one section that later rounds rebuild', () => {
  const c = [
    { entryId: 'a', kind: 'constraint' as const, text: 'Never push to main.' },
    { entryId: 'b', kind: 'pinned' as const, text: 'Deploy key is in vault://ops/deploy' },
  ];
  const once = keepConstraints('## Goal\nShip it', c);
  assert.equal(once.missing.length, 2);
  assert.match(once.summary, /## User's Words \(kept verbatim\)\n- Never push to main\.\n- \(pinned\) Deploy key is in vault:\/\/ops\/deploy$/);
  const twice = keepConstraints(once.summary + '\n\n## Next Steps\n1. go', c);
  assert.equal((twice.summary.match(/User's Words/g) ?? []).length, 1, 'never two kept sections');
  assert.ok(twice.summary.includes('## Next Steps\n1. go'));
  assert.equal(withoutKeptSection('## Goal\nx'), '## Goal\nx');
});

/** A session whose first turn states constraints and pins a message, then reads and edits files. */
function scriptedSession(): { b: PathBuilder; pinned: string } {
  const b = new PathBuilder();
  b.user('Build the exporter. Never add runtime dependencies. Keep the public API of src/api.ts unchanged.');
  b.assistant('', [b.toolCall('read', { path: 'src/api.ts' })]);
  b.toolResult(chars(300), 'read');
  const pinned = b.user('The customer id format is ACME-#### with exactly four digits.');
  b.message({ role: 'custom', customType: 'x', content: 'ignored', display: false, timestamp: 1 } as never);
  (b.entries as SessionEntry[]).push({ type: 'custom', id: 'pin1', parentId: pinned, timestamp: '2026-01-01T00:00:00Z', customType: PIN_CUSTOM_TYPE, data: { targetId: pinned, pinned: true } } as SessionEntry);
  b.assistant('ok', [b.toolCall('edit', { path: 'src/export.ts' })]);
  b.toolResult(chars(300), 'edit');
  b.user('No, do not use classes here. Plain functions only.');
  b.assistant('fine ' + chars(300));
  return { b, pinned };
}

/** The model's context as text: what actually reaches it after the compactions. */
function contextText(entries: readonly SessionEntry[]): string {
  return JSON.stringify(contextFromPath(entries).messages);
}

test('five successive compactions by a summarizer that keeps nothing: every constraint, the pinned message and every path still reach the model', async () => {
  const { b } = scriptedSession();
  const provider = new FakeProvider(() => LOSSY);
  const expected = [
    'Never add runtime dependencies.',
    'Keep the public API of src/api.ts unchanged.',
    'The customer id format is ACME-#### with exactly four digits.',
    'No, do not use classes here.',
    'Plain functions only.',
  ];
  for (let round = 0; round < 5; round++) {
    b.user(`round ${round}: carry on ` + chars(400));
    b.assistant('', [b.toolCall(round % 2 ? 'write' : 'read', { path: `src/file${round}.ts` })]);
    b.toolResult(chars(200), round % 2 ? 'write' : 'read');
    b.assistant('done ' + chars(500));
    const prep = prepareCompaction(b.entries, settings);
    assert.ok(prep, `round ${round} has something to compact`);
    const result = await compact(prep, { provider, model: FAKE_MODEL, shortSummary: false });
    b.compaction(result.summary, result.firstKeptEntryId, result.details);
    const context = contextText(b.entries);
    for (const text of expected) assert.ok(context.includes(JSON.stringify(text).slice(1, -1)), `round ${round}: "${text}" reached the model`);
    for (const path of ['src/api.ts', 'src/export.ts']) assert.ok(context.includes(path), `round ${round}: ${path}`);
  }
  const last = b.entries.filter((e) => e.type === 'compaction').at(-1) as { details: { userWords: { verbatim: { entryId: string; pinned?: boolean }[] } } };
  assert.ok(last.details.userWords.verbatim.some((c) => c.pinned));
  assert.ok(last.details.userWords.verbatim.every((c) => /^e\d+$/.test(c.entryId)), 'kept words keep their entry ids');
});

test('a summary that lost the user\'s words needs no corrective request: the words are kept by construction', async () => {
  const { b } = scriptedSession();
  const prep = prepareCompaction(b.entries, settings)!;
  const lossy = new FakeProvider(() => LOSSY);
  const result = await compact(prep, { provider: lossy, model: FAKE_MODEL, shortSummary: false });
  assert.equal(lossy.requests.length, 1, 'everything fits the budget: no ledger, no correction');
  assert.ok(!lossy.prompt(0).includes('<user-constraints>'), 'the classifier no longer decides what the summarizer must quote');
  assert.ok(result.summary.includes('Build the exporter. Never add runtime dependencies. Keep the public API of src/api.ts unchanged.'));
});

test('constraints a stage summary kept (Summarize from Here) survive a later compaction that summarizes it', async () => {
  const b = new PathBuilder();
  b.user('start ' + chars(200));
  b.assistant('ok ' + chars(300));
  const stage = b.branchSummary('## Goal\nthe stage');
  const entry = b.entries.find((e) => e.id === stage) as { details?: unknown };
  entry.details = {
    constraints: [
      { entryId: 'gone1', text: 'Never touch the billing module.', kind: 'constraint' },
      { entryId: 'gone2', text: 'PINNED: the release is on Friday.', kind: 'pinned' },
    ],
  };
  for (let round = 0; round < 3; round++) {
    b.user(`round ${round}: carry on ` + chars(400));
    b.assistant('done ' + chars(500));
  }
  const prep = prepareCompaction(b.entries, settings);
  assert.ok(prep && prep.summarizeEntryIds.includes(stage), 'the stage summary is among what gets summarized');
  assert.ok(prep.userWords.verbatim.some((c) => c.text === 'Never touch the billing module.'), 'the stage summary\'s constraint is carried');
  const result = await compact(prep, { provider: new FakeProvider(() => LOSSY), model: FAKE_MODEL, shortSummary: false });
  b.compaction(result.summary, result.firstKeptEntryId, result.details);
  assert.ok(prep.userWords.verbatim.some((c) => c.pinned && c.entryId === 'gone2'), 'a message pinned in the stage stays pinned (its pin entry is on the originals\' branch)');
  const context = contextText(b.entries);
  assert.ok(context.includes('Never touch the billing module.'), 'it still reaches the model');
  assert.ok(context.includes('PINNED: the release is on Friday.'), 'the pinned message still reaches the model');
});
