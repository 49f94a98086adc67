// A prompt of images and no text (a pasted screenshot, then Enter): the protocol lets it through (and
// still refuses a prompt with neither), the session stores pi's content of image parts only, each
// provider's wire format carries the images without an empty text part, the chat item shows them, and
// the trees, search, the Sessions list and the CLI name the message by its images instead of nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { appHarness } from './helpers';
import { parseWebviewMessage } from '../../../src/protocol';
import { userContent, type UserMessage } from '../../../src/core/messages';
import type { SessionEntry } from '../../../src/session/entries';
import { toItem } from '../../../src/vscode/chat-items';
import { toAnthropicMessages } from '../../../src/llm/convert-anthropic';
import { toResponsesInput } from '../../../src/llm/convert-responses';
import { toHostMessages } from '../../../src/llm/vscode-lm/convert';
import { IMAGE_OMITTED, imagesFor } from '../../../src/llm/image-input';
import { entrySummaryLine } from '../../../src/app/view-model';
import { searchableText } from '../../../src/session/search';
import { entryPreview } from '../../../src/cli/describe';
import { presentEntry } from '../../../src/vscode/tree/entry-presentation';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const image = { type: 'image' as const, mimeType: 'image/png', data: PNG };

test('the prompt schema takes images without text, and still refuses a prompt with neither', () => {
  const wire = { mimeType: 'image/png', data: PNG };
  assert.equal(parseWebviewMessage({ type: 'prompt', text: '', images: [wire] }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'prompt', text: '' }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'prompt', text: '', images: [] }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'prompt', text: 'x' }).ok, true);
});

test('an image-only prompt is stored as image parts only, reopens, reaches the model and the chat item', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A red square.' });
  assert.deepEqual(await h.app.prompt('', [image]), { kind: 'sent' });
  const lines = (await readFile(h.app.snapshot().session!.file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  const stored = lines.find((l) => l.type === 'message' && l.message.role === 'user')!.message;
  assert.deepEqual(stored.content, [{ type: 'image', data: PNG, mimeType: 'image/png' }], 'no empty text part');
  const body = h.fake.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
  assert.deepEqual(body.messages.find((m) => m.role === 'user')!.content, [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }]);
  const item = toItem(h.app.snapshot().conversation.find((e) => e.kind === 'user')!);
  assert.deepEqual(item && item.kind === 'user' ? [item.text, item.images] : undefined, ['', { shown: [{ mimeType: 'image/png', data: PNG }], hidden: 0 }]);
  assert.equal(h.app.views.firstUserMessage(), '[image]', 'the chat title and the Sessions list name it by its image');
});

test('whitespace with images sends the images alone; whitespace alone is still empty', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'ok' });
  assert.deepEqual(await h.app.prompt('  \n', []), { kind: 'empty' });
  assert.deepEqual(await h.app.prompt(' \n ', [image]), { kind: 'sent' });
  const user = h.app.snapshot().conversation.find((e) => e.kind === 'user')!;
  assert.equal(user.blocks.filter((b) => b.type === 'text').length, 0);
});

test('each provider carries an image-only message without an empty text part; VS Code LM gets the note, never an empty message', () => {
  const message: UserMessage = { role: 'user', content: userContent('', [image]), timestamp: 1 };
  assert.deepEqual(message.content, [{ type: 'image', mimeType: 'image/png', data: PNG }]);
  assert.deepEqual(toAnthropicMessages([message], false)[0]!.content, [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]);
  const [item] = toResponsesInput([message], { provider: 'openai', api: 'openai-responses', id: 'gpt-5' }) as Record<string, unknown>[];
  assert.deepEqual(item!.content, [{ type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PNG}` }]);
  const host = toHostMessages('', imagesFor({}, [message]));
  assert.deepEqual(host, [{ role: 'user', parts: [{ type: 'text', text: IMAGE_OMITTED }] }]);
});

test('the trees, search, the Session Tree and the CLI name an image-only message by its images', () => {
  const one = { id: 'u1', parentId: null, timestamp: '2026-03-01T10:00:00.000Z', type: 'message', message: { role: 'user', content: [image], timestamp: 1 } } as SessionEntry;
  const two = { ...one, message: { role: 'user', content: [image, image], timestamp: 1 } } as SessionEntry;
  assert.equal(entrySummaryLine(one), '[image]');
  assert.equal(entrySummaryLine(two), '[2 images]');
  assert.equal(searchableText(two as unknown as Record<string, unknown>)?.text, '[2 images]');
  assert.equal(presentEntry(one).title, '[image]');
  assert.equal(entryPreview(two), '[2 images]');
  const withText = { ...one, message: { role: 'user', content: [{ type: 'text', text: 'look' }, image], timestamp: 1 } } as SessionEntry;
  assert.equal(entrySummaryLine(withText), 'look', 'a message with text is named by its text');
});

test('picking a user message to edit and resend gives back its images with its text', async () => {
  const { resolveNavigationTarget } = await import('../../../src/branch/target');
  const user = { id: 'u2', parentId: 'a1', timestamp: '2026-03-01T10:00:00.000Z', type: 'message', message: { role: 'user', content: [image], timestamp: 1 } } as SessionEntry;
  assert.deepEqual(resolveNavigationTarget(user), { newLeafId: 'a1', editorText: '', editorImages: [image] });
  const plain = { ...user, message: { role: 'user', content: 'just text', timestamp: 1 } } as SessionEntry;
  assert.deepEqual(resolveNavigationTarget(plain), { newLeafId: 'a1', editorText: 'just text' });
});
