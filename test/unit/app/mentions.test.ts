// @-mentions: paths are found in the text, files are read only inside the workspace (also through
// symlinks), directories/missing/binary files are skipped, sizes are capped, and blocks follow the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MENTION_LIMITS, mentionedPaths, readMentions, withMentions } from '../../../src/app/mentions';

test('mentions are found at the start or after a space, once each, without trailing punctuation', () => {
  assert.deepEqual(mentionedPaths('@README.md and see @src/a.ts, also @src/a.ts. mail me@example.com'), ['README.md', 'src/a.ts']);
  assert.deepEqual(mentionedPaths('no mentions here'), []);
  const many = Array.from({ length: 20 }, (_, i) => `@f${i}.ts`).join(' ');
  assert.equal(mentionedPaths(many).length, MENTION_LIMITS.files);
});

test('only files inside the workspace are read, also after symlinks; others are skipped', async () => {
  const base = mkdtempSync(join(tmpdir(), 'arbor-mentions-'));
  const ws = join(base, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(base, 'secret.txt'), 'outside');
  writeFileSync(join(ws, 'bin.dat'), Buffer.from([1, 0, 2]));
  writeFileSync(join(ws, 'big.txt'), 'x'.repeat(MENTION_LIMITS.bytes + 10));
  symlinkSync(join(base, 'secret.txt'), join(ws, 'link.txt'));
  const files = await readMentions('@src/a.ts @../secret.txt @link.txt @src @missing.ts @bin.dat @big.txt @/etc/passwd', [ws]);
  assert.deepEqual(files.map((f) => f.path), ['src/a.ts', 'big.txt']);
  assert.equal(files[0]!.content, 'export const a = 1;\n');
  assert.equal(files[1]!.truncated, true);
  assert.equal(files[1]!.content.length, MENTION_LIMITS.bytes);
});

test('the prompt carries one block per file after the text; no files, no change', () => {
  assert.equal(withMentions('hi', []), 'hi');
  assert.equal(withMentions('see @a.ts', [{ path: 'a.ts', content: 'A', truncated: false }]), 'see @a.ts\n\n<file path="a.ts">\nA\n</file>');
});
