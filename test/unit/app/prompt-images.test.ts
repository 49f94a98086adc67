// A prompt with images, end to end below the UI: stored in the session as pi stores it (the text block,
// then `{type:"image", data, mimeType}`), read back after a reopen, sent to the model, shown in the chat
// item; a model without image input refuses the prompt with a typed outcome and stores nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { appHarness } from './helpers';
import { SessionStore } from '../../../src/session/store';
import { toItem } from '../../../src/vscode/chat-items';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = { type: 'image' as const, mimeType: 'image/png', data: PNG };

test('a prompt with an image is stored in pi format, reopens unchanged, reaches the model and the chat item', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A single pixel.' });
  assert.deepEqual(await h.app.prompt('What is this?', [image]), { kind: 'sent' });
  const file = h.app.snapshot().session!.file;
  const lines = (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  const stored = lines.find((l) => l.type === 'message' && l.message.role === 'user')!.message;
  assert.deepEqual(stored.content, [{ type: 'text', text: 'What is this?' }, { type: 'image', data: PNG, mimeType: 'image/png' }]);
  const reopened = await SessionStore.open(file);
  const user = reopened.buildContext().messages.find((m) => m.role === 'user')!;
  assert.deepEqual(user.content, stored.content);
  const body = h.fake.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
  const sent = body.messages.find((m) => m.role === 'user')!.content;
  assert.deepEqual(sent, [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }]);
  const item = toItem(h.app.snapshot().conversation.find((e) => e.kind === 'user')!);
  assert.deepEqual(item && item.kind === 'user' ? [item.text, item.images] : undefined, ['What is this?', { shown: [{ mimeType: 'image/png', data: PNG }], hidden: 0 }]);
});

test('a model without image input: the prompt with images is refused before sending, nothing is stored', async () => {
  const h = await appHarness({ raw: { models: [{ provider: 'local', id: 'text-only', name: 'Text Only', baseUrl: 'http://127.0.0.1:9/v1', contextWindow: 8000 }] } as never });
  await h.app.models.set('local/text-only');
  const before = h.fake.requests.length;
  assert.deepEqual(await h.app.prompt('What is this?', [image]), { kind: 'imagesUnsupported', model: 'Text Only' });
  // images alone (a pasted screenshot) get the same typed refusal, not the empty prompt's
  assert.deepEqual(await h.app.prompt('', [image]), { kind: 'imagesUnsupported', model: 'Text Only' });
  assert.equal(h.fake.requests.length, before);
  assert.equal(h.app.snapshot().conversation.filter((e) => e.kind === 'user').length, 0);
});
