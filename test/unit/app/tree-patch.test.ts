// The host's tree patches, end to end without the editor: a real session store and TreeIndex, the
// TreePatchBuilder the chat view uses, and the webview's patch logic. After any mix of appends, label
// changes and leaf moves, the webview's patched tree equals a full `tree` of the session, and each
// (uncoalesced) patch carries exactly the nodes whose protocol view changed.
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
  const leafId = store.getLeafId();
  return treeModelOf(leafId, index.all().map((node) => toTreeNode(node, leafId)));
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
  const patch = p.builder.take(p.store.getLeafId(), (id) => p.index.get(id));
  assert.notEqual(patch, 'full', 'a synced builder patches');
  if (patch === undefined || patch === 'full') return undefined;
  applyTreePatch(p.webview, patch);
  return patch;
}

async function randomStep(p: Pipeline, rand: () => number, step: number): Promise<void> {
  const ids = p.store.getEntries().map((e) => e.id);
  const pick = () => ids[Math.floor(rand() * ids.length)]!;
  const r = rand();
  if (ids.length === 0 || r < 0.55) await append(p, p.store.appendMessage(step % 2 === 0 ? user(`u${step}`) : assistant(`a${step}`)));
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
  assert.equal(p.builder.take(p.store.getLeafId(), (id) => p.index.get(id)), undefined);
});

test('until a full tree is sent (webview reload, session switch) the builder asks for one', () => {
  const builder = new TreePatchBuilder();
  assert.equal(builder.take(null, () => undefined), 'full');
  builder.fullSent(null);
  assert.equal(builder.take(null, () => undefined), undefined);
  builder.invalidate();
  assert.equal(builder.take(null, () => undefined), 'full');
});
