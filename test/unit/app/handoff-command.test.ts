// Manual handoff (issue 17): `/handoff [focus]` in the chat (and the "Hand Off to New Session" command,
// which calls the same app method) moves the conversation to a new session seeded with a handoff document
// written by the current model with the focus, whatever `arbor.compaction.strategy` says. Before the fix
// `/handoff` was sent to the model as an ordinary prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { appHarness } from './helpers';

test('/handoff with a focus starts a new session seeded with the handoff document', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'first answer' });
  await h.app.prompt('build the parser');
  const first = h.app.snapshot().session!.file;
  h.fake.requests.length = 0;
  h.fake.enqueue({ text: '# Handoff\nGoal: the parser. Next: tests.' });
  const outcome = await h.app.prompt('/handoff the parser tests');
  assert.equal(outcome.kind, 'compacted', JSON.stringify(outcome));
  const requests = h.fake.requests.filter((r) => r.path === '/v1/chat/completions');
  assert.equal(requests.length, 1, 'one handoff request, no prompt sent to the model');
  assert.match(JSON.stringify(requests[0]!.body.messages), /the parser tests/);
  // The app follows the agent to the new file (asynchronously, as after an automatic handoff).
  for (let i = 0; i < 200 && h.app.snapshot().session!.file === first; i++) await new Promise((r) => setTimeout(r, 10));
  const second = h.app.snapshot().session!.file;
  assert.notEqual(second, first, 'a new session file');
  const lines = (await readFile(second, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(lines[0]!.parentSession, first);
  const seeded = lines.find((l) => l.type === 'custom_message') as { customType: string; content: string } | undefined;
  assert.equal(seeded?.customType, 'handoff');
  assert.match(seeded!.content, /Goal: the parser/);
});
