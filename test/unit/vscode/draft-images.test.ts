// The host's copy of a composer's unsent images (src/vscode/draft-images.ts): named as handed out, kept
// as the composer reports its chips (order, removals), bounded to a message's images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DraftImages } from '../../../src/vscode/draft-images';
import { IMAGE_LIMITS } from '../../../src/protocol';

const image = (name: string) => ({ name, mimeType: 'image/png' as const, data: 'iVBORw0KGgo=' });

test('the draft names each image, keeps what the composer reports, in its order, and at most a message of images', () => {
  const draft = new DraftImages();
  const [a, b] = draft.add([image('a.png'), image('b.png')]);
  assert.notEqual(a!.id, b!.id);
  assert.deepEqual(draft.list().map((i) => i.name), ['a.png', 'b.png']);
  draft.keep([b!.id, 'unknown', a!.id]);
  assert.deepEqual(draft.list().map((i) => i.name), ['b.png', 'a.png'], 'the composer order; an id it never got is ignored');
  draft.keep([a!.id]);
  assert.deepEqual(draft.list().map((i) => i.name), ['a.png']);
  assert.equal(draft.room, IMAGE_LIMITS.perMessage - 1);
  const more = draft.add(Array.from({ length: IMAGE_LIMITS.perMessage }, (_, i) => image(`m${i}.png`)));
  assert.equal(more.length, IMAGE_LIMITS.perMessage, 'all are named (the composer refuses the extra ones)');
  assert.equal(draft.list().length, IMAGE_LIMITS.perMessage, 'only those that fit are kept');
  assert.equal(draft.room, 0);
  draft.keep([]);
  assert.deepEqual(draft.list(), [], 'sent: the draft is empty');
});
