// The scroll position that survives the webview being re-created: saved as the entry at the top of the
// viewport plus the offset into it, read back only when well-formed, and restored by the rule: the entry in
// the loaded tail → scroll to it; on the active path before it → load pages first; not knowable yet → wait
// for the tree; gone from the path → the bottom.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeNode } from '../../../src/protocol';
import { createSaver, loadPersisted, type PersistedUi } from '../../../webview/persist';
import { nearTopPage, parseAnchor, restoreStep, type RestoreContext } from '../../../webview/scroll-anchor';

const anchor = { entryId: 'm3001', offset: 37.5 };

function context(fields: Partial<RestoreContext> & { loaded?: string[]; nodes?: Pick<TreeNode, 'id' | 'kind' | 'onActivePath'>[] } = {}): RestoreContext {
  const loaded = new Set(fields.loaded ?? ['m4800', 'm4801']);
  const nodes = new Map((fields.nodes ?? [{ id: 'm3001', kind: 'assistant', onActivePath: true }]).map((n) => [n.id, n]));
  return {
    isLoaded: (id) => loaded.has(id),
    hasEarlier: fields.hasEarlier ?? true,
    treeReceived: fields.treeReceived ?? true,
    node: (id) => nodes.get(id),
  };
}

test('an anchor in the received tail is restored right away, whatever else is known', () => {
  assert.equal(restoreStep(anchor, context({ loaded: ['m3001'], treeReceived: false })), 'restore');
  assert.equal(restoreStep(anchor, context({ loaded: ['m3001'], hasEarlier: false, nodes: [] })), 'restore');
});

test('an anchor on the active path before the tail loads earlier pages (and is asked about again after each)', () => {
  assert.equal(restoreStep(anchor, context()), 'load');
  // after a page that does not reach it yet: still loading; after the one that holds it: restore
  assert.equal(restoreStep(anchor, context({ loaded: ['m3800', 'm4800'] })), 'load');
  assert.equal(restoreStep(anchor, context({ loaded: ['m2800', 'm3001', 'm4800'] })), 'restore');
});

test('before the tree arrives an anchor outside the tail waits (the tree tells whether it is on the path)', () => {
  assert.equal(restoreStep(anchor, context({ treeReceived: false })), 'wait');
  assert.equal(restoreStep(anchor, context({ treeReceived: false, hasEarlier: false })), 'bottom', 'the whole path is loaded: no tree needed');
});

test('an anchor that left the active path falls back to the bottom', () => {
  const cases: [string, Partial<Parameters<typeof context>[0]>][] = [
    ['on another branch', { nodes: [{ id: 'm3001', kind: 'assistant', onActivePath: false }] }],
    ['not in this session', { nodes: [{ id: 'other', kind: 'user', onActivePath: true }] }],
    ['a kind the chat never shows', { nodes: [{ id: 'm3001', kind: 'label', onActivePath: true }] }],
    ['the whole path is loaded and it is not there', { hasEarlier: false }],
  ];
  for (const [name, fields] of cases) assert.equal(restoreStep(anchor, context(fields)), 'bottom', name);
});

test('a scroll near the top loads no page of its own while a restore or reveal loads its way to an entry', () => {
  // A small page slipped between a restore's large pages made it load 2,400 items where 3,200 were due.
  assert.equal(nearTopPage(true, 200), undefined);
  assert.equal(nearTopPage(false, 200), 200);
});

test('a saved anchor is read back only when well-formed', () => {
  assert.deepEqual(parseAnchor({ entryId: 'e1', offset: 12.25 }), { entryId: 'e1', offset: 12.25 });
  assert.deepEqual(parseAnchor({ entryId: 'e1', offset: -8 }), { entryId: 'e1', offset: -8 }, 'a row starting below the top edge');
  for (const bad of [undefined, null, 'e1', 42, {}, { entryId: '', offset: 0 }, { entryId: 'x'.repeat(257), offset: 0 }, { entryId: 7, offset: 0 },
    { entryId: 'e1' }, { entryId: 'e1', offset: '3' }, { entryId: 'e1', offset: Number.NaN }, { entryId: 'e1', offset: Number.POSITIVE_INFINITY }, { entryId: 'e1', offset: 1e9 }]) {
    assert.equal(parseAnchor(bad), undefined, JSON.stringify(bad) ?? String(bad));
  }
});

test('persisted state: the anchor round-trips; without a valid one the view opens at the bottom', () => {
  let stored: unknown;
  const api = { getState: () => stored, setState: (state: unknown) => void (stored = state) };
  assert.deepEqual(loadPersisted(api), { input: '', atBottom: true, treeOpen: false, history: [] }, 'nothing saved yet');

  stored = { input: 'draft', atBottom: false, anchor, treeOpen: true, history: ['a', 3, 'b'] };
  assert.deepEqual(loadPersisted(api), { input: 'draft', atBottom: false, anchor, treeOpen: true, history: ['a', 'b'] });

  // State from before anchors (a pixel offset into the old loaded range) or with a broken anchor: the bottom.
  stored = { input: '', scrollTop: 48_000, atBottom: false, treeOpen: false, history: [] };
  assert.deepEqual(loadPersisted(api), { input: '', atBottom: true, treeOpen: false, history: [] });
  stored = { atBottom: false, anchor: { entryId: 'e1', offset: 'far' } };
  assert.equal(loadPersisted(api).atBottom, true);
  assert.equal('anchor' in loadPersisted(api), false);
  // At the bottom an anchor is not needed, and not followed.
  stored = { atBottom: true, anchor };
  assert.equal(loadPersisted(api).atBottom, true);
});

test('the saver writes what is current when it fires, at most every 250 ms, and says what it saved', async () => {
  const states: unknown[] = [];
  const saved: PersistedUi[] = [];
  let ui: PersistedUi = { input: '', atBottom: true, treeOpen: false, history: [] };
  const save = createSaver({ setState: (state) => states.push(state) }, () => ui, (s) => saved.push(s));
  save();
  ui = { ...ui, atBottom: false, anchor };
  save();
  assert.equal(states.length, 0, 'not written synchronously');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(states, [ui], 'one write, with the position at the time it fired');
  assert.deepEqual(saved, [ui]);
});
