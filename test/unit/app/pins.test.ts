// The pin mark in the app's view models: TreeIndex reports a pinned target as changed when a pin entry is
// appended and again when the leaf moves to a branch without the pin; conversation views and the protocol
// items carry it; compaction views carry the words kept verbatim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TreeIndex } from '../../../src/app/tree-index';
import { conversationEntry } from '../../../src/app/view-model';
import { toItem, toTreeNode } from '../../../src/vscode/chat-items';
import { PIN_CUSTOM_TYPE, pinData } from '../../../src/session/pins';
import { TreeSession } from '../branch/helpers';

test('TreeIndex: a pin and an unpin change their target; leaving the branch of the pin clears the mark', async () => {
  const t = await TreeSession.create();
  try {
    const u1 = await t.user('keep this');
    const a1 = await t.assistant('ok');
    const tree = new TreeIndex(t.store);
    const pin = await t.store.appendCustomEntry(PIN_CUSTOM_TYPE, pinData(u1, true));
    const delta = tree.append(pin);
    assert.deepEqual(delta.changed.filter((n) => n.id === u1).map((n) => n.pinned), [true]);
    assert.equal(tree.get(u1)?.pinned, true);
    assert.equal(toTreeNode(tree.get(u1)!, null).pinned, true);
    t.at(a1);
    const moved = tree.syncLeaf();
    assert.ok(moved.changed.some((n) => n.id === u1 && n.pinned === undefined), 'the pin is on the branch left behind');
    assert.equal(tree.isPinned(u1), false);
    t.at(pin.id);
    tree.syncLeaf();
    const unpin = await t.store.appendCustomEntry(PIN_CUSTOM_TYPE, pinData(u1, false));
    assert.ok(tree.append(unpin).changed.some((n) => n.id === u1 && n.pinned === undefined));
    // reopened: the same state from the file
    assert.equal(new TreeIndex(await t.reopen()).isPinned(u1), false);
  } finally {
    await t.dispose();
  }
});

test('conversation items carry the pin mark; a compaction item carries the words it kept', () => {
  const view = conversationEntry({ type: 'message', id: 'u1', parentId: null, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'x', timestamp: 1 } })!;
  view.pinned = true;
  assert.equal(toItem(view)?.pinned, true);
  const kept = [{ entryId: 'u1', kind: 'pinned' as const, text: 'The id format is ACME-####.' }];
  const compaction = conversationEntry({
    type: 'compaction', id: 'c1', parentId: 'u1', timestamp: '2026-01-01T00:00:01Z', summary: '## Goal\nx', firstKeptEntryId: 'u1', tokensBefore: 10,
    details: { readFiles: ['a.ts'], modifiedFiles: [], constraints: kept },
  })!;
  const item = toItem(compaction);
  assert.equal(item?.kind, 'compaction');
  assert.deepEqual(item?.kind === 'compaction' ? item.kept : undefined, kept);
  // a hook's details are not trusted as kept words
  const fromHook = conversationEntry({ type: 'compaction', id: 'c2', parentId: 'u1', timestamp: '', summary: 's', firstKeptEntryId: 'u1', tokensBefore: 1, fromHook: true, details: { constraints: kept } })!;
  assert.equal(fromHook.kind === 'compaction' ? fromHook.kept : 'not a compaction', undefined);
});
