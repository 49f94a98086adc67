// Restore writes an existing file's content in place (src/checkpoints/overwrite.ts): a shorter content
// leaves no old tail, only the executable bits follow the state, and neither a hard link nor a file
// swapped for a symbolic link after planning is written through (the other name and the link's target
// keep their content; the workspace path gets the restored file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, linkSync, lstatSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyRestore, planRestore } from '../../../src/checkpoints';
import { fixture, turn, type Fixture } from './helpers';
import { builtin } from '../tools/builtin';

async function restoreTo(f: Fixture, id: string, beforeApply: () => void = () => undefined): Promise<void> {
  const plan = await planRestore(f.cp.files, f.store, f.store.getLeafId(), id);
  beforeApply();
  const outcome = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  assert.equal(outcome.kind, 'restored', JSON.stringify(outcome));
  f.store.branch(id);
}

test('an in-place restore leaves no old tail and keeps the file', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const short = (await turn(f, { 'a.txt': 'short\n' }))!;
  await turn(f, { 'a.txt': 'a much longer content than before\n'.repeat(50) });
  const inode = statSync(join(f.ws, 'a.txt')).ino;
  await restoreTo(f, short);
  assert.equal(readFileSync(join(f.ws, 'a.txt'), 'utf8'), 'short\n');
  assert.equal(statSync(join(f.ws, 'a.txt')).ino, inode, 'written in place');
  // The stat cache took the written file's stat: the next plan reads it without hashing it again.
  assert.equal(await f.cp.files.unchangedSinceRead(join(f.ws, 'a.txt')), true);
});

test('only the executable bits follow the restored state; the rest of the mode stays', { skip: process.platform === 'win32' }, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const plain = (await turn(f, { 'run.sh': 'echo 1\n' }))!;
  await f.cp.recorder.beforeTool(builtin('write'), { path: 'run.sh' });
  writeFileSync(join(f.ws, 'run.sh'), 'echo 2\n');
  chmodSync(join(f.ws, 'run.sh'), 0o750);
  await f.cp.recorder.afterTool(builtin('write'), { path: 'run.sh' });
  const executable = (await f.cp.recorder.finishTurn((type, data) => f.store.appendCustomEntry(type, data)))!;
  await restoreTo(f, plain);
  assert.equal(statSync(join(f.ws, 'run.sh')).mode & 0o777, 0o640);
  await restoreTo(f, executable);
  assert.equal(statSync(join(f.ws, 'run.sh')).mode & 0o777, 0o750);
  assert.equal(readFileSync(join(f.ws, 'run.sh'), 'utf8'), 'echo 2\n');
});

test('a hard-linked file is replaced, not written through its other name', { skip: process.platform === 'win32' }, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const first = (await turn(f, { 'linked.txt': 'one\n' }))!;
  await turn(f, { 'linked.txt': 'two\n' });
  const other = join(f.base, 'other-name.txt');
  await restoreTo(f, first, () => linkSync(join(f.ws, 'linked.txt'), other));
  assert.equal(readFileSync(join(f.ws, 'linked.txt'), 'utf8'), 'one\n');
  assert.equal(readFileSync(other, 'utf8'), 'two\n', 'the other name keeps its content');
});

test('a file swapped for a symbolic link after planning is replaced, the link target untouched', { skip: process.platform === 'win32' }, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const first = (await turn(f, { 'target.txt': 'one\n' }))!;
  await turn(f, { 'target.txt': 'two\n' });
  const outside = join(f.base, 'outside.txt');
  writeFileSync(outside, 'outside\n');
  await restoreTo(f, first, () => {
    unlinkSync(join(f.ws, 'target.txt'));
    symlinkSync(outside, join(f.ws, 'target.txt'));
  });
  assert.equal(readFileSync(outside, 'utf8'), 'outside\n');
  assert.ok(lstatSync(join(f.ws, 'target.txt')).isFile());
  assert.equal(readFileSync(join(f.ws, 'target.txt'), 'utf8'), 'one\n');
});
