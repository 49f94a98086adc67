// Issue #24 item 5: a stored image far over the size cap is refused by its length before anything reads
// its characters. `checkImage` runs on every stored image each time the chat is posted (userImages); a
// 100 MB image in a session file cost 2 s per post while the base64 pattern scanned it first. The work is
// counted: RegExp.prototype.test and exec are wrapped to add up the characters they are given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkImage, IMAGE_LIMITS, userImages } from '../../../src/protocol';
import { reportFigures } from '../profile';

function countRegexWork<T>(run: () => T): { result: T; chars: number; ms: number } {
  const { test: originalTest, exec: originalExec } = RegExp.prototype;
  let chars = 0;
  RegExp.prototype.test = function (this: RegExp, input: string) {
    chars += String(input).length;
    return originalTest.call(this, input);
  };
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    chars += String(input).length;
    return originalExec.call(this, input);
  };
  const started = performance.now();
  try {
    const result = run();
    return { result, chars, ms: Math.round(performance.now() - started) };
  } finally {
    RegExp.prototype.test = originalTest;
    RegExp.prototype.exec = originalExec;
  }
}

test('a 100 MB stored image is refused as too large without scanning its characters', () => {
  const huge = `iVBORw0KGgo${'A'.repeat(100 * 1024 * 1024)}`;
  // one character read flattens the concatenation first, as a string parsed from a session file is
  assert.equal(huge.charCodeAt(huge.length - 1), 65);
  const check = countRegexWork(() => checkImage({ data: huge }));
  assert.deepEqual(check.result, { ok: false, problem: 'tooLarge' });
  assert.equal(check.chars, 0, `checkImage ran patterns over ${check.chars} characters`);
  const post = countRegexWork(() => userImages([{ type: 'image', data: huge }]));
  assert.deepEqual(post.result, { shown: [], hidden: 1 });
  assert.equal(post.chars, 0, `showing the message ran patterns over ${post.chars} characters`);
  reportFigures('attacks/image-size', { hugeImageMB: 100, checkMs: check.ms, postMs: post.ms, regexChars: check.chars + post.chars });
});

test('an image within the cap is still checked by its characters and bytes', () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000)]).toString('base64');
  assert.deepEqual(checkImage({ data: png }), { ok: true, image: { mimeType: 'image/png', data: png } });
  assert.deepEqual(checkImage({ data: `${png.slice(0, -4)}!!!!` }), { ok: false, problem: 'notImage' });
  assert.deepEqual(checkImage({ data: '' }), { ok: false, problem: 'notImage' });
  const atCap = 'A'.repeat(Math.floor((IMAGE_LIMITS.maxBytes * 4) / 3));
  assert.deepEqual(checkImage({ data: atCap }), { ok: false, problem: 'notImage' }, 'at the cap: read, and not an image');
});
