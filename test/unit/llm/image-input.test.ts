// A user message with an image, as each provider's wire format carries it (OpenAI Chat Completions
// image_url data URL, Responses input_image, Anthropic base64 image source), and what a model without
// image input gets instead (a text note: the VS Code LM API of @types/vscode 1.90 has no data parts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LlmMessage, UserMessage } from '../../../src/core/messages';
import { userContent } from '../../../src/core/messages';
import { toAnthropicMessages } from '../../../src/llm/convert-anthropic';
import { toOpenAIMessages } from '../../../src/llm/convert-openai';
import { toResponsesInput } from '../../../src/llm/convert-responses';
import { toHostMessages } from '../../../src/llm/vscode-lm/convert';
import { IMAGE_OMITTED, imagesFor, takesImages } from '../../../src/llm/image-input';
import { BUILTIN_MODELS, resolveModels } from '../../../src/llm/models';
import { hostModelInfo } from '../../../src/llm/providers/vscode-lm';
import { estimateMessageTokens, IMAGE_TOKENS } from '../../../src/llm/tokens';
import { serializeConversation } from '../../../src/compaction/serialize';

const DATA = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const message: UserMessage = { role: 'user', content: userContent('What is this?', [{ type: 'image', mimeType: 'image/png', data: DATA }]), timestamp: 1 };

test('a prompt with images is stored as pi writes it: the text block, then the image blocks', () => {
  assert.deepEqual(message.content, [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data: DATA }]);
  assert.equal(userContent('plain', []), 'plain');
});

test('OpenAI Chat Completions: an image_url part with a data URL', () => {
  const [, user] = toOpenAIMessages('sys', [message]);
  assert.deepEqual(user, { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${DATA}` } }] });
});

test('OpenAI Responses: an input_image part with a data URL', () => {
  const [item] = toResponsesInput([message], { provider: 'openai', api: 'openai-responses', id: 'gpt-5' }) as Record<string, unknown>[];
  assert.deepEqual(item!.content, [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${DATA}` }]);
});

test('Anthropic: an image block with a base64 source', () => {
  const [user] = toAnthropicMessages([message], false);
  assert.deepEqual(user!.content, [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } }]);
});

test('the built-in Anthropic and OpenAI models take images; VS Code LM models and local servers do not', () => {
  for (const model of BUILTIN_MODELS.filter((m) => m.provider === 'anthropic' || m.provider === 'openai')) assert.equal(takesImages(model), true, model.id);
  assert.equal(takesImages(hostModelInfo({ vendor: 'copilot', id: 'gpt-4o', name: 'GPT-4o', family: 'gpt-4o', maxInputTokens: 64_000 } as never)), false);
  const { models } = resolveModels([{ provider: 'local', id: 'llama', baseUrl: 'http://127.0.0.1:8080/v1' }, { provider: 'local', id: 'llava', baseUrl: 'http://127.0.0.1:8080/v1', images: true }]);
  assert.equal(takesImages(models.find((m) => m.id === 'llama')!), false);
  assert.equal(takesImages(models.find((m) => m.id === 'llava')!), true);
});

test('a model without image input gets a text note where each image was; VS Code LM receives no image data', () => {
  const messages: LlmMessage[] = [message];
  assert.equal(imagesFor({ images: true }, messages), messages, 'unchanged for a model with image input');
  const [user] = imagesFor({}, messages) as UserMessage[];
  assert.deepEqual(user!.content, [{ type: 'text', text: 'What is this?' }, { type: 'text', text: IMAGE_OMITTED }]);
  assert.deepEqual(message.content[1], { type: 'image', mimeType: 'image/png', data: DATA }, 'the stored message is not changed');
  const host = JSON.stringify(toHostMessages('', imagesFor({}, messages)));
  assert.ok(!host.includes(DATA) && host.includes(IMAGE_OMITTED));
});

test('an image counts IMAGE_TOKENS in the meter, and the summarizer reads "[image]" for it', () => {
  assert.equal(estimateMessageTokens({ role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: DATA }], timestamp: 0 }), IMAGE_TOKENS);
  const text = serializeConversation([message]);
  assert.match(text, /\[User\]: What is this\?\n\[image\]/);
  assert.ok(!text.includes(DATA));
});

test('the offline demo counts an image at the estimate (not its base64 length) and says it got it', async () => {
  const { demoReply, imageCount, withoutImageData } = await import('../../../src/llm/demo/script');
  const content = [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(100_000)}` } }];
  assert.equal(imageCount(content), 1);
  assert.deepEqual(withoutImageData(content), [{ type: 'text', text: 'hi' }]);
  assert.match(demoReply({ messages: [{ role: 'user', content }] }).text, /You attached 1 image; the offline demo cannot look at images\./);
});
