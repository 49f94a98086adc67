// Independent attack run on "the effective core.hooksPath" (docs/reliability.md, "One rule for every
// writer": "git's own answer (… repository, global, system, includes) united with the repository config
// read as text"). Variants the restore-protected test does not use: a *relative* hooksPath in the user's
// global config (every repository's `<top>/.githooks`), one in a per-worktree config
// (`extensions.worktreeConfig` + `config.worktree`), and one behind an `includeIf "gitdir:"`. This file
// sets GIT_CONFIG_GLOBAL for its own process only (the test runner gives each file a process).
// A passing test means the attack failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalWarnings } from '../../../src/agent/sensitive-paths';
import { builtin } from '../../unit/tools/builtin';

async function asks(ws: string, rel: string): Promise<boolean> {
  return (await approvalWarnings(builtin('write'), { path: rel, content: '#!/bin/sh\n' }, { folders: [{ name: 'ws', path: ws }] })).some((w) => w.kind === 'protectedPath');
}

function repo(t: { after(fn: () => void): void }): { base: string; ws: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-hookspath-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const ws = join(base, 'ws');
  execFileSync('git', ['init', '-q', ws]);
  return { base, ws };
}

test('a relative core.hooksPath from the global config protects <top>/.githooks', async (t) => {
  const r = repo(t);
  const global = join(r.base, 'gitconfig');
  writeFileSync(global, '[core]\n\thooksPath = .githooks\n');
  const saved = process.env.GIT_CONFIG_GLOBAL;
  process.env.GIT_CONFIG_GLOBAL = global;
  t.after(() => (saved === undefined ? delete process.env.GIT_CONFIG_GLOBAL : (process.env.GIT_CONFIG_GLOBAL = saved)));
  assert.equal(execFileSync('git', ['-C', r.ws, 'config', '--get', 'core.hooksPath'], { encoding: 'utf8' }).trim(), '.githooks', 'precondition');
  assert.equal(await asks(r.ws, '.githooks/pre-commit'), true);
});

test('core.hooksPath in config.worktree (extensions.worktreeConfig) is protected', async (t) => {
  const r = repo(t);
  execFileSync('git', ['-C', r.ws, 'config', 'extensions.worktreeConfig', 'true']);
  execFileSync('git', ['-C', r.ws, 'config', '--worktree', 'core.hooksPath', 'wt-hooks']);
  assert.equal(execFileSync('git', ['-C', r.ws, 'config', '--get', 'core.hooksPath'], { encoding: 'utf8' }).trim(), 'wt-hooks', 'precondition');
  assert.equal(await asks(r.ws, 'wt-hooks/pre-commit'), true);
});

test('core.hooksPath behind includeIf "gitdir:" is protected', async (t) => {
  const r = repo(t);
  writeFileSync(join(r.base, 'cond.gitconfig'), '[core]\n\thooksPath = cond-hooks\n');
  execFileSync('git', ['-C', r.ws, 'config', `includeIf.gitdir:${r.ws}/.git.path`, join(r.base, 'cond.gitconfig')]);
  assert.equal(execFileSync('git', ['-C', r.ws, 'config', '--get', 'core.hooksPath'], { encoding: 'utf8' }).trim(), 'cond-hooks', 'precondition');
  assert.equal(await asks(r.ws, 'cond-hooks/pre-commit'), true);
});
