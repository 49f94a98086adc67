// Independent attack run on the restore surface (docs/reliability.md, threat model: rows "session file
// (`arbor.files` manifests)", "local process", and "One rule for every writer"). Each test plays an
// attacker who controls a session file's `arbor.files` manifests, the repository's files, or a local
// process racing a restore, and asserts the claim the threat model makes. A passing test: the attack
// failed. A failing test: the claim does not hold (see the attack report on branch h/attack).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyRestore, openCheckpoints, planRestore, type Checkpoints, type RestorePlan } from '../../../src/checkpoints';
import { SessionStore } from '../../../src/session/store';
import { approvalWarnings } from '../../../src/agent/sensitive-paths';
import { builtin } from '../../unit/tools/builtin';

const EVIL = '#!/bin/sh\necho pwned > /tmp/arbor-independent-pwned\n';

export function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

export interface Lab {
  base: string;
  ws: string;
  outside: string;
  cp: Checkpoints;
  store: SessionStore;
  own: string;
}

/** A workspace `ws`, a folder `outside` beside it (never to be touched), a store and a session outside ws. */
export async function lab(t: { after(fn: () => void): void }, git = true): Promise<Lab> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-indep-')));
  const ws = join(base, 'ws');
  mkdirSync(ws);
  if (git) execFileSync('git', ['init', '-q', ws]);
  const outside = join(base, 'outside');
  mkdirSync(outside);
  const cp = await openCheckpoints(join(base, 'sessions', 'checkpoints'), { folders: [{ name: 'ws', path: ws }] });
  const store = await SessionStore.create({ dir: join(base, 'sessions'), cwd: ws });
  t.after(() => {
    cp.files.close();
    rmSync(base, { recursive: true, force: true });
  });
  return { base, ws, outside, cp, store, own: join(base, 'own') };
}

type Want = string | null; // null: absent

/** Appends a user message and a turn manifest moving each key from `before` to `after`; returns [from, to]. */
export async function session(l: Lab, changes: Record<string, [Want, Want]>): Promise<[string, string]> {
  const state = async (text: Want) => (text === null ? { kind: 'absent' } : { kind: 'file', hash: await l.cp.blobs.put(Buffer.from(text)), size: Buffer.byteLength(text) });
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [key, [b, a]] of Object.entries(changes)) {
    before[key] = await state(b);
    after[key] = await state(a);
  }
  const from = (await l.store.appendMessage({ role: 'user', content: 'hi', timestamp: 1 })).id;
  const to = (await l.store.appendCustomEntry('arbor.files', { version: 1, reason: 'turn', method: 'tool', before, after })).id;
  return [from, to];
}

