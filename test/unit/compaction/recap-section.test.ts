// The UI recap asked in the summary request itself (a last "## Recap" section): a summarizer that writes it
// costs one request, not two, and the section never reaches the stored summary; one that does not write it
// gets the recap request as before (docs/architecture.md, "Compaction cost").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compact } from '../../../src/compaction/summarize';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { withRecap, withRemoteRecap } from '../../../src/compaction/recap-section';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { contextFromPath } from '../../../src/session/context';
import { convertToLlm } from '../../../src/session/convert';
import { PathBuilder, chars, wellFormedSummary } from './fixtures';

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 600 };
const RECAP = 'We moved the cache into its own module. Next we wire it into the renderer.';

function session(): PathBuilder {
  const b = new PathBuilder();
  b.user('FIRST-REQUEST ' + chars(300));
  b.assistant('', [b.toolCall('read', { path: 'src/x.ts' })]);
  b.toolResult('TOOL-OUTPUT ' + chars(300), 'read');
  b.assistant('done reading ' + chars(100));
  b.user('SECOND-REQUEST ' + chars(700));
  b.assistant('KEPT-ANSWER');
  return b;
}

/** A summarizer that follows the instructions: the recap section when asked for, the recap request answered alone. */
function following(req: { messages: unknown[] }): string {
  const prompt = JSON.stringify(req.messages);
  if (prompt.includes('Write a recap')) return 'We did things in a request of their own.';
  return prompt.includes('## Recap') ? `${wellFormedSummary('NEW')}\n\n## Recap\n${RECAP}` : wellFormedSummary('NEW');
}

test('a summary answer with its "## Recap" section: one request, the recap from it, the section not in the summary', async () => {
  const prep = prepareCompaction(session().entries, settings)!;
  const provider = new FakeProvider(following);
  const result = await compact(prep, { provider, model: FAKE_MODEL });
  assert.equal(provider.requests.length, 1, 'no recap request');
  assert.match(provider.prompt(0), /add a section "## Recap": two or three sentences/);
  assert.equal(result.shortSummary, RECAP);
  assert.doesNotMatch(result.summary, /## Recap|moved the cache/);
  assert.match(result.summary, /^## Goal\nNEW goal/);
});

test('a summarizer that leaves the section out still gets the recap request; none is asked when no recap is wanted', async () => {
  const prep = prepareCompaction(session().entries, settings)!;
  const plain = new FakeProvider((req) => (JSON.stringify(req.messages).includes('Write a recap') ? 'We did things.' : wellFormedSummary('NEW')));
  const result = await compact(prep, { provider: plain, model: FAKE_MODEL });
  assert.equal(plain.requests.length, 2, 'summary, then the recap on its own');
  assert.equal(result.shortSummary, 'We did things.');
  const none = new FakeProvider(following);
  const quiet = await compact(prep, { provider: none, model: FAKE_MODEL, shortSummary: false });
  assert.doesNotMatch(none.prompt(0), /## Recap/, 'not asked');
  assert.equal(quiet.shortSummary, undefined);
});

test('withRecap: the section anywhere (the ledger after it stays), an empty one, and none asked', () => {
  const answer = `## Goal\nG\n\n## Recap\n${RECAP}\n\n## User Ledger\n- [#1] keep port 5433`;
  assert.deepEqual(withRecap(answer, {}), { summary: '## Goal\nG\n\n## User Ledger\n- [#1] keep port 5433', shortSummary: RECAP });
  assert.deepEqual(withRecap(`## Goal\nG\n\n## Recap\n\n`, {}), { summary: '## Goal\nG' });
  assert.deepEqual(withRecap(answer, { shortSummary: false }), { summary: answer });
  assert.equal(withRecap(`## Goal\nG\n## Recap\n${'w'.repeat(3000)}`, {}).shortSummary!.length, 2000);
});

test('a remote endpoint: its own recap wins, else the section of its summary; the section is cut either way', () => {
  const summary = `## Goal\nG\n\n## Recap\n${RECAP}`;
  assert.deepEqual(withRemoteRecap({ summary, shortSummary: 'Remote recap.' }, {}), { summary: '## Goal\nG', shortSummary: 'Remote recap.' });
  assert.deepEqual(withRemoteRecap({ summary }, {}), { summary: '## Goal\nG', shortSummary: RECAP });
  assert.deepEqual(withRemoteRecap({ summary: '## Goal\nG' }, {}), { summary: '## Goal\nG' });
});

test('the summary asked as a continuation of the cached conversation carries the recap too: one request', async () => {
  const b = session();
  const prep = prepareCompaction(b.entries, settings)!;
  const caching = { ...FAKE_MODEL, provider: 'anthropic', api: 'anthropic-messages' as const, pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
  const provider = new FakeProvider(following);
  const prefix = { systemPrompt: 'You are the coding agent.', messages: convertToLlm(contextFromPath(b.entries).messages) };
  const result = await compact(prep, { provider, model: caching, prefix });
  assert.equal(provider.requests.length, 1);
  assert.equal(provider.requests[0]!.systemPrompt, 'You are the coding agent.', 'the continuation form');
  assert.equal(result.shortSummary, RECAP);
  assert.doesNotMatch(result.summary, /## Recap/);
});
