// Independent attack run on the recovery of a cut restore at start (docs/reliability.md, threat model,
// row "session file (`arbor.files` manifests)": "the recovery of a cut restore never writes [a protected
// file]"; "One rule for every writer": outside paths are refused). The journal here is one this
// installation wrote (it sits in Arbor's own state folder); the attacker is a local process (or a
// `git checkout` of the attacker's branch) that, before the next start, put a symbolic link where a
// folder of the journal's keys was. Recovery resolves each key again: it must not follow that link out
// of the workspace or into `.git/hooks`. A passing test means the attack failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCheckpoints, recoverRestores, type Checkpoints } from '../../../src/checkpoints';

const EVIL = '#!/bin/sh\necho pwned\n';

async function setup(t: { after(fn: () => void): void }): Promise<{ base: string; ws: string; outside: string; cp: Checkpoints; own: string }> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-recover-')));
  const ws = join(base, 'ws');
  execFileSync('git', ['init', '-q', ws]);
  const outside = join(base, 'outside');
  mkdirSync(outside);
  const cp = await openCheckpoints(join(base, 'sessions', 'checkpoints'), { folders: [{ name: 'ws', path: ws }] });
  t.after(() => {
    cp.files.close();
    rmSync(base, { recursive: true, force: true });
  });
  return { base, ws, outside, cp, own: join(base, 'own') };
}

async function ownJournal(s: { cp: Checkpoints; own: string }, steps: { key: string; from: string | null; to: string | null }[]): Promise<void> {
  const state = async (text: string | null) => (text === null ? { kind: 'absent' } : { kind: 'file', hash: await s.cp.blobs.put(Buffer.from(text)), size: Buffer.byteLength(text) });
  const journal = { version: 1, id: '00112233445566ff', fromId: null, toId: null, steps: [] as unknown[] };
  for (const step of steps) journal.steps.push({ key: step.key, from: await state(step.from), to: await state(step.to) });
  mkdirSync(join(s.own, 'journals'), { recursive: true });
  writeFileSync(join(s.own, 'journals', `${journal.id}.json`), JSON.stringify(journal));
}

test('recovery does not follow a folder replaced by a symbolic link to outside the workspace (write, delete)', async (t) => {
  const s = await setup(t);
  writeFileSync(join(s.outside, 'keep.txt'), 'precious\n');
  await ownJournal(s, [
    { key: 'ws/src/a.js', from: null, to: 'a\n' },
    { key: 'ws/src/keep.txt', from: 'old\n', to: null },
  ]);
  symlinkSync(s.outside, join(s.ws, 'src'));
  await recoverRestores(s.cp.files, s.own);
  assert.equal(existsSync(join(s.outside, 'a.js')), false, 'nothing written outside');
  assert.equal(readFileSync(join(s.outside, 'keep.txt'), 'utf8'), 'precious\n', 'nothing deleted outside');
});

test('recovery does not plant a hook through a folder replaced by a symbolic link to .git/hooks', async (t) => {
  const s = await setup(t);
  await ownJournal(s, [
    { key: 'ws/scripts/pre-commit', from: null, to: EVIL },
    { key: 'ws/README.md', from: null, to: 'ok\n' },
  ]);
  symlinkSync(join(s.ws, '.git', 'hooks'), join(s.ws, 'scripts'));
  const recovered = await recoverRestores(s.cp.files, s.own);
  assert.equal(existsSync(join(s.ws, '.git', 'hooks', 'pre-commit')), false, 'no hook planted');
  assert.deepEqual(recovered[0]?.leftAlone, ['ws/scripts/pre-commit'], 'named as left alone');
  assert.equal(readFileSync(join(s.ws, 'README.md'), 'utf8'), 'ok\n', 'the ordinary step finished');
});
