// Pins are append-only `arbor.pin` custom entries; the newest one for a target on the path wins, and an
// unpin also takes a message out of what later compactions keep for being pinned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN_CUSTOM_TYPE, isPinnable, pinChangeOf, pinData, pinnedEntryIds } from '../../../src/session/pins';
import { collectConstraints } from '../../../src/compaction/constraints';
import type { SessionEntry } from '../../../src/session/entries';
import { PathBuilder } from '../compaction/fixtures';

function pin(b: PathBuilder, targetId: string, pinned: boolean): void {
  const parentId = b.entries.at(-1)!.id;
  b.entries.push({ type: 'custom', id: `p${b.entries.length}`, parentId, timestamp: '2026-01-01T00:00:00Z', customType: PIN_CUSTOM_TYPE, data: pinData(targetId, pinned) } as SessionEntry);
}

test('the newest pin or unpin of a target on the path wins', () => {
  const b = new PathBuilder();
  const u = b.user('The id format is ACME-####.');
  const a = b.assistant('Noted.');
  pin(b, u, true);
  pin(b, a, true);
  assert.deepEqual([...pinnedEntryIds(b.entries)].sort(), [a, u].sort());
  pin(b, u, false);
  assert.deepEqual([...pinnedEntryIds(b.entries)], [a]);
  assert.deepEqual(pinChangeOf(b.entries.at(-1)!), { targetId: u, pinned: false });
  assert.equal(pinChangeOf(b.entries[0]!), undefined);
  // a pin written without `pinned` pins (the engine has always read it so)
  assert.deepEqual(pinChangeOf({ type: 'custom', id: 'x', parentId: null, timestamp: '', customType: PIN_CUSTOM_TYPE, data: { targetId: u } } as SessionEntry), { targetId: u, pinned: true });
});

test('only user and assistant messages with text can be pinned', () => {
  const b = new PathBuilder();
  b.user('hello');
  b.assistant('', [b.toolCall('read', { path: 'a' })]);
  b.toolResult('content', 'read');
  b.assistant('text');
  assert.deepEqual(b.entries.map(isPinnable), [true, false, false, true]);
});

test('a message unpinned since the previous compaction is no longer kept as pinned; still pinned ones are', () => {
  const previous = [
    { entryId: 'u1', kind: 'pinned' as const, text: 'Pinned one' },
    { entryId: 'u2', kind: 'pinned' as const, text: 'Pinned two' },
    { entryId: 'u3', kind: 'constraint' as const, text: 'Never push to main.' },
  ];
  const kept = collectConstraints(previous, [], new Set(['u2']));
  assert.deepEqual(kept.map((c) => c.entryId), ['u2', 'u3']);
});
