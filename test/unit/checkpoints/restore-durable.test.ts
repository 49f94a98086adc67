// A restore's files and folders reach the disk before the journal that could repair them is removed
// (docs/reliability.md, "file checkpoints"): after a power cut the journal is either still there (the
// next start finishes the restore) or everything it covered is on disk. Checked on the restore itself,
// on a recovery at start and on a rollback, with every kind of step: in place, in place with a mode
// change, a hard-linked file (temp + rename), a new file in new folders, a deletion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, linkSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { applyRestore, planRestore, recoverRestores } from '../../../src/checkpoints';
import { journalDir, newJournal, writeJournal } from '../../../src/checkpoints/journal';
import { diskState, fixture, turn, type Fixture } from './helpers';
import { recordSyncs, type SyncRecorder } from './sync-recorder';
import { builtin } from '../tools/builtin';

const BEFORE = { 'a.txt': 'a before\n', 'b.txt': 'b before, longer\n'.repeat(30), 'run.sh': 'echo 1\n', 'linked.txt': 'one\n', 'gone.txt': 'deleted by the restore\n' };
const AFTER = { 'a.txt': 'a after\n', 'b.txt': 'b after\n', 'run.sh': 'echo 2\n', 'linked.txt': 'two\n', 'new/deep/x.txt': 'created with its folders\n' };

/** A turn that only changes a file's mode. */
async function modeTurn(f: Fixture, rel: string, mode: number): Promise<string> {
  await f.cp.recorder.beforeTool(builtin('write'), { path: rel });
  chmodSync(join(f.ws, rel), mode);
  await f.cp.recorder.afterTool(builtin('write'), { path: rel });
  return (await f.cp.recorder.finishTurn((type, data) => f.store.appendCustomEntry(type, data)))!;
}

/** A session whose node AFTER (returned; run.sh executable) the restore goes to, from the leaf BEFORE. */
async function twoStates(f: Fixture): Promise<string> {
  await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  await turn(f, AFTER);
  const after = await modeTurn(f, 'run.sh', 0o755);
  await turn(f, { ...BEFORE, 'new/deep/x.txt': null });
  rmSync(join(f.ws, 'new'), { recursive: true });
  await modeTurn(f, 'run.sh', 0o644);
  return after;
}

function sorted(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function watch(f: Fixture): SyncRecorder {
  return recordSyncs(f.ws, journalDir(f.storeDir));
}

test('a restore syncs every file it wrote and every folder it changed before removing its journal', { skip: process.platform === 'win32' }, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const target = await twoStates(f);
  linkSync(join(f.ws, 'linked.txt'), join(f.base, 'other-name.txt'));
  const plan = await planRestore(f.cp.files, f.store, f.store.getLeafId(), target);
  assert.equal(plan.changes.length, 6);
  const recorder = watch(f);
  t.after(() => recorder.restore());
  const outcome = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  recorder.restore();
  assert.equal(outcome.kind, 'restored', JSON.stringify(outcome));
  assert.deepEqual(diskState(f.ws), sorted(AFTER));
  assert.equal(statSync(join(f.ws, 'run.sh')).mode & 0o111, 0o111);
  assert.equal(readFileSync(join(f.base, 'other-name.txt'), 'utf8'), 'one\n', 'the hard link was replaced, not written through');
  assert.equal(recorder.removals.length, 1, 'the journal was removed once');
  assert.deepEqual(recorder.removals[0]!.unpaid, {}, 'nothing the journal covered was left unsynced');
});

test('recovery at start syncs what it finished before removing the journal', { skip: process.platform === 'win32' }, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const target = await twoStates(f);
  const plan = await planRestore(f.cp.files, f.store, f.store.getLeafId(), target);
  // A restore that died right after writing its journal: recovery applies every step.
  await writeJournal(f.storeDir, newJournal(plan.fromId, plan.toId, plan.changes.map((c) => ({ key: c.key, from: c.current, to: c.target }))));
  const recorder = watch(f);
  t.after(() => recorder.restore());
  const recovered = await recoverRestores(f.cp.files, f.storeDir);
  recorder.restore();
  assert.deepEqual(recovered.map((r) => r.outcome), ['finished']);
  assert.deepEqual(diskState(f.ws), sorted(AFTER));
  assert.equal(recorder.removals.length, 1);
  assert.deepEqual(recorder.removals[0]!.unpaid, {});
});

test('a restore rolled back after a failed step syncs the rollback before removing the journal', { skip: process.platform === 'win32' }, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const target = await twoStates(f);
  const plan = await planRestore(f.cp.files, f.store, f.store.getLeafId(), target);
  // The content of one file disappears between the plan and the apply: that step fails.
  const missing = plan.changes.find((c) => c.key === 'ws/b.txt')!;
  assert.ok(missing.target.kind === 'file');
  unlinkSync(f.cp.blobs.pathOf(missing.target.hash));
  const recorder = watch(f);
  t.after(() => recorder.restore());
  const outcome = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  recorder.restore();
  assert.deepEqual(outcome.kind === 'failed' && outcome.rolledBack, true, JSON.stringify(outcome));
  assert.deepEqual(diskState(f.ws), sorted(BEFORE));
  assert.equal(recorder.removals.length, 1);
  assert.deepEqual(recorder.removals[0]!.unpaid, {});
});
