// The host's tree patches, end to end without the editor: a real session store and TreeIndex, the
// TreePatchBuilder the chat view uses, and the webview's patch logic. After any mix of appends, label
// changes and leaf moves, the webview's patched tree equals a full `tree` of the session, and each
// (uncoalesced) patch carries exactly the nodes whose protocol view changed. File manifests (`arbor.files`)
// have no node: their children hang on the reply above them, which carries the files count.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TreeIndex } from '../../../src/app/tree-index';
import type { TreeNode } from '../../../src/protocol';
import { SessionStore } from '../../../src/session/store';
import type { SessionEntry } from '../../../src/session/entries';
import { TreePatchBuilder } from '../../../src/vscode/tree-patch';
import { toTreeNode } from '../../../src/vscode/tree-nodes';
import { applyTreePatch, treeModelOf, type TreeModel } from '../../../webview/tree-patch';
import { assistant, user } from '../session/helpers';
import { seededRandom as random } from '../seeded-random';
import { FILES_CUSTOM_TYPE } from '../../../src/checkpoints/types';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

interface Pipeline {
  store: SessionStore;
  index: TreeIndex;
  builder: TreePatchBuilder;
  webview: TreeModel;
}

async function pipeline(): Promise<Pipeline> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-tree-patch-'));
  dirs.push(dir);
  const store = await SessionStore.create({ dir, cwd: dir });
  const index = new TreeIndex(store);
  const builder = new TreePatchBuilder();
  const webview = fullTree(store, index);
  builder.fullSent(webview.leafId);
  return { store, index, builder, webview };
}

/** What a full `tree` message would carry now. */
function fullTree(store: SessionStore, index: TreeIndex): TreeModel {
  const leafId = index.shownLeafId;
  return treeModelOf(leafId, index.all().map((node) => toTreeNode(node, leafId)));
}

const FILE_STATE = { kind: 'file', hash: 'a'.repeat(64), size: 3 };

/** A turn's file manifest naming `files`, appended at the leaf as the recorder does. */
function appendManifest(store: SessionStore, files: readonly string[], reason: 'turn' | 'restore-point' = 'turn'): Promise<SessionEntry> {
  const after = Object.fromEntries(files.map((file) => [file, FILE_STATE]));
  const before = Object.fromEntries(files.map((file) => [file, { kind: 'absent' }]));
  return store.appendCustomEntry(FILES_CUSTOM_TYPE, { version: 1, reason, method: 'tool', before, after });
}

const isManifest = (entry: SessionEntry | undefined) => entry?.type === 'custom' && entry.customType === FILES_CUSTOM_TYPE;

/** The row that shows `id`, worked out from the store alone: past manifests, up to the nearest other entry. */
function rowOf(store: SessionStore, id: string | null): string | null {
  let entry = id === null ? undefined : store.getEntry(id);
  while (entry && isManifest(entry)) entry = entry.parentId === null ? undefined : store.getEntry(entry.parentId);
  return entry?.id ?? null;
}

/** The display rules, checked on a full tree against the store (independently of TreeIndex). */
function assertDisplayRules(store: SessionStore, tree: TreeModel, where: string): void {
  const ids = new Set(tree.nodes.map((n) => n.id));
  for (const node of tree.nodes) {
    const entry = store.getEntry(node.id)!;
    assert.ok(!isManifest(entry), `${where}: a manifest has no node`);
    assert.equal(node.parentId, entry.parentId === null ? null : rowOf(store, entry.parentId), `${where}: ${node.id} hangs on the row above`);
    assert.equal(node.childCount, tree.nodes.filter((n) => n.parentId === node.id).length, `${where}: ${node.id} counts its shown children`);
  }
  for (const entry of store.getEntries()) if (!isManifest(entry)) assert.ok(ids.has(entry.id), `${where}: ${entry.id} has a node`);
  assert.equal(tree.leafId, rowOf(store, store.getLeafId()), `${where}: the leaf's row`);
}

async function append(p: Pipeline, write: Promise<SessionEntry>): Promise<void> {
  p.builder.record(p.index.append(await write));
}

function move(p: Pipeline, to: string | null): void {
  if (to === null) p.store.resetLeaf();
  else p.store.branch(to);
  p.builder.record(p.index.syncLeaf());
}

/** Posts the pending patch to the webview model; returns it (undefined: nothing to send). */
function flush(p: Pipeline): { added: TreeNode[]; changed: TreeNode[] } | undefined {
  const patch = p.builder.take(p.index.shownLeafId, (id) => p.index.get(id));
  assert.notEqual(patch, 'full', 'a synced builder patches');
  if (patch === undefined || patch === 'full') return undefined;
  applyTreePatch(p.webview, patch);
  return patch;
}

async function randomStep(p: Pipeline, rand: () => number, step: number): Promise<void> {
  const ids = p.store.getEntries().map((e) => e.id);
  const pick = () => ids[Math.floor(rand() * ids.length)]!;
  const r = rand();
  if (ids.length > 0 && r < 0.1) await append(p, appendManifest(p.store, [`f${step}.txt`, `g${step}.txt`].slice(0, 1 + (step % 2))));
  else if (ids.length === 0 || r < 0.55) await append(p, p.store.appendMessage(step % 2 === 0 ? user(`u${step}`) : assistant(`a${step}`)));
  else if (r < 0.75) {
    const target = pick();
    const remove = p.store.getLabel(target) !== undefined && rand() < 0.5;
    await append(p, p.store.appendLabelChange(target, remove ? undefined : `label ${step}`));
  } else if (r < 0.97) move(p, pick());
  else move(p, null);
}