function read(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

function keysOf(plan: RestorePlan): { changes: string[]; apart: string[]; refused: string[] } {
  return { changes: plan.changes.map((c) => c.key), apart: plan.protectedChanges.map((c) => c.key), refused: plan.notRestorable.map((c) => c.key) };
}

// ---------------------------------------------------------------------------------------------------
// 1. Path spellings in manifest keys: `..`, absolute, backslashes, `./`, NUL, case, trailing dots,
//    symlinked folders inside the workspace pointing at `.git/hooks` or outside. Claim: "Outside paths
//    are refused by every writer"; protected "in any spelling (case, `..`, symlinked folders, trailing dots)".
// ---------------------------------------------------------------------------------------------------

test('manifest keys spelled to escape the workspace or to reach .git/hooks are refused or listed apart', async (t) => {
  const l = await lab(t);
  put(join(l.outside, 'victim.txt'), 'outside\n');
  symlinkSync(join(l.ws, '.git', 'hooks'), join(l.ws, 'tools'));
  symlinkSync(join(l.ws, '.git'), join(l.ws, 'gitlink'));
  symlinkSync(l.outside, join(l.ws, 'out'));
  const escaping = [
    'ws/../outside/victim.txt',
    'ws/src/../../outside/victim.txt',
    `ws/${l.outside}/victim.txt`,
    'ws/out/victim.txt',
    'ws/out/new.txt',
    '../outside/victim.txt',
    `${l.outside}/victim.txt`,
    'ws/a\0/../../outside/victim.txt',
  ];
  const protectedKeys = [
    'ws/.git/hooks/pre-commit',
    'ws/./.git/hooks/pre-push',
    'ws/.git/./hooks/post-checkout',
    'ws//.git//hooks//post-merge',
    'ws/tools/pre-rebase',
    'ws/gitlink/hooks/pre-applypatch',
    'ws/gitlink/config',
    'ws/.GIT/hooks/commit-msg',
    'ws/.git./hooks/prepare-commit-msg',
    'ws/.git /hooks/update',
    'ws/.VSCode/tasks.json',
    'ws/.vscode\\tasks.json',
    'ws/sub/.github/workflows/x.yml',
    'ws/.Github/Workflows/x.yml',
    'ws/docs/AGENTS.MD',
    'ws/Claude.md',
    'ws/.envrc.',
    'ws/.husky/pre-commit',
  ];
  const changes: Record<string, [Want, Want]> = {};
  for (const key of [...escaping, ...protectedKeys]) changes[key] = [null, EVIL];
  const [from, to] = await session(l, changes);
  const plan = await planRestore(l.cp.files, l.store, from, to);
  const k = keysOf(plan);
  const wrongly = [...escaping, ...protectedKeys].filter((key) => k.changes.includes(key));
  assert.deepEqual(wrongly, [], 'no escaping or protected key is an ordinary change');
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() });
  assert.equal(read(join(l.outside, 'victim.txt')), 'outside\n', 'the outside file is untouched');
  assert.equal(existsSync(join(l.outside, 'new.txt')), false, 'nothing created outside');
  const hooks = ['pre-commit', 'pre-push', 'post-checkout', 'post-merge', 'pre-rebase', 'pre-applypatch'].filter((h) => existsSync(join(l.ws, '.git', 'hooks', h)));
  assert.deepEqual(hooks, [], 'no hook written unticked');
  assert.ok(!read(join(l.ws, '.git', 'config'))?.includes('pwned'), '.git/config untouched');
});

// ---------------------------------------------------------------------------------------------------
// 2. A hard link inside the workspace to a file outside it. Claim ("One rule for every writer"): "a
//    restore replaces a hard-linked file by a rename, so the other links keep their content".
// ---------------------------------------------------------------------------------------------------

test('a restore through a hard link to a file outside the workspace leaves the outside file alone', async (t) => {
  const l = await lab(t);
  put(join(l.outside, 'secret.cfg'), 'original\n');
  linkSync(join(l.outside, 'secret.cfg'), join(l.ws, 'app.cfg'));
  const [from, to] = await session(l, { 'ws/app.cfg': ['original\n', 'attacker\n'] });
  const plan = await planRestore(l.cp.files, l.store, from, to);
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set(plan.outsideChanges.map((c) => c.key)) });
  assert.equal(read(join(l.outside, 'secret.cfg')), 'original\n', 'the other link keeps its content');
});

// ---------------------------------------------------------------------------------------------------
// 3. A manifest naming a folder where a file is expected (delete a folder, write over a folder).
//    Claim: nothing outside is touched, the restore fails cleanly or skips, and `.git` is never removed.
// ---------------------------------------------------------------------------------------------------

test('a manifest that deletes or overwrites folders (.git, src) cannot remove them', async (t) => {
  const l = await lab(t);
  put(join(l.ws, 'src', 'index.js'), 'ok\n');
  const [from, to] = await session(l, { 'ws/.git': ['x', null], 'ws/src': ['x', null], 'ws/lib': [null, 'file-not-folder'] });
  const plan = await planRestore(l.cp.files, l.store, from, to);
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() }).catch(() => undefined);
  assert.ok(existsSync(join(l.ws, '.git', 'HEAD')), '.git is still there');
  assert.equal(read(join(l.ws, 'src', 'index.js')), 'ok\n', 'src/ is still there');
});

// ---------------------------------------------------------------------------------------------------
// 4. core.hooksPath reached through an `include.path` in .git/config (git's own answer: "repository,
//    global, system, includes").
// ---------------------------------------------------------------------------------------------------

test('a hooks folder set by an included config file is protected', async (t) => {
  const l = await lab(t);
  put(join(l.ws, 'shared.gitconfig'), '[core]\n\thooksPath = ci/hooks\n');
  execFileSync('git', ['-C', l.ws, 'config', 'include.path', '../shared.gitconfig']);
  assert.equal(execFileSync('git', ['-C', l.ws, 'config', '--get', 'core.hooksPath'], { encoding: 'utf8' }).trim(), 'ci/hooks', 'precondition: git follows the include');
  const [from, to] = await session(l, { 'ws/ci/hooks/pre-commit': [null, EVIL] });
  const plan = await planRestore(l.cp.files, l.store, from, to);
  assert.deepEqual(keysOf(plan).apart, ['ws/ci/hooks/pre-commit']);
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() });
  assert.equal(existsSync(join(l.ws, 'ci', 'hooks', 'pre-commit')), false);
});

