// File checkpoints on random conversation trees (seeded): wherever the conversation goes, restoring the
// files of any node gives back exactly the workspace that node had, and the state at a node is the
// replay of the manifests on its path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRestore, planRestore, readManifest, stateAtPath, type FileState } from '../../../src/checkpoints';
import { seededRandom } from '../seeded-random';
import { diskState, fixture, turn, type Fixture } from './helpers';

const NAMES = ['a.txt', 'b.txt', 'src/c.ts', 'src/deep/d.md', 'e.bin'];

async function restoreTo(f: Fixture, id: string | null): Promise<void> {
  const plan = await planRestore(f.cp.files, f.store, f.store.getLeafId(), id);
  assert.deepEqual(plan.outsideChanges, [], 'no outside change was made');
  assert.deepEqual(plan.notRestorable, []);
  const outcome = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  assert.equal(outcome.kind, 'restored');
  if (id === null) f.store.resetLeaf();
  else f.store.branch(id);
}

function randomChanges(random: () => number, disk: Record<string, string>): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const name = NAMES[Math.floor(random() * NAMES.length)]!;
    if (name in changes) continue;
    changes[name] = name in disk && random() < 0.25 ? null : `${name} v${Math.floor(random() * 5)}\n`;
  }
  return changes;
}

for (const seed of [1, 2, 3]) {
  test(`random tree (seed ${seed}): restoring any node gives its workspace back; state = replay of its path`, async (t) => {
    const f = await fixture();
    t.after(() => f.cleanup());
    const random = seededRandom(seed);
    const expected = new Map<string | null, Record<string, string>>([[null, {}]]);
    const nodes: (string | null)[] = [null];
    for (let step = 0; step < 30; step++) {
      if (random() < 0.3) await restoreTo(f, nodes[Math.floor(random() * nodes.length)]!);
      const user = await f.store.appendMessage({ role: 'user', content: `step ${step}`, timestamp: step });
      expected.set(user.id, diskState(f.ws));
      nodes.push(user.id);
      const id = await turn(f, randomChanges(random, diskState(f.ws)));
      if (id) {
        expected.set(id, diskState(f.ws));
        nodes.push(id);
      }
    }
    for (const id of [...nodes].sort(() => random() - 0.5)) {
      await restoreTo(f, id);
      assert.deepEqual(diskState(f.ws), expected.get(id), `seed ${seed}: files at node ${id}`);
      const replay: Record<string, FileState> = {};
      for (const entry of f.store.getBranch(id)) {
        const read = readManifest(entry);
        if (read.kind === 'manifest') Object.assign(replay, read.manifest.after);
      }
      assert.deepEqual(Object.fromEntries(stateAtPath(f.store.getBranch(id)).files), replay);
    }
  });
}

test('a file changed outside Arbor is listed, kept unless chosen, and saved in a restore point', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  await f.store.appendMessage({ role: 'user', content: 'one', timestamp: 1 });
  const first = await turn(f, { 'a.txt': 'A1\n', 'b.txt': 'B1\n' });
  await turn(f, { 'a.txt': 'A2\n', 'b.txt': 'B2\n' });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(`${f.ws}/a.txt`, 'edited by the user\n');
  const leafBefore = f.store.getLeafId();

  const plan = await planRestore(f.cp.files, f.store, leafBefore, first!);
  assert.deepEqual(plan.outsideChanges.map((c) => c.key), ['ws/a.txt']);
  assert.deepEqual(plan.changes.map((c) => c.key), ['ws/b.txt']);
  const refused = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  assert.equal(refused.kind, 'failed', 'a restore point is needed and no session was given');
  assert.deepEqual(diskState(f.ws), { 'a.txt': 'edited by the user\n', 'b.txt': 'B2\n' }, 'nothing changed');

  const append = (type: string, data: unknown) => f.store.appendCustomEntry(type, data);
  const kept = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set(), append });
  assert.ok(kept.kind === 'restored' && kept.restorePointId);
  assert.deepEqual(kept.kept, ['ws/a.txt']);
  assert.deepEqual(diskState(f.ws), { 'a.txt': 'edited by the user\n', 'b.txt': 'B1\n' });
  const point = kept.restorePointId!;
  assert.equal(f.store.getEntry(point)!.parentId, leafBefore, 'the restore point hangs under the node we left');
  f.store.branch(first!);

  // Now overwrite it: the user's text is still reachable through the restore point.
  const again = await planRestore(f.cp.files, f.store, first!, first!);
  assert.deepEqual(again.outsideChanges.map((c) => c.key), ['ws/a.txt']);
  const overwritten = await applyRestore(f.cp.files, f.storeDir, again, { overwrite: new Set(['ws/a.txt']), append });
  assert.equal(overwritten.kind, 'restored');
  assert.deepEqual(diskState(f.ws), { 'a.txt': 'A1\n', 'b.txt': 'B1\n' });
  f.store.branch(first!);
  const back = await planRestore(f.cp.files, f.store, first!, point);
  assert.deepEqual(back.outsideChanges, []);
  await applyRestore(f.cp.files, f.storeDir, back, { overwrite: new Set() });
  assert.deepEqual(diskState(f.ws), { 'a.txt': 'edited by the user\n', 'b.txt': 'B2\n' }, 'switching back redoes everything');
});

test('files over the size cap and excluded files are listed as not checkpointed, never silently skipped', async (t) => {
  const f = await fixture({ maxFileBytes: 10, exclude: ['*.log'] });
  t.after(() => f.cleanup());
  await f.store.appendMessage({ role: 'user', content: 'one', timestamp: 1 });
  const id = await turn(f, { 'big.txt': 'x'.repeat(50), 'small.txt': 'ok', 'trace.log': 'ignored' });
  const read = readManifest(f.store.getEntry(id!)!);
  assert.ok(read.kind === 'manifest');
  assert.deepEqual({ ...read.manifest.after }['ws/big.txt'], { kind: 'skipped', reason: 'too-large', size: 50 });
  assert.equal(read.manifest.after['ws/trace.log'], undefined, 'excluded by glob');
  const plan = await planRestore(f.cp.files, f.store, id!, null);
  assert.deepEqual(plan.notRestorable.map((n) => n.key), ['ws/big.txt']);
  assert.deepEqual(plan.notRestorable[0]!.why, { kind: 'disk-not-checkpointed', cause: 'too-large' }, 'the file on disk is over the cap: not replaced');
  assert.deepEqual(plan.changes.map((c) => [c.key, c.target.kind]), [['ws/small.txt', 'absent']]);
});

test('a manifest naming a path outside the workspace is refused at restore', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const hostile = { kind: 'file', hash: 'a'.repeat(64), size: 1 };
  const entry = await f.store.appendCustomEntry('arbor.files', { version: 1, reason: 'turn', method: 'tool', before: { 'ws/../escape.txt': { kind: 'absent' } }, after: { 'ws/../escape.txt': hostile } });
  const plan = await planRestore(f.cp.files, f.store, entry.id, null);
  const planForward = await planRestore(f.cp.files, f.store, null, entry.id);
  assert.deepEqual([...plan.changes, ...planForward.changes], []);
  assert.deepEqual(planForward.notRestorable.map((n) => n.key), ['ws/../escape.txt']);
});
