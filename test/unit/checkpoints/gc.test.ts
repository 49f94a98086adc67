// Garbage collection of the blob store: blobs a live session names stay, the others go (after a grace
// period), an unreadable live session stops the collection, and the store size is reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, unlinkSync } from 'node:fs';
import { collectGarbage, hashContent } from '../../../src/checkpoints';
import { fixture, turn } from './helpers';

test('gc keeps blobs live sessions reference and removes the rest; the size is reported', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  await turn(f, { 'a.txt': 'shared\n', 'b.txt': 'only in session one\n' });
  const orphan = await f.cp.blobs.put(Buffer.from('written, never named'));
  const before = await f.cp.blobs.size();
  assert.equal(before.blobs, 3);
  assert.equal(before.bytes, Buffer.byteLength('shared\n') + Buffer.byteLength('only in session one\n') + Buffer.byteLength('written, never named'));

  const young = await collectGarbage(f.cp.blobs, [f.store.file]);
  assert.deepEqual(young, { kind: 'collected', removed: 0, freedBytes: 0, kept: before }, 'inside the grace period nothing goes');

  const later = { graceMs: 0, now: Date.now() + 1000 };
  const collected = await collectGarbage(f.cp.blobs, [f.store.file], later);
  assert.equal(collected.kind === 'collected' && collected.removed, 1);
  assert.equal(await f.cp.blobs.has(orphan), false);
  assert.equal(await f.cp.blobs.has(hashContent(Buffer.from('shared\n'))), true);

  const gone = f.store.file;
  if (process.getuid?.() !== 0) {
    chmodSync(gone, 0o000);
    const refused = await collectGarbage(f.cp.blobs, [gone], later);
    assert.equal(refused.kind, 'skipped');
    assert.equal((await f.cp.blobs.size()).blobs, 2, 'an unreadable session stops the collection');
    chmodSync(gone, 0o644);
  }
  unlinkSync(gone);
  const all = await collectGarbage(f.cp.blobs, [], later);
  assert.equal(all.kind === 'collected' && all.removed, 2);
  assert.deepEqual(await f.cp.blobs.size(), { blobs: 0, bytes: 0 });
});
