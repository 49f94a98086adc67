// The private index the `bash` scans run on (src/checkpoints/git-index.ts): the user's repository is never
// written, git keeps its untracked cache in the checkpoint store, files created in folders that cache
// already knows are still found, an unreadable copy is replaced, and a folder below the repository's top
// is scanned alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { hashContent } from '../../../src/checkpoints/blob-store';
import { openCheckpoints, type FileState } from '../../../src/checkpoints';
import { SessionStore } from '../../../src/session/store';
import { fixture, type Fixture } from './helpers';
import { builtin } from '../tools/builtin';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
}

function file(content: string): FileState {
  return { kind: 'file', hash: hashContent(Buffer.from(content)), size: Buffer.byteLength(content) };
}

function commitAll(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
}

async function bashTurn(f: Pick<Fixture, 'cp' | 'store'>, command: () => void) {
  await f.cp.recorder.beforeTool(builtin('bash'), { command: 'x' });
  command();
  await f.cp.recorder.afterTool(builtin('bash'), { command: 'x' });
  const manifest = f.cp.recorder.manifest();
  await f.cp.recorder.finishTurn((type, data) => f.store.appendCustomEntry(type, data));
  return manifest && { before: { ...manifest.before }, after: { ...manifest.after } };
}

/** Every file below `dir` with a hash of its bytes: what a scan must leave as it was. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

function privateIndexes(storeDir: string): Buffer[] {
  const dir = join(storeDir, 'git-index');
  return readdirSync(dir).filter((n) => !n.includes('.')).map((n) => readFileSync(join(dir, n)));
}

test('bash scans write nothing into the repository and keep the untracked cache in the store', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  commitAll(f.ws, { 'a.txt': 'a0\n', 'src/b.txt': 'b0\n' });
  // A split index would make a writing git add files to .git: the scans must not, whatever the config says.
  git(f.ws, 'config', 'core.splitIndex', 'true');
  git(f.ws, 'update-index', '--split-index');
  const repository = fingerprint(join(f.ws, '.git'));
  await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a1\n'));
  await bashTurn(f, () => writeFileSync(join(f.ws, 'src', 'new.txt'), 'n\n'));
  await bashTurn(f, () => writeFileSync(join(f.ws, 'src', 'b.txt'), 'b1\n'));
  assert.deepEqual(fingerprint(join(f.ws, '.git')), repository);
  const [index] = privateIndexes(f.storeDir);
  assert.ok(index && index.subarray(0, 4).toString('latin1') === 'DIRC', 'a private index in the store');
  assert.ok(index.includes(Buffer.from('UNTR')), 'it keeps the untracked cache');
  assert.ok(!index.includes(Buffer.from('link')), 'and is not split');
});

test('files created in folders the untracked cache knows, new folders and deletions are all captured', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  commitAll(f.ws, { 'a.txt': 'a0\n', 'd/keep.txt': 'k\n', '.gitignore': 'ignored/\n' });
  const first = await bashTurn(f, () => writeFileSync(join(f.ws, 'd', 'one.txt'), '1\n'));
  assert.deepEqual(first?.after, { 'ws/d/one.txt': file('1\n') });
  // Let the cache settle (git re-reads a folder whose mtime is too close to the index's).
  await new Promise((resolve) => setTimeout(resolve, 50));
  await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a1\n'));
  const second = await bashTurn(f, () => writeFileSync(join(f.ws, 'd', 'two.txt'), '2\n'));
  assert.deepEqual(second, { before: { 'ws/d/two.txt': { kind: 'absent' } }, after: { 'ws/d/two.txt': file('2\n') } });
  const nested = await bashTurn(f, () => {
    mkdirSync(join(f.ws, 'd', 'e', 'f'), { recursive: true });
    writeFileSync(join(f.ws, 'd', 'e', 'f', 'deep.txt'), 'deep\n');
    mkdirSync(join(f.ws, 'ignored'));
    writeFileSync(join(f.ws, 'ignored', 'x.txt'), 'x\n');
  });
  assert.deepEqual(nested?.after, { 'ws/d/e/f/deep.txt': file('deep\n') });
  const removed = await bashTurn(f, () => {
    unlinkSync(join(f.ws, 'd', 'one.txt'));
    unlinkSync(join(f.ws, 'd', 'keep.txt'));
  });
  assert.deepEqual(removed, {
    before: { 'ws/d/keep.txt': file('k\n'), 'ws/d/one.txt': file('1\n') },
    after: { 'ws/d/keep.txt': { kind: 'absent' }, 'ws/d/one.txt': { kind: 'absent' } },
  });
});

test('a private index git cannot read is replaced and the change is still captured', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  commitAll(f.ws, { 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
  await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a1\n'));
  const dir = join(f.storeDir, 'git-index');
  for (const name of readdirSync(dir)) writeFileSync(join(dir, name), 'not an index');
  const turn = await bashTurn(f, () => writeFileSync(join(f.ws, 'b.txt'), 'b1\n'));
  assert.deepEqual(turn, { before: { 'ws/b.txt': file('b0\n') }, after: { 'ws/b.txt': file('b1\n') } });
  await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a2\n'));
  assert.ok(privateIndexes(f.storeDir).every((index) => index.subarray(0, 4).toString('latin1') === 'DIRC'));
});

test('after HEAD moves the copy follows it, and a file the commit changed is captured from that commit', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  commitAll(f.ws, { 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
  await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a1\n'));
  // Committed outside Arbor, between two commands.
  writeFileSync(join(f.ws, 'b.txt'), 'b1\n');
  git(f.ws, 'commit', '-qam', 'outside');
  await bashTurn(f, () => writeFileSync(join(f.ws, 'c.txt'), 'c\n'));
  const turn = await bashTurn(f, () => writeFileSync(join(f.ws, 'b.txt'), 'b2\n'));
  assert.deepEqual(turn, { before: { 'ws/b.txt': file('b1\n') }, after: { 'ws/b.txt': file('b2\n') } });
});

test('a workspace folder below the repository top is scanned alone', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  const repo = join(f.base, 'repo');
  commitAll(repo, { 'top.txt': 't0\n', 'sub/s.txt': 's0\n' });
  const cp = await openCheckpoints(join(f.base, 'store2'), { folders: [{ name: 'sub', path: join(repo, 'sub') }] });
  const store = await SessionStore.create({ dir: join(f.base, 'sessions2'), cwd: join(repo, 'sub') });
  const change = () => {
    writeFileSync(join(repo, 'top.txt'), 't1\n');
    writeFileSync(join(repo, 'sub', 's.txt'), 's1\n');
    writeFileSync(join(repo, 'sub', 'new.txt'), 'n\n');
  };
  await bashTurn({ cp, store }, () => undefined);
  const turn = await bashTurn({ cp, store }, change);
  assert.deepEqual(turn?.after, { 'sub/new.txt': file('n\n'), 'sub/s.txt': file('s1\n') });
});

test('a file changed at its size in the second the user index was written is found by a scan on the copy made later (racy git)', async (t) => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { GitScanIndexes } = await import('../../../src/checkpoints/git-index');
  const { gitRepoOf } = await import('../../../src/checkpoints/git');
  const base = mkdtempSync(join(tmpdir(), 'arbor-racy-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  // git trusts an entry's stat data only when the file is older than the index; the copy must keep the
  // user index's time, or a change in that second looks clean to it.
  for (let attempt = 0; ; attempt++) {
    const dir = join(base, `r${attempt}`);
    mkdirSync(dir);
    commitAll(dir, { 'notes.txt': 'hello world\n' });
    writeFileSync(join(dir, 'notes.txt'), 'hello arbor\n');
    const sameSecond = Math.floor(statSync(join(dir, 'notes.txt')).ctimeMs / 1000) === Math.floor(statSync(join(dir, '.git', 'index')).mtimeMs / 1000);
    if (!sameSecond) {
      assert.ok(attempt < 10, 'the change never landed in the second the index was written');
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000)));
    const repo = await gitRepoOf(dir);
    const status = await new GitScanIndexes(join(base, `store${attempt}`)).status(dir, repo!, true);
    assert.deepEqual(status?.dirty, ['notes.txt']);
    return;
  }
});
