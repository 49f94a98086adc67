// A prompt with images sent while the agent works is queued with its images: the queue shows its text,
// and when its turn comes the stored user message carries the images after the text block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UserMessage } from '../../../src/core/messages';
import { harness, waitFor, waitUntil } from './session-helpers';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('a queued prompt keeps its images until it is sent', async () => {
  const h = await harness({ model: { images: true } });
  h.fake.enqueue({ text: 'first answer', chunkSize: 2, delayMs: 20 }, { text: 'second answer' });
  const run = h.agent.prompt('first');
  await waitFor(h.events, (e) => e.type === 'message_start' && e.role === 'assistant');
  await waitUntil(() => h.llmRequests().length === 1, 5000, 'the first request');
  await h.agent.prompt('and this picture', [{ type: 'image', mimeType: 'image/png', data: PNG }]);
  assert.deepEqual(h.agent.queuedMessages, ['and this picture']);
  await run;
  const users = h.store.getBranch().flatMap((e) => ((e as { message?: UserMessage }).message?.role === 'user' ? [(e as { message: UserMessage }).message.content] : []));
  assert.deepEqual(users, ['first', [{ type: 'text', text: 'and this picture' }, { type: 'image', data: PNG, mimeType: 'image/png' }]]);
  assert.match(JSON.stringify(h.llmRequests().at(-1)), /data:image\/png;base64,iVBOR/);
});

test('a queued prompt taken back (dequeue, stop) comes back with its images; images alone show as their marker', async () => {
  const h = await harness({ model: { images: true } });
  h.fake.enqueue({ text: 'an answer that hangs, keeping the agent busy', hangAfterChunks: 1 });
  const run = h.agent.prompt('first');
  await waitFor(h.events, (e) => e.type === 'message_start' && e.role === 'assistant');
  // the reply starts before the request necessarily reached the server: stop only once it has
  await waitUntil(() => h.llmRequests().length === 1, 5000, 'the first request');
  const picture = { type: 'image' as const, mimeType: 'image/png', data: PNG };
  await h.agent.prompt('with a picture', [picture]);
  await h.agent.prompt('', [picture, picture]);
  assert.deepEqual(h.agent.queuedMessages, ['with a picture', '[2 images]']);
  assert.deepEqual(h.agent.dequeue(0), { text: 'with a picture', images: [picture] });
  assert.deepEqual(await h.agent.stop(), [{ text: '', images: [picture, picture] }]);
  await run;
  assert.equal(h.llmRequests().length, 1, 'nothing taken back was sent');
});
