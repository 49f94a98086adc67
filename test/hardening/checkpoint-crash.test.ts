// Crash safety of file restores (issue 15): a child process restoring a node's files is SIGKILLed
// before each of its file-system mutations in turn, then at random moments (which can land inside a
// copy). After the recovery a new start runs (recoverRestores), the workspace must equal exactly the
// state before the restore or the state after it: never a mix, no temp file left, no journal left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openCheckpoints, recoverRestores } from '../../src/checkpoints';
import { diskState, fixture, turn } from '../unit/checkpoints/helpers';
import { bundledChild, fixturePath } from './child-bundle';
import { runAndKill, seededRandom, suiteSeed } from './crash-harness';
import { reportFigures, trials } from './profile';

const BEFORE: Record<string, string> = {};
const AFTER: Record<string, string> = {};
for (let i = 0; i < 5; i++) {
  AFTER[`src/f${i}.txt`] = `after ${i}\n`.repeat(2000);
  BEFORE[`src/f${i}.txt`] = `before ${i}\n`.repeat(1500 + i);
}
AFTER['only-after/new.txt'] = 'created by the restore\n';
BEFORE['only-before.txt'] = 'deleted by the restore\n';
BEFORE['run.sh'] = '#!/bin/sh\necho before\n';
AFTER['run.sh'] = '#!/bin/sh\necho after\n';

function same(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function putDisk(ws: string, files: Record<string, string>): void {
  rmSync(ws, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), content);
  }
}

test('restore: SIGKILL before every mutation and at random moments; recovery leaves the before or the after state', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  const changes = (target: Record<string, string>, other: Record<string, string>) =>
    Object.fromEntries([...Object.keys(other).filter((k) => !(k in target)).map((k) => [k, null]), ...Object.entries(target)]);
  const afterNode = (await turn(f, changes(AFTER, {})))!;
  const beforeNode = (await turn(f, changes(BEFORE, AFTER)))!;
  assert.deepEqual(diskState(f.ws), BEFORE);
  const bundle = await bundledChild(fixturePath('checkpoint-restorer.ts'));
  const args = (killAt: number) => [f.storeDir, f.ws, f.store.file, beforeNode, afterNode, String(killAt)];

  const full = await runAndKill(bundle, args(0), 60_000);
  assert.equal(full.exitCode, 0, full.stderr);
  assert.deepEqual(diskState(f.ws), AFTER, 'an uninterrupted restore');
  const totalOps = Number(full.lines.find((l) => l.startsWith('ops '))!.slice(4));
  // journal write and removal, an open, a write and a cut per file written in place, a copy and a rename
  // for the new file, the chmod, the deletion, the new folder
  assert.ok(totalOps >= 19, `a restore makes ${totalOps} mutations`);

  const seed = suiteSeed();
  const random = seededRandom(seed);
  const randomTrials = trials(8, 100);
  const outcomes = { before: 0, after: 0, finishedByRecovery: 0 };
  for (let trial = 1; trial <= totalOps + randomTrials; trial++) {
    const where = trial <= totalOps ? `kill before mutation ${trial}/${totalOps}` : `seed ${seed}, random trial ${trial - totalOps}`;
    putDisk(f.ws, BEFORE);
    const child = trial <= totalOps ? await runAndKill(bundle, args(trial), 60_000) : await runAndKill(bundle, args(0), Math.floor(random() * 15));
    assert.ok(!child.stderr.includes('restorer failed'), `${where}: ${child.stderr}`);
    if (trial <= totalOps) assert.equal(child.signal, 'SIGKILL', `${where}: the child was not killed`);
    const reopened = await openCheckpoints(f.storeDir, { folders: [{ name: 'ws', path: f.ws }] });
    const recovered = await recoverRestores(reopened.files, f.storeDir);
    assert.ok(recovered.every((r) => r.outcome !== 'unreadable'), `${where}: ${JSON.stringify(recovered)}`);
    if (recovered.length > 0) outcomes.finishedByRecovery++;
    const disk = diskState(f.ws);
    const matches = same(disk, BEFORE) ? 'before' : same(disk, AFTER) ? 'after' : undefined;
    assert.ok(matches, `${where}: the workspace is a mix after recovery: ${JSON.stringify(Object.keys(disk))}`);
    outcomes[matches]++;
    assert.deepEqual(readdirSync(join(f.storeDir, 'journals')), [], `${where}: a journal was left behind`);
  }
  assert.ok(outcomes.finishedByRecovery > totalOps / 2, 'most kills landed inside the journaled part');
  reportFigures('checkpoint-crash', { mutationsPerRestore: totalOps, trials: totalOps + randomTrials, endedBefore: outcomes.before, endedAfter: outcomes.after, finishedByRecovery: outcomes.finishedByRecovery });
});
