// Issue #24 item 3: a restore cannot be steered out of the workspace by a racing symlink. A separate
// process keeps swapping a workspace folder for a symbolic link to an outside folder that holds files of
// the same names, while restores (and recoveries of a journal) write, delete and create files in it.
// Counted after every round: outside files overwritten, deleted or created, and temp files left outside.
// The guarantee is Linux's (docs/reliability.md, "another local process"): every folder on the way is
// opened through its parent's descriptor without following links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyRestore, planRestore, recoverRestores } from '../../../src/checkpoints';
import { newJournal, writeJournal } from '../../../src/checkpoints/journal';
import { diskState, fixture, turn, type Fixture } from '../../unit/checkpoints/helpers';
import { reportFigures, trials } from '../profile';
import { startRacer } from './racer';

const SECRET = 'OUTSIDE-SECRET-24c3\n';
const NAMES = Array.from({ length: 8 }, (_, i) => `f${i}.txt`);
/** Node A: eight files, one only A has (deleted going to B). Node B: changed contents, a new file, a large one (temp + rename). */
const A: Record<string, string | null> = Object.fromEntries([...NAMES.map((n) => [`d/${n}`, `A ${n}\n`]), ['d/gone.txt', 'only in A\n'], ['d/new.txt', null], ['d/big.bin', null]]);
const B: Record<string, string | null> = Object.fromEntries([...NAMES.map((n) => [`d/${n}`, `B ${n}\n`]), ['d/gone.txt', null], ['d/new.txt', 'created by the restore\n'], ['d/big.bin', 'x'.repeat(1_100_000)]]);
const OUTSIDE_NAMES = [...NAMES, 'gone.txt'];

interface Escapes {
  overwritten: number;
  deleted: number;
  created: number;
  temps: number;
}

/** Counts what happened to the outside folder since the last look, and puts it back. */
function inspectOutside(outside: string, escapes: Escapes): void {
  for (const name of OUTSIDE_NAMES) {
    const file = join(outside, name);
    if (!existsSync(file)) escapes.deleted++;
    else if (readFileSync(file, 'utf8') !== SECRET) escapes.overwritten++;
    else continue;
    writeFileSync(file, SECRET);
  }
  for (const name of readdirSync(outside)) {
    if (OUTSIDE_NAMES.includes(name)) continue;
    if (name.includes('.arbor-restore-')) escapes.temps++;
    else escapes.created++;
    rmSync(join(outside, name), { recursive: true, force: true });
  }
}

/** Node A, then node B (the leaf, on disk). */
async function twoNodes(f: Fixture): Promise<{ nodeA: string; nodeB: string }> {
  await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  const nodeA = (await turn(f, Object.fromEntries(Object.entries(A).filter(([, content]) => content !== null))))!;
  const nodeB = (await turn(f, B))!;
  return { nodeA, nodeB };
}

test('a folder swapped for a symlink to an outside folder during 200 restores: 0 escapes', { skip: process.platform !== 'linux' }, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const outside = join(f.base, 'outside');
  mkdirSync(outside);
  for (const name of OUTSIDE_NAMES) writeFileSync(join(outside, name), SECRET);
  const { nodeA, nodeB } = await twoNodes(f);
  const stop = startRacer(join(f.ws, 'd'), outside, 'dir');
  t.after(stop);
  const rounds = trials(200, 1000);
  const escapes: Escapes = { overwritten: 0, deleted: 0, created: 0, temps: 0 };
  const outcomes = { restored: 0, failed: 0, planned: 0, recovered: 0 };
  let from = nodeB;
  for (let round = 0; round < rounds; round++) {
    const to = from === nodeB ? nodeA : nodeB;
    const plan = await planRestore(f.cp.files, f.store, from, to);
    outcomes.planned += plan.changes.length + plan.outsideChanges.length;
    const outcome = await applyRestore(f.cp.files, f.storeDir, plan, {
      overwrite: new Set(plan.outsideChanges.map((c) => c.key)),
      append: (type, data) => f.store.appendCustomEntry(type, data),
    });
    outcomes[outcome.kind]++;
    // Every 10th round a journal of the same steps is recovered too, as a start after a crash would.
    if (round % 10 === 9) {
      await writeJournal(f.storeDir, newJournal(from, to, plan.changes.map((c) => ({ key: c.key, from: c.current, to: c.target }))));
      outcomes.recovered += (await recoverRestores(f.cp.files, f.storeDir)).length;
    }
    inspectOutside(outside, escapes);
    f.store.branch(to);
    from = to;
  }
  stop();
  await new Promise((resolve) => setTimeout(resolve, 50));
  inspectOutside(outside, escapes);
  reportFigures('attacks/restore-race', { rounds, ...escapes, ...outcomes });
  assert.ok(outcomes.planned > 0, 'no restore planned a change: the race never reached a write');
  assert.deepEqual(escapes, { overwritten: 0, deleted: 0, created: 0, temps: 0 });
});

test('without the racer the same restores still write, delete and create inside the folder', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const { nodeA, nodeB } = await twoNodes(f);
  const plan = await planRestore(f.cp.files, f.store, nodeB, nodeA);
  const outcome = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  assert.equal(outcome.kind, 'restored', JSON.stringify(outcome));
  const expected = Object.fromEntries(Object.entries(A).filter((e): e is [string, string] => e[1] !== null));
  assert.deepEqual(diskState(f.ws), expected);
  f.store.branch(nodeA);
  const back = await applyRestore(f.cp.files, f.storeDir, await planRestore(f.cp.files, f.store, nodeA, nodeB), { overwrite: new Set() });
  assert.equal(back.kind, 'restored', JSON.stringify(back));
  assert.equal(readFileSync(join(f.ws, 'd/new.txt'), 'utf8'), B['d/new.txt']);
  assert.equal(readFileSync(join(f.ws, 'd/big.bin'), 'utf8').length, 1_100_000);
  assert.equal(existsSync(join(f.ws, 'd/gone.txt')), false);
});
