// Both trees leave file manifests (`arbor.files`) out: the Session Tree's model over displaySource shows
// a manifest's children under the reply above it (a manifest with two children is a branch point there),
// a leaf on a manifest is the reply's row, and picking the reply means the reply with its files.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { FILES_CUSTOM_TYPE } from '../../../src/checkpoints/types';
import { filesBadgeOf, withFilesOf } from '../../../src/app/display-tree';
import { displaySource } from '../../../src/vscode/tree/display-source';
import { TreeModel } from '../../../src/vscode/tree/tree-model';
import { assistant, user } from '../session/helpers';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const STATE = { kind: 'file', hash: 'b'.repeat(64), size: 1 };

function manifest(store: SessionStore, files: string[], reason: 'turn' | 'restore-point' = 'turn'): Promise<{ id: string }> {
  const after = Object.fromEntries(files.map((f) => [f, STATE]));
  return store.appendCustomEntry(FILES_CUSTOM_TYPE, { version: 1, reason, method: 'tool', before: {}, after });
}

/** u1 → reply → files (3) → { u2 → a2, u3 } */
async function session() {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-display-tree-'));
  dirs.push(dir);
  const store = await SessionStore.create({ dir, cwd: dir });
  const u1 = (await store.appendMessage(user('fix the bug'))).id;
  const reply = (await store.appendMessage(assistant('fixed'))).id;
  const files = (await manifest(store, ['a.ts', 'b.ts', 'c.ts'])).id;
  const u2 = (await store.appendMessage(user('and the tests'))).id;
  const a2 = (await store.appendMessage(assistant('done'))).id;
  store.branch(files);
  const u3 = (await store.appendMessage(user('try another way'))).id;
  return { store, u1, reply, files, u2, a2, u3 };
}

test('Session Tree: the manifest has no row, its two children make the reply a branch point', async () => {
  const s = await session();
  const model = new TreeModel(displaySource(s.store));
  assert.deepEqual(model.children(), [s.u1, s.reply], 'the top run stops at the reply, the branch point');
  assert.deepEqual(model.children(s.reply), [s.u2, s.u3]);
  assert.equal(model.hasChildren(s.reply), true);
  assert.equal(model.childCount(s.reply), 2);
  assert.equal(model.parent(s.u2), s.reply);
  assert.equal(model.parent(s.a2), s.u2, 'a head with one child shows its run');
  assert.deepEqual(model.children(s.u2), [s.a2]);
  s.store.branch(s.files);
  model.invalidateAll();
  assert.equal(model.isLeaf(s.reply), true, 'a leaf on the manifest is the reply row');
  assert.equal(model.isOnActivePath(s.reply), true);
  assert.equal(model.isOnActivePath(s.u2), false);
});

test('the reply carries the count; picking it means the reply with its files, the newest restore point last', async () => {
  const s = await session();
  assert.deepEqual(filesBadgeOf(s.store, s.reply), { count: 3, text: '3 files changed' });
  assert.equal(filesBadgeOf(s.store, s.u1), undefined);
  assert.equal(withFilesOf(s.store, s.reply), s.files);
  assert.equal(withFilesOf(s.store, s.u2), s.u2, 'nothing below: the entry itself');
  s.store.branch(s.files);
  const point = (await manifest(s.store, ['a.ts', 'd.ts'], 'restore-point')).id;
  assert.equal(withFilesOf(s.store, s.reply), point, 'switching back to the reply redoes what was saved when leaving it');
  assert.deepEqual(filesBadgeOf(s.store, s.reply), { count: 4, text: '3 files changed · 2 files saved before a restore' });
});
