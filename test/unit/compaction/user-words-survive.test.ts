// Issue 25 item 1: what the user typed reaches the model after compaction, whatever its phrasing. A
// summarizer that keeps nothing (only empty headings) compacts a session three times; the user's
// instructions, facts and preferences phrased as users write them (not as a keyword list) must all
// still be in the context pi and Arbor build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compact } from '../../../src/compaction/summarize';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { REQUIRED_SECTIONS } from '../../../src/compaction/guard';
import { contextFromPath } from '../../../src/session/context';
import type { SessionEntry } from '../../../src/session/entries';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { PathBuilder, chars } from './fixtures';

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 400 };
const LOSSY = REQUIRED_SECTIONS.join('\n\n');

/** The words of the issue: each is said once, between tool traffic. */
export const SAID = [
  'Also: write every test with node:test, not jest.',
  'Also: use British spelling in the user-facing strings (colour, behaviour).',
  'FYI the staging database listens on port 5433.',
  'prices are stored in cents',
  'the product owner is Mira',
  "I'd rather you didn't pull in lodash",
];

function contextText(entries: readonly SessionEntry[]): string {
  return JSON.stringify(contextFromPath(entries).messages);
}

function has(context: string, words: string): boolean {
  return context.includes(JSON.stringify(words).slice(1, -1));
}

test('the user\'s instructions, facts and preferences, however phrased, survive three lossy compactions verbatim', async () => {
  const b = new PathBuilder();
  b.user('Build the CSV exporter for the shop.');
  const provider = new FakeProvider(() => LOSSY);
  let said = 0;
  for (let round = 0; round < 3; round++) {
    for (let turn = 0; turn < 3; turn++) {
      b.user(said < SAID.length ? SAID[said++]! : `carry on ${chars(100)}`);
      b.assistant('', [b.toolCall('read', { path: `src/f${round}${turn}.ts` })]);
      b.toolResult(chars(600), 'read');
      b.assistant('done ' + chars(400));
    }
    const prep = prepareCompaction(b.entries, settings);
    assert.ok(prep, `round ${round} compacts`);
    const result = await compact(prep, { provider, model: FAKE_MODEL, shortSummary: false });
    b.compaction(result.summary, result.firstKeptEntryId, result.details);
    const context = contextText(b.entries);
    const lost = SAID.slice(0, said).filter((w) => !has(context, w));
    assert.deepEqual(lost, [], `round ${round + 1}: nothing the user said is lost`);
  }
});
