// How a restore plan finds each key's file (src/checkpoints/restore.ts, onDisk): a folder's real path is
// looked up once per plan, not once per file, and the answers stay those of a full resolve: a folder
// that is a symbolic link leading outside the workspace is refused for every key below it (the file out
// there untouched), one leading inside names the same files as the real folder, and a key whose own
// name is a symbolic link is followed to its target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyRestore, planRestore } from '../../../src/checkpoints';
import { fixture, turn } from './helpers';

const unix = { skip: process.platform === 'win32' };

test('a symlinked folder leading outside the workspace is refused for every file below it', unix, async (t) => {
  const f = await fixture();
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-outside-')));
  t.after(() => {
    f.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });
  await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  const first = (await turn(f, { 'sub/a.txt': 'a1\n', 'sub/b.txt': 'b1\n', 'top.txt': 't1\n' }))!;
  await turn(f, { 'sub/a.txt': 'a2\n', 'sub/b.txt': 'b2\n', 'top.txt': 't2\n' });
  // The folder is swapped for a link to a folder outside holding files of the same names.
  renameSync(join(f.ws, 'sub'), join(f.base, 'moved-away'));
  writeFileSync(join(outside, 'a.txt'), 'outside a\n');
  writeFileSync(join(outside, 'b.txt'), 'outside b\n');
  symlinkSync(outside, join(f.ws, 'sub'));
  const plan = await planRestore(f.cp.files, f.store, f.store.getLeafId(), first);
  assert.deepEqual(plan.notRestorable, [{ key: 'ws/sub/a.txt', why: { kind: 'excluded' } }, { key: 'ws/sub/b.txt', why: { kind: 'excluded' } }]);
  assert.deepEqual(plan.changes.map((c) => c.key), ['ws/top.txt']);
  const outcome = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  assert.equal(outcome.kind, 'restored');
  assert.equal(readFileSync(join(outside, 'a.txt'), 'utf8'), 'outside a\n');
  assert.equal(readFileSync(join(outside, 'b.txt'), 'utf8'), 'outside b\n');
  assert.equal(readFileSync(join(f.ws, 'top.txt'), 'utf8'), 't1\n');
});

test('a symlinked folder inside the workspace names the real folder\'s files; a symlinked file its target', unix, async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const parent = await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  mkdirSync(join(f.ws, 'real'));
  writeFileSync(join(f.ws, 'real', 'f.txt'), 'f now\n');
  writeFileSync(join(f.ws, 'target.txt'), 'g now\n');
  symlinkSync(join(f.ws, 'real'), join(f.ws, 'alias'));
  symlinkSync(join(f.ws, 'target.txt'), join(f.ws, 'link.txt'));
  const state = async (text: string) => ({ kind: 'file', hash: await f.cp.blobs.put(Buffer.from(text)), size: Buffer.byteLength(text) });
  // Keys written through the alias and the link, as a session from another checkout could hold them.
  const entry = await f.store.appendCustomEntry('arbor.files', {
    version: 1, reason: 'turn', method: 'tool',
    before: { 'ws/alias/f.txt': await state('f before\n'), 'ws/link.txt': await state('g before\n') },
    after: { 'ws/alias/f.txt': await state('f now\n'), 'ws/link.txt': await state('g now\n') },
  });
  const plan = await planRestore(f.cp.files, f.store, entry.id, parent.id);
  assert.deepEqual(plan.changes.map((c) => [c.key, c.absolute]), [['ws/alias/f.txt', join(f.ws, 'real', 'f.txt')], ['ws/link.txt', join(f.ws, 'target.txt')]]);
  const outcome = await applyRestore(f.cp.files, f.storeDir, plan, { overwrite: new Set() });
  assert.equal(outcome.kind, 'restored', JSON.stringify(outcome));
  assert.equal(readFileSync(join(f.ws, 'real', 'f.txt'), 'utf8'), 'f before\n');
  assert.equal(readFileSync(join(f.ws, 'target.txt'), 'utf8'), 'g before\n');
  assert.ok(lstatSync(join(f.ws, 'link.txt')).isSymbolicLink(), 'the link stays a link');
});

/** realpath and lstat calls of one plan over `count` files in two folders. */
async function planCost(t: { after(fn: () => void): void }, count: number): Promise<{ realpath: number; lstat: number; changes: number }> {
  const f = await fixture();
  t.after(() => f.cleanup());
  await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  const files = (tag: string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`d${i % 2}/f${i}.txt`, `${tag} ${i}\n`]));
  const first = (await turn(f, files('one')))!;
  await turn(f, files('two'));
  const fsp = require('node:fs/promises') as Record<string, (...args: unknown[]) => unknown>;
  const counts = { realpath: 0, lstat: 0 };
  const originals = { realpath: fsp.realpath!, lstat: fsp.lstat! };
  for (const name of ['realpath', 'lstat'] as const) {
    fsp[name] = (...args: unknown[]) => {
      counts[name]++;
      return originals[name](...args);
    };
  }
  t.after(() => Object.assign(fsp, originals));
  const plan = await planRestore(f.cp.files, f.store, f.store.getLeafId(), first);
  Object.assign(fsp, originals);
  return { ...counts, changes: plan.changes.length };
}

test('a plan looks up each folder\'s real path once, and stats each file once', unix, async (t) => {
  // The write policy's look-ups (workspace roots, git folders above each folder) are per folder, not per file.
  const small = await planCost(t, 20);
  const large = await planCost(t, 40);
  assert.equal(small.changes, 20);
  assert.equal(large.changes, 40);
  assert.deepEqual({ realpath: large.realpath - small.realpath, lstat: large.lstat - small.lstat }, { realpath: 0, lstat: 20 }, 'twenty more files: no more realpath, one lstat each');
});
