// Temps left by killed rewrites are removed on the next locked write; live writers' temps and other
// files next to the session are kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { removeStaleTemps } from '../../../src/session/stale-temps';
import { header, jsonl, msg, tempDir, user } from './helpers';

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function sessionWithNeighbours(dir: string) {
  const file = join(dir, 's.jsonl');
  writeFileSync(file, jsonl([header(), msg('aaaaaaaa', null, user('one'))]));
  const dead = join(dir, `s.jsonl.tmp-${deadPid()}-0badc0de`);
  const live = join(dir, `s.jsonl.tmp-${process.ppid}-1234abcd`);
  const otherSession = join(dir, `t.jsonl.tmp-${deadPid()}-0badc0de`);
  const lookalike = join(dir, 's.jsonl.tmp-notes');
  for (const path of [dead, live, otherSession, lookalike]) writeFileSync(path, 'partial rewrite');
  return { file, dead, live, otherSession, lookalike };
}

test('the first append after open removes temps of dead writers, and only those', async (t) => {
  const files = sessionWithNeighbours(tempDir(t));
  const store = await SessionStore.open(files.file);
  assert.ok(existsSync(files.dead), 'opening alone writes nothing');
  await store.appendMessage(user('two'));
  assert.equal(existsSync(files.dead), false, 'a dead writer’s temp is removed');
  assert.ok(existsSync(files.live), 'a live writer’s temp is kept');
  assert.ok(existsSync(files.otherSession), 'another session’s temp is not ours to judge');
  assert.ok(existsSync(files.lookalike), 'a name that is not a temp is kept');
  assert.equal((await SessionStore.open(files.file)).getEntries().length, 2);
});

test('a rewrite sweeps too, and a live writer’s temp is removed once abandoned for ten minutes', async (t) => {
  const files = sessionWithNeighbours(tempDir(t));
  const store = await SessionStore.open(files.file);
  await store.rewriteEntries((entries) => entries);
  assert.equal(existsSync(files.dead), false);
  assert.ok(existsSync(files.live));
  const old = (Date.now() - 11 * 60_000) / 1000;
  utimesSync(files.live, old, old);
  assert.deepEqual(await removeStaleTemps(files.file), [files.live]);
  assert.match(readFileSync(files.file, 'utf8'), /"one"/);
});
