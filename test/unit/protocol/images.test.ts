// Images in the protocol: the type comes from the bytes, the size and count caps hold, and hostile shapes
// (an SVG, a text file named .png, data that is not base64, one image too many) are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64Head, checkImage, IMAGE_LIMITS, parseWebviewMessage, screenImages, sniffImageType, userImages } from '../../../src/protocol';

export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const b64 = (bytes: number[] | string) => Buffer.from(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes).toString('base64');
const JPEG = b64([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const GIF = b64('GIF89a\x01\x00\x01\x00\x00\x00');
const WEBP = b64('RIFF\x1a\x00\x00\x00WEBPVP8L');

test('base64Head decodes the first bytes like Buffer does, at every padding', () => {
  for (const bytes of [[1], [1, 2], [1, 2, 3], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 9]]) {
    assert.deepEqual(base64Head(b64(bytes)), bytes.slice(0, 12));
  }
});

test('the type comes from the magic bytes: PNG, JPEG, GIF, WebP; anything else is not an image', () => {
  assert.equal(sniffImageType(base64Head(PNG_1X1)), 'image/png');
  assert.equal(sniffImageType(base64Head(JPEG)), 'image/jpeg');
  assert.equal(sniffImageType(base64Head(GIF)), 'image/gif');
  assert.equal(sniffImageType(base64Head(WEBP)), 'image/webp');
  assert.equal(sniffImageType(base64Head(b64('<svg xmlns="http://www.w3.org/2000/svg"/>'))), undefined);
  assert.equal(sniffImageType(base64Head(b64('RIFF\x1a\x00\x00\x00WAVEfmt '))), undefined);
});

test('checkImage: a JPEG claimed to be a PNG goes as image/jpeg; text, bad base64 and oversize images are refused', () => {
  assert.deepEqual(checkImage({ data: JPEG }), { ok: true, image: { mimeType: 'image/jpeg', data: JPEG } });
  assert.deepEqual(checkImage({ data: b64('hello, I am a text file named shot.png') }), { ok: false, problem: 'notImage' });
  assert.deepEqual(checkImage({ data: 'iVBO<script>' }), { ok: false, problem: 'notImage' });
  assert.deepEqual(checkImage({ data: '' }), { ok: false, problem: 'notImage' });
  const big = Buffer.alloc(IMAGE_LIMITS.maxBytes + 1);
  Buffer.from(PNG_1X1, 'base64').copy(big);
  assert.deepEqual(checkImage({ data: big.toString('base64') }), { ok: false, problem: 'tooLarge' });
  const atCap = big.subarray(0, IMAGE_LIMITS.maxBytes).toString('base64');
  assert.equal(checkImage({ data: atCap }).ok, true, 'exactly the cap is allowed');
});

test('screenImages keeps at most `room` images and says why each other one was refused', () => {
  const files = [PNG_1X1, b64('text'), GIF, JPEG].map((data, i) => ({ name: `f${i}`, data }));
  const { images, refused } = screenImages(files, 2);
  assert.deepEqual(images.map((i) => [i.name, i.mimeType]), [['f0', 'image/png'], ['f2', 'image/gif']]);
  assert.deepEqual(refused, [{ name: 'f1', problem: 'notImage' }, { name: 'f3', problem: 'tooMany' }]);
});

test('the prompt schema refuses more than the per-message images, an SVG type and data that is not base64', () => {
  const image = { mimeType: 'image/png', data: PNG_1X1 };
  assert.equal(parseWebviewMessage({ type: 'prompt', text: 'x', images: Array(IMAGE_LIMITS.perMessage).fill(image) }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'prompt', text: 'x', images: Array(IMAGE_LIMITS.perMessage + 1).fill(image) }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'prompt', text: 'x', images: [{ mimeType: 'image/svg+xml', data: PNG_1X1 }] }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'prompt', text: 'x', images: [{ mimeType: 'image/png', data: 'a"b' }] }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'attachImages', images: [] }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'prompt', text: 'x', images: [{ ...image, extra: 1 }] }).ok, false);
});

test('userImages shows the valid images of a stored message (type from the bytes) and counts the others', () => {
  const blocks = [{ type: 'text' }, { type: 'image', mimeType: 'image/png', data: PNG_1X1 }, { type: 'image', mimeType: 'image/png', data: b64('not an image') }, { type: 'image', data: 42 }];
  assert.deepEqual(userImages(blocks), { shown: [{ mimeType: 'image/png', data: PNG_1X1 }], hidden: 2 });
  assert.equal(userImages([{ type: 'text' }]), undefined);
  const many = Array(IMAGE_LIMITS.shown + 3).fill({ type: 'image', data: GIF });
  assert.deepEqual([userImages(many)!.shown.length, userImages(many)!.hidden], [IMAGE_LIMITS.shown, 3]);
});
