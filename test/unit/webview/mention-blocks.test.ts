// A message's mentioned-file blocks are split from its text for the bubble and for Edit; text that only
// looks similar stays as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMentions } from '../../../src/app/mentions';
import { splitFileBlocks } from '../../../webview/mention-blocks';

test('the blocks written by withMentions split back into the text and the paths', () => {
  const sent = withMentions('compare @a.ts with @b "x".md', [
    { path: 'a.ts', content: 'A\n\nmore', truncated: false },
    { path: 'b "x".md', content: 'B', truncated: true },
  ]);
  assert.deepEqual(splitFileBlocks(sent), { text: 'compare @a.ts with @b "x".md', files: ['a.ts', 'b "x".md'] });
});

test('a message without blocks, or with text after a block, is left whole', () => {
  assert.deepEqual(splitFileBlocks('plain'), { text: 'plain', files: [] });
  const odd = 'see\n\n<file path="a">\nA\n</file>\n\nand more words';
  assert.deepEqual(splitFileBlocks(odd), { text: odd, files: [] });
});
