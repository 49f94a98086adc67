// The git side of `bash` capture (src/checkpoints/change-scan.ts, git.ts, git-head.ts): after the first
// full scan, the check before a command only re-stats the files Arbor knows; an outside edit made before
// the command is never attributed to it, a deleted file the command recreates was absent before it, a
// command that commits is still captured. HEAD read from files agrees with git in every layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashContent } from '../../../src/checkpoints/blob-store';
import { CHANGE_TIME_SLACK_MS } from '../../../src/checkpoints/change-scan';
import { gitHead, gitRepoOf, gitStatus } from '../../../src/checkpoints/git';
import { readHead } from '../../../src/checkpoints/git-head';
import { openCheckpoints, type FileState } from '../../../src/checkpoints';
import { fixture, type Fixture } from './helpers';
import { builtin } from '../tools/builtin';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
}

function file(content: string): FileState {
  return { kind: 'file', hash: hashContent(Buffer.from(content)), size: Buffer.byteLength(content) };
}

async function gitFixture(files: Record<string, string>): Promise<Fixture> {
  const f = await fixture();
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(f.ws, rel, '..'), { recursive: true });
    writeFileSync(join(f.ws, rel), content);
  }
  git(f.ws, 'init', '-q');
  git(f.ws, 'add', '-A');
  git(f.ws, 'commit', '-qm', 'base');
  return f;
}

/**
 * One `bash` turn: `command` runs between the recorder's before and after; returns the manifest.
 * `clockShiftMs` moves the clock the check before the command reads (ctime is the kernel's and cannot be
 * set back, so "an edit made long before the command" is simulated by a command that starts later).
 */
async function bashTurn(f: Fixture, command: () => void, clockShiftMs = 0) {
  const realNow = Date.now;
  Date.now = () => realNow() + clockShiftMs;
  try {
    await f.cp.recorder.beforeTool(builtin('bash'), { command: 'x' });
  } finally {
    Date.now = realNow;
  }
  command();
  await f.cp.recorder.afterTool(builtin('bash'), { command: 'x' });
  const manifest = f.cp.recorder.manifest();
  await f.cp.recorder.finishTurn((type, data) => f.store.appendCustomEntry(type, data));
  return manifest && { before: { ...manifest.before }, after: { ...manifest.after }, method: manifest.method };
}

test('after the first scan, an outside edit between two commands is not the second command\'s', async (t) => {
  const f = await gitFixture({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'src/c.txt': 'c0\n' });
  t.after(() => f.cleanup());
  const first = await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a1\n'));
  assert.deepEqual(first, { method: 'git', before: { 'ws/a.txt': file('a0\n') }, after: { 'ws/a.txt': file('a1\n') } });
  // Outside edits while no command runs: b.txt (clean before) and a.txt (known, dirty).
  writeFileSync(join(f.ws, 'b.txt'), 'b-outside\n');
  writeFileSync(join(f.ws, 'a.txt'), 'a-outside\n');
  // The command "starts" a slack after the outside edits (less 30 ms, so its own write is after it).
  await new Promise((resolve) => setTimeout(resolve, 100));
  const second = await bashTurn(f, () => writeFileSync(join(f.ws, 'src/c.txt'), 'c1\n'), CHANGE_TIME_SLACK_MS - 30);
  assert.deepEqual(second, { method: 'git', before: { 'ws/src/c.txt': file('c0\n') }, after: { 'ws/src/c.txt': file('c1\n') } });
  // The known file a.txt changed outside before the command and again by it: its before is the outside content.
  const third = await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a3\n'));
  assert.deepEqual(third?.before, { 'ws/a.txt': file('a-outside\n') });
  assert.deepEqual(third?.after, { 'ws/a.txt': file('a3\n') });
});

for (const watchFolders of [false, true]) {
  test(`a folder a command renames: the files below its new name are the command's, though their own change time is old (${watchFolders ? 'watched' : 'full scan'})`, async (t) => {
    const f = await gitFixture({ 'pkg/deep/tracked.txt': 't\n', 'x.txt': 'x\n' });
    t.after(() => f.cleanup());
    const cp = await openCheckpoints(join(f.base, 'store-rename'), { folders: [{ name: 'ws', path: f.ws }] }, { watchFolders });
    t.after(() => cp.files.close());
    const g: Fixture = { ...f, cp };
    const made = await bashTurn(g, () => writeFileSync(join(f.ws, 'pkg/deep/untracked.txt'), 'u\n'));
    assert.deepEqual(made?.after, { 'ws/pkg/deep/untracked.txt': file('u\n') });
    await cp.files.watchers.settled();
    // Both files last changed "long" before the command (see bashTurn); renaming their folder keeps their change times.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const moved = await bashTurn(g, () => renameSync(join(f.ws, 'pkg'), join(f.ws, 'moved')), CHANGE_TIME_SLACK_MS - 30);
    assert.deepEqual(moved?.after, {
      'ws/moved/deep/tracked.txt': file('t\n'),
      'ws/moved/deep/untracked.txt': file('u\n'),
      'ws/pkg/deep/tracked.txt': { kind: 'absent' },
      'ws/pkg/deep/untracked.txt': { kind: 'absent' },
    });
  });
}