test('patching after every change: equals the full tree, and each patch holds exactly the nodes that changed', async () => {
  for (let seed = 1; seed <= 8; seed++) {
    const rand = random(seed);
    const p = await pipeline();
    for (let step = 0; step < 120; step++) {
      const before = new Map(p.webview.nodes.map((n) => [n.id, JSON.stringify(n)]));
      await randomStep(p, rand, step);
      const patch = flush(p);
      const expected = fullTree(p.store, p.index);
      assert.deepEqual(p.webview.nodes, expected.nodes, `seed ${seed} step ${step}: nodes`);
      assert.equal(p.webview.leafId, expected.leafId, `seed ${seed} step ${step}: leaf`);
      assertDisplayRules(p.store, expected, `seed ${seed} step ${step}`);
      const differs = expected.nodes.filter((n) => before.has(n.id) && before.get(n.id) !== JSON.stringify(n)).map((n) => n.id).sort();
      assert.deepEqual((patch?.changed ?? []).map((n) => n.id).sort(), differs, `seed ${seed} step ${step}: changed = exactly the nodes that differ`);
      for (const node of patch?.added ?? []) assert.ok(!before.has(node.id), `seed ${seed} step ${step}: ${node.id} was new`);
    }
  }
});

test('patches coalesced over several changes still equal the full tree', async () => {
  for (let seed = 11; seed <= 18; seed++) {
    const rand = random(seed);
    const p = await pipeline();
    for (let step = 0; step < 200; step++) {
      await randomStep(p, rand, step);
      if (rand() < 0.3) {
        flush(p);
        const expected = fullTree(p.store, p.index);
        assert.deepEqual(p.webview.nodes, expected.nodes, `seed ${seed} step ${step}`);
        assert.equal(p.webview.leafId, expected.leafId);
      }
    }
  }
});

test('an append to a long session patches the new node and its parent only; nothing pending sends nothing', async () => {
  const p = await pipeline();
  for (let i = 0; i < 300; i++) await append(p, p.store.appendMessage(i % 2 === 0 ? user(`u${i}`) : assistant(`a${i}`)));
  flush(p);
  const parent = p.store.getLeafId()!;
  await append(p, p.store.appendMessage(user('one more')));
  const patch = flush(p)!;
  assert.deepEqual(patch.added.map((n) => n.id), [p.store.getLeafId()]);
  assert.deepEqual(patch.changed.map((n) => n.id), [parent], 'the old leaf: a child more, no longer the leaf');
  assert.equal(p.builder.take(p.index.shownLeafId, (id) => p.index.get(id)), undefined);
});

test('a file manifest has no node: the reply above it carries the count, its children and the leaf', async () => {
  const p = await pipeline();
  await append(p, p.store.appendMessage(user('fix it')));
  await append(p, p.store.appendMessage(assistant('fixed')));
  const reply = p.store.getLeafId()!;
  flush(p);
  await append(p, appendManifest(p.store, ['a.txt', 'b.txt', 'c.txt']));
  const manifest = p.store.getLeafId()!;
  const onManifest = flush(p)!;
  assert.deepEqual(onManifest.added, [], 'no node for the manifest');
  assert.deepEqual(onManifest.changed.map((n) => [n.id, n.files?.count, n.isLeaf]), [[reply, 3, true]], 'the reply: 3 files, and the leaf shows on it');
  assert.equal(onManifest.changed[0]!.files?.text, '3 files changed');
  await append(p, p.store.appendMessage(user('next')));
  const next = p.store.getLeafId()!;
  p.store.branch(manifest);
  await append(p, p.store.appendMessage(user('other try')));
  flush(p);
  const full = fullTree(p.store, p.index);
  assert.deepEqual(p.webview.nodes, full.nodes);
  const node = (id: string) => full.nodes.find((n) => n.id === id)!;
  assert.equal(full.nodes.some((n) => n.id === manifest), false);
  assert.equal(node(next).parentId, reply, 'the next message hangs on the reply');
  assert.equal(node(reply).childCount, 2, 'two children of the manifest: a branch point at the reply');
  assert.equal(full.branchPoints, 1);
  p.store.branch(manifest);
  p.builder.record(p.index.syncLeaf());
  flush(p);
  assert.equal(p.webview.leafId, reply, 'a leaf on the manifest is the reply row');
  assert.equal(p.webview.nodes.find((n) => n.id === reply)!.isLeaf, true);
});

test('until a full tree is sent (webview reload, session switch) the builder asks for one', () => {
  const builder = new TreePatchBuilder();
  assert.equal(builder.take(null, () => undefined), 'full');
  builder.fullSent(null);
  assert.equal(builder.take(null, () => undefined), undefined);
  builder.invalidate();
  assert.equal(builder.take(null, () => undefined), 'full');
});