// ---------------------------------------------------------------------------------------------------
// 5. BREAK candidate: the config file git includes from .git/config is git config ("`.git/` (hooks,
//    config)": git "obeys config from there"). Many projects ask contributors to run
//    `git config include.path ../.gitconfig`. A session restoring `.gitconfig` with `core.fsmonitor`
//    gets a command run by the next `git status` (VS Code's git extension runs it on its own).
// ---------------------------------------------------------------------------------------------------

test('a config file that .git/config includes is protected like .git/config', async (t) => {
  const l = await lab(t);
  put(join(l.ws, '.gitconfig'), '[diff "lockb"]\n\ttextconv = cat\n');
  execFileSync('git', ['-C', l.ws, 'config', 'include.path', '../.gitconfig']);
  const evilConfig = '[core]\n\tfsmonitor = "sh -c \'echo pwned > /tmp/arbor-independent-fsmonitor\'; false"\n';
  const [from, to] = await session(l, { 'ws/.gitconfig': ['[diff "lockb"]\n\ttextconv = cat\n', evilConfig] });
  const plan = await planRestore(l.cp.files, l.store, from, to);
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() });
  // `git config --get` exits 1 when the key is unset (the outcome this test wants): read that as no value.
  const effective = spawnSync('git', ['-C', l.ws, 'config', '--get', 'core.fsmonitor'], { encoding: 'utf8' }).stdout.trim().length > 0;
  assert.equal(effective, false, 'git config did not gain a core.fsmonitor command without a tick');
  assert.deepEqual(keysOf(plan).apart, ['ws/.gitconfig'], 'the included config is listed apart, unticked');
});

// ---------------------------------------------------------------------------------------------------
// 6. BREAK candidate: "any folder shaped like a git folder (`HEAD` + `objects/` + `refs/`)" is protected.
//    git accepts a HEAD that is a symbolic link to `refs/…` (setup.c validate_headref) and objects/ or
//    refs/ that are symbolic links to folders; the shape check uses lstat and sees neither.
// ---------------------------------------------------------------------------------------------------

test('an embedded bare repository whose HEAD is a symbolic link is still a protected git folder', async (t) => {
  const l = await lab(t, false);
  const lib = join(l.ws, 'vendor', 'lib');
  put(join(lib, 'objects', 'info', 'packs'), '\n');
  put(join(lib, 'refs', 'heads', '.keep'), '');
  symlinkSync('refs/heads/main', join(lib, 'HEAD'));
  // git itself takes vendor/lib for a (bare) repository: the precondition of the attack.
  const bare = execFileSync('git', ['-C', lib, 'rev-parse', '--is-bare-repository'], { encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: l.base } }).trim();
  assert.equal(bare, 'true', 'precondition: git treats vendor/lib as a bare repository');
  const config = '[core]\n\trepositoryformatversion = 0\n\tbare = true\n\tfsmonitor = "echo pwned"\n';
  const [from, to] = await session(l, { 'ws/vendor/lib/config': [null, config], 'ws/vendor/lib/hooks/post-checkout': [null, EVIL] });
  const plan = await planRestore(l.cp.files, l.store, from, to);
  const apart = keysOf(plan).apart;
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() });
  const warned = (await approvalWarnings(builtin('write'), { path: 'vendor/lib/config', content: config }, { folders: [{ name: 'ws', path: l.ws }] })).some((w) => w.kind === 'protectedPath');
  assert.deepEqual(apart.sort(), ['ws/vendor/lib/config', 'ws/vendor/lib/hooks/post-checkout'], 'both are listed apart');
  assert.equal(existsSync(join(lib, 'config')), false, 'no config planted in a folder git takes for a repository');
  assert.equal(warned, true, "the tools' write asks too");
});

