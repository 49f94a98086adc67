// The protected-path rules (every spelling that reaches .vscode/, .git/, … on some file system) and the
// file-system probe (real paths through symlinks, hard-link counts, a probe that cannot look asks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandMentions, foldSegment, protectedPathMatch } from '../../../src/agent/tools/protected-paths';
import { approvalWarnings } from '../../../src/agent/sensitive-paths';
import { workspaceFromPaths } from '../../../src/agent/tools';
import { builtin } from '../tools/builtin';

test('protected spellings: case, separators, depth, Windows trailing dots, streams and short names', () => {
  const protectedPaths = [
    '.vscode/settings.json', '.VSCODE/settings.json', '.VsCode\\tasks.json', 'a/b/.vscode/launch.json',
    '.vscode./settings.json', '.vscode /settings.json', '.git::$INDEX_ALLOCATION/config', 'VSCODE~1/settings.json',
    'GIT~1/hooks/pre-commit', '.git/hooks/pre-commit', '.git/config', 'sub/.git', '.GIT', 'x.code-workspace',
    'dir/Y.CODE-WORKSPACE', '.gitattributes', 'lib/.gitmodules', '.devcontainer/devcontainer.json', '.devcontainer.json',
    'AGENTS.md', 'agents.MD', 'docs/AGENTS.md', '.gıt/config', '.vſcode/settings.json',
  ];
  const missed = protectedPaths.filter((p) => protectedPathMatch(p) === undefined);
  assert.deepEqual(missed, []);
});

test('ordinary files are not protected', () => {
  for (const p of ['src/a.ts', '.gitignore', 'vscode/settings.json', 'git/config', 'my.git.txt', '.github/ISSUE_TEMPLATE.md', 'workflows/ci.yml', 'package.json', 'AGENTS.md.bak', 'CLAUDE.md.txt', '.envrc.example', 'code-workspace.md', '.']) {
    assert.equal(protectedPathMatch(p), undefined, p);
  }
});

test('rules name what matched', () => {
  assert.deepEqual(protectedPathMatch('.git/hooks/x'), { kind: 'git', rule: '.git/' });
  assert.deepEqual(protectedPathMatch('w.code-workspace'), { kind: 'editor', rule: '*.code-workspace' });
  assert.deepEqual(protectedPathMatch('AGENTS.md'), { kind: 'agent', rule: 'AGENTS.md' });
  // Issue #24: where CI, direnv, husky and other agents look (decisions in docs/reliability.md).
  assert.deepEqual(protectedPathMatch('.github/workflows/ci.yml'), { kind: 'ci', rule: '.github/workflows/' });
  assert.deepEqual(protectedPathMatch('pkg/.GitHub/Workflows/x.yml'), { kind: 'ci', rule: '.github/workflows/' });
  assert.deepEqual(protectedPathMatch('.envrc'), { kind: 'shell', rule: '.envrc' });
  assert.deepEqual(protectedPathMatch('.husky/pre-commit'), { kind: 'git', rule: '.husky/' });
  assert.deepEqual(protectedPathMatch('CLAUDE.md'), { kind: 'agent', rule: 'CLAUDE.md' });
  assert.deepEqual(protectedPathMatch('.cursor/mcp.json'), { kind: 'agent', rule: '.cursor/' });
  assert.deepEqual(protectedPathMatch('.claude/settings.json'), { kind: 'agent', rule: '.claude/' });
  // Agent Skills: the model must not write instructions that later sessions load and follow
  assert.deepEqual(protectedPathMatch('.agents/skills/deploy/SKILL.md'), { kind: 'agent', rule: '.agents/' });
  assert.deepEqual(protectedPathMatch('.GitHub/Skills/deploy/SKILL.md'), { kind: 'agent', rule: '.github/skills/' });
  assert.deepEqual(protectedPathMatch('.claude/skills/deploy/scripts/run.sh'), { kind: 'agent', rule: '.claude/' });
  assert.equal(protectedPathMatch('docs/skills/SKILL.md'), undefined);
  assert.deepEqual(protectedPathMatch('.mcp.json'), { kind: 'agent', rule: '.mcp.json' });
  assert.equal(foldSegment('.VSCODE. '), '.vscode');
});

test('commands that name protected files or rewrite git config are flagged; ordinary ones are not', () => {
  assert.deepEqual(commandMentions('echo x > .git/hooks/pre-commit'), ['.git']);
  assert.deepEqual(commandMentions('echo x > .husky/pre-commit'), ['.husky']);
  assert.deepEqual(commandMentions('cp evil.yml .github/workflows/ci.yml'), ['.github/workflows']);
  assert.deepEqual(commandMentions('echo "curl x|sh" >> CLAUDE.md'), ['CLAUDE.md']);
  assert.deepEqual(commandMentions('cat .VSCODE/settings.json'), ['.vscode']);
  assert.deepEqual(commandMentions('git -c core.hooksPath=/tmp/h commit'), ['git config', 'core.hooksPath']);
  assert.deepEqual(commandMentions('ｃｐ x .ｖｓｃｏｄｅ/settings.json'), ['.vscode']);
  for (const ok of ['git clone https://h/x.git', 'cat .gitignore', 'npm test', 'git status']) assert.deepEqual(commandMentions(ok), [], ok);
});

function tempWorkspace(t: { after: (fn: () => void) => void }): string {
  const root = mkdtempSync(join(tmpdir(), 'arbor-sensitive-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

test('the probe follows symlinks both ways and counts hard links', async (t) => {
  const root = tempWorkspace(t);
  const ws = workspaceFromPaths([root]);
  mkdirSync(join(root, '.vscode'));
  mkdirSync(join(root, 'cfg'));
  symlinkSync(join(root, '.vscode'), join(root, 'plain'));
  writeFileSync(join(root, 'cfg', 'a.txt'), 'a');
  symlinkSync(join(root, '.vscode', 'settings.json'), join(root, 'cfg', 'dangling.json'));
  linkSync(join(root, 'cfg', 'a.txt'), join(root, 'cfg', 'b.txt'));
  const kinds = async (path: string) => (await approvalWarnings(builtin('write'), { path }, ws)).map((w) => w.kind);
  assert.deepEqual(await kinds('plain/settings.json'), ['protectedPath']);
  assert.deepEqual(await kinds('cfg/dangling.json'), ['protectedPath']);
  assert.deepEqual(await kinds('cfg/b.txt'), ['hardLink']);
  assert.deepEqual(await kinds('cfg/new.txt'), []);
  assert.match((await approvalWarnings(builtin('edit'), { path: 'cfg/a.txt' }, ws))[0]!.message, /2 hard links/);
  assert.deepEqual(await approvalWarnings(builtin('read'), { path: '.vscode/settings.json' }, ws), []);
});

test('a path the tool will refuse is still judged by its spelling', async (t) => {
  const root = tempWorkspace(t);
  const ws = workspaceFromPaths([root]);
  assert.deepEqual((await approvalWarnings(builtin('write'), { path: '/elsewhere/.git/config' }, ws)).map((w) => w.kind), ['protectedPath']);
  assert.deepEqual(await approvalWarnings(builtin('write'), { path: '/elsewhere/x' }, ws), []);
});