test('a tracked file deleted by one command and recreated by the next was absent before the second', async (t) => {
  const f = await gitFixture({ 'gone.txt': 'g0\n', 'x.txt': 'x\n' });
  t.after(() => f.cleanup());
  const deleted = await bashTurn(f, () => unlinkSync(join(f.ws, 'gone.txt')));
  assert.deepEqual(deleted?.after, { 'ws/gone.txt': { kind: 'absent' } });
  const recreated = await bashTurn(f, () => writeFileSync(join(f.ws, 'gone.txt'), 'g2\n'));
  assert.deepEqual(recreated?.before, { 'ws/gone.txt': { kind: 'absent' } });
  assert.deepEqual(recreated?.after, { 'ws/gone.txt': file('g2\n') });
});

test('a workspace folder an enclosing repository ignores is walked: git status would never list its files', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  writeFileSync(join(f.ws, 'a.txt'), 'a0\n');
  writeFileSync(join(f.base, '.gitignore'), 'ws/\nsessions/\n');
  git(f.base, 'init', '-q');
  git(f.base, 'add', '-A');
  git(f.base, 'commit', '-qm', 'outer');
  const first = await bashTurn(f, () => writeFileSync(join(f.ws, 'a.txt'), 'a1\n'));
  assert.deepEqual(first, { method: 'scan', before: { 'ws/a.txt': file('a0\n') }, after: { 'ws/a.txt': file('a1\n') } });
  const second = await bashTurn(f, () => writeFileSync(join(f.ws, 'new.txt'), 'n\n'));
  assert.deepEqual(second, { method: 'scan', before: { 'ws/new.txt': { kind: 'absent' } }, after: { 'ws/new.txt': file('n\n') } });
});

test('a command that edits and commits is captured from the HEAD it started at', async (t) => {
  const f = await gitFixture({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
  t.after(() => f.cleanup());
  await bashTurn(f, () => writeFileSync(join(f.ws, 'b.txt'), 'b1\n'));
  const committed = await bashTurn(f, () => {
    writeFileSync(join(f.ws, 'a.txt'), 'a1\n');
    writeFileSync(join(f.ws, 'new.txt'), 'n\n');
    git(f.ws, 'add', '-A');
    git(f.ws, 'commit', '-qm', 'by the command');
  });
  assert.deepEqual(committed?.before, { 'ws/a.txt': file('a0\n'), 'ws/new.txt': { kind: 'absent' } });
  assert.deepEqual(committed?.after, { 'ws/a.txt': file('a1\n'), 'ws/new.txt': file('n\n') });
});

test('git status v2 paths: spaces, non-ASCII, staged deletions, untracked; HEAD in the same call', async (t) => {
  const f = await gitFixture({ 'keep.txt': 'k\n', 'staged.txt': 's\n' });
  t.after(() => f.cleanup());
  writeFileSync(join(f.ws, 'a b.txt'), 'x');
  mkdirSync(join(f.ws, 'd d'));
  writeFileSync(join(f.ws, 'd d', 'ü z.txt'), 'y');
  git(f.ws, 'rm', '-q', 'staged.txt');
  writeFileSync(join(f.ws, 'keep.txt'), 'changed\n');
  const status = await gitStatus(f.ws);
  assert.deepEqual([...new Set(status?.dirty)].sort(), ['a b.txt', 'd d/ü z.txt', 'keep.txt', 'staged.txt']);
  assert.equal(status?.head, git(f.ws, 'rev-parse', 'HEAD').trim());
});

test('HEAD read from the git folder agrees with git: branch, packed ref, detached, worktree, no commit yet', async (t) => {
  const f = await gitFixture({ 'a.txt': 'a\n' });
  t.after(() => f.cleanup());
  const check = async (dir: string, what: string) => {
    const repo = await gitRepoOf(dir);
    assert.ok(repo, what);
    assert.equal(await readHead(repo), await gitHead(repo.top), what);
  };
  await check(f.ws, 'loose branch ref');
  git(f.ws, 'pack-refs', '--all');
  await check(f.ws, 'packed branch ref');
  writeFileSync(join(f.ws, 'a.txt'), 'b\n');
  git(f.ws, 'commit', '-qam', 'second');
  await check(f.ws, 'loose ref over a packed one');
  git(f.ws, 'checkout', '-q', '--detach', 'HEAD~1');
  await check(f.ws, 'detached');
  const tree = join(f.base, 'other-tree');
  git(f.ws, 'worktree', 'add', '-q', '-b', 'side', tree, 'main');
  await check(tree, 'linked worktree');
  const empty = join(f.base, 'empty');
  mkdirSync(empty);
  git(empty, 'init', '-q');
  const repo = await gitRepoOf(empty);
  assert.equal(await readHead(repo!), undefined, 'no commit yet');
  rmSync(tree, { recursive: true, force: true });
});