test('an embedded repository whose objects/ is a symbolic link to a folder is still protected', async (t) => {
  const l = await lab(t, false);
  const lib = join(l.ws, 'vendor', 'lib2');
  put(join(l.ws, 'vendor', 'store', 'info', 'packs'), '\n');
  put(join(lib, 'refs', 'heads', '.keep'), '');
  put(join(lib, 'HEAD'), 'ref: refs/heads/main\n');
  symlinkSync('../store', join(lib, 'objects'));
  const bare = execFileSync('git', ['-C', lib, 'rev-parse', '--is-bare-repository'], { encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: l.base } }).trim();
  assert.equal(bare, 'true', 'precondition: git treats vendor/lib2 as a bare repository');
  const [from, to] = await session(l, { 'ws/vendor/lib2/config': [null, '[core]\n\tbare = true\n\tfsmonitor = "echo pwned"\n'] });
  const plan = await planRestore(l.cp.files, l.store, from, to);
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() });
  assert.deepEqual(keysOf(plan).apart, ['ws/vendor/lib2/config'], 'listed apart');
  assert.equal(existsSync(join(lib, 'config')), false, 'no config planted');
});

// ---------------------------------------------------------------------------------------------------
// 7. BREAK candidates: a local process racing the restore (the threat model's third party). The plan
//    resolves each key's folder once; the user then reads the dialog; applyRestore writes to the planned
//    absolute path, which follows any symbolic link put in place of a folder meanwhile. Claim: "Outside
//    paths are refused by every writer before the policy is asked" and protected files are never
//    written unticked.
// ---------------------------------------------------------------------------------------------------

async function racePlan(l: Lab, changes: Record<string, [Want, Want]>): Promise<RestorePlan> {
  const [from, to] = await session(l, changes);
  return planRestore(l.cp.files, l.store, from, to);
}

test('race: a folder swapped for a symbolic link to outside between plan and apply gets no write', async (t) => {
  const l = await lab(t);
  put(join(l.ws, 'src', 'index.js'), 'v1\n');
  put(join(l.outside, 'index.js'), 'outside\n');
  const plan = await racePlan(l, { 'ws/src/index.js': ['v1\n', 'v2\n'], 'ws/src/new.js': [null, 'new\n'] });
  assert.deepEqual(keysOf(plan).changes, ['ws/src/index.js', 'ws/src/new.js'], 'precondition: ordinary changes');
  // The racing process (the user is reading the switch dialog).
  renameSync(join(l.ws, 'src'), join(l.ws, 'src-old'));
  symlinkSync(l.outside, join(l.ws, 'src'));
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() }).catch(() => undefined);
  assert.equal(read(join(l.outside, 'index.js')), 'outside\n', 'the outside file was not overwritten');
  assert.equal(existsSync(join(l.outside, 'new.js')), false, 'no file was created outside');
});

test('race: a folder swapped for a symbolic link to outside between plan and apply gets no delete', async (t) => {
  const l = await lab(t);
  put(join(l.ws, 'build', 'out.txt'), 'x\n');
  put(join(l.outside, 'out.txt'), 'precious\n');
  const plan = await racePlan(l, { 'ws/build/out.txt': ['x\n', null] });
  assert.deepEqual(keysOf(plan).changes, ['ws/build/out.txt'], 'precondition: an ordinary delete');
  renameSync(join(l.ws, 'build'), join(l.ws, 'build-old'));
  symlinkSync(l.outside, join(l.ws, 'build'));
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() }).catch(() => undefined);
  assert.equal(read(join(l.outside, 'out.txt')), 'precious\n', 'the outside file was not deleted');
});

test('race: a folder swapped for a symbolic link to .git/hooks between plan and apply plants no hook', async (t) => {
  const l = await lab(t);
  put(join(l.ws, 'scripts', 'README'), 'scripts\n');
  const plan = await racePlan(l, { 'ws/scripts/pre-commit': [null, EVIL] });
  assert.deepEqual(keysOf(plan).changes, ['ws/scripts/pre-commit'], 'precondition: an ordinary new file');
  renameSync(join(l.ws, 'scripts'), join(l.ws, 'scripts-old'));
  symlinkSync(join(l.ws, '.git', 'hooks'), join(l.ws, 'scripts'));
  await applyRestore(l.cp.files, l.own, plan, { overwrite: new Set() }).catch(() => undefined);
  assert.equal(existsSync(join(l.ws, '.git', 'hooks', 'pre-commit')), false, 'no hook planted unticked');
});
