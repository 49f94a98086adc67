import { test } from 'node:test';
import { refusal } from './outcome';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { appHarness } from './helpers';
import { viewText } from '../../../src/present/view-text';

test('branchAt a user message keeps it as the leaf: its reply leaves the path, the next prompt follows it', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A1' }, { text: 'A2' }, { text: 'A3' });
  await h.app.prompt('first question');
  await h.app.prompt('second question');
  const file = h.app.snapshot().session!.file!;
  const before = await readFile(file, 'utf8');
  const second = h.app.snapshot().conversation.find((e) => viewText(e) === 'second question')!;
  await h.app.tree.branchAt(second.id);
  assert.equal(h.app.snapshot().leafId, second.id);
  assert.deepEqual(h.app.snapshot().conversation.map(viewText), ['first question', 'A1', 'second question']);
  assert.equal(await readFile(file, 'utf8'), before, 'moving the leaf writes nothing');
  await h.app.prompt('a follow-up right after it');
  const texts = h.app.snapshot().conversation.map(viewText);
  assert.deepEqual(texts, ['first question', 'A1', 'second question', 'a follow-up right after it', 'A3']);
  // The dropped reply is still in the tree, off the active path.
  assert.ok(h.app.snapshot().tree!.some((n) => n.firstLine === 'A2' && !n.isOnActivePath));
});

test('branchAt an assistant message makes it the leaf; unknown ids are refused', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A1' }, { text: 'A2' });
  await h.app.prompt('first question');
  await h.app.prompt('second question');
  const a1 = h.app.snapshot().conversation.find((e) => viewText(e) === 'A1')!;
  await h.app.tree.branchAt(a1.id);
  assert.equal(h.app.snapshot().leafId, a1.id);
  assert.deepEqual(h.app.snapshot().conversation.map(viewText), ['first question', 'A1']);
  refusal(await h.app.tree.branchAt('no-such-entry'), 'unknown-entry');
});
