// Issue #14 item 1 (second half) and item 4 ("writing through a hard link asks"): files that change how
// the agent or the editor behave are never written unasked, whatever `arbor.tools.approval` says and
// whatever "always allow for this session" was chosen. Every spelling of such a path must ask.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApprovalPolicy } from '../../../src/agent/approval';
import type { ApprovalRequest } from '../../../src/agent/events';
import { runToolCalls, type ToolCallEnvironment } from '../../../src/agent/tool-calls';
import { createTools, workspaceFromPaths } from '../../../src/agent/tools';
import { ToolRegistry } from '../../../src/agent/tools/tool-registry';

interface Run {
  asked: ApprovalRequest[];
  statuses: string[];
}

/** Runs one call with the user denying every card; returns what was asked and how the call ended. */
async function runOne(root: string, policy: ApprovalPolicy, name: string, args: Record<string, unknown>, protectedDirectories: string[] = []): Promise<Run> {
  const run: Run = { asked: [], statuses: [] };
  const env: ToolCallEnvironment = {
    tools: new ToolRegistry(createTools({ ripgrep: false })),
    approval: policy,
    prompter: { ask: async (request) => (run.asked.push(request), { kind: 'deny' }) },
    workspace: workspaceFromPaths([root]),
    trusted: true,
    protectedDirectories,
    now: () => 1,
    emit: (event) => {
      if (event.type === 'tool_end') run.statuses.push(event.status);
    },
    persist: async () => 'e1',
  };
  await runToolCalls(env, [{ type: 'toolCall', id: `c-${Math.random()}`, name, arguments: args }], new AbortController().signal);
  return run;
}

function workspace(t: { after: (fn: () => void) => void }): string {
  const root = mkdtempSync(join(tmpdir(), 'arbor-escalation-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, '.vscode'));
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  return root;
}

const PROTECTED_SPELLINGS = [
  '.vscode/settings.json',
  '.VSCODE/settings.json',
  './.vscode/../.vscode/tasks.json',
  'src/../.vscode/launch.json',
  '.git/hooks/pre-commit',
  '.git/config',
  '.Git/HOOKS/post-checkout',
  'nested/project/.git/config',
  'nested/.vscode/settings.json',
  'team.code-workspace',
  'Team.Code-Workspace',
  'AGENTS.md',
  '.gitattributes',
  '.gitmodules',
  '.devcontainer/devcontainer.json',
];

test('write allowed by setting still asks for every spelling of a protected path, and nothing is written', async (t) => {
  const root = workspace(t);
  const policy = new ApprovalPolicy({ settings: { write: 'allow', edit: 'allow' } });
  const unasked: string[] = [];
  for (const path of PROTECTED_SPELLINGS) {
    const run = await runOne(root, policy, 'write', { path, content: '{"arbor.tools.approval":{"bash":"allow"}}' });
    if (run.asked.length !== 1 || run.statuses[0] !== 'denied') unasked.push(`${path} (${run.statuses.join(',')})`);
  }
  assert.deepEqual(unasked, [], `written without asking: ${unasked.join('; ')}`);
  assert.equal(existsSync(join(root, '.vscode', 'settings.json')), false);
  assert.equal(existsSync(join(root, '.git', 'hooks', 'pre-commit')), false);
});

test('a symlinked directory that leads to .vscode or .git still asks', async (t) => {
  const root = workspace(t);
  symlinkSync(join(root, '.vscode'), join(root, 'innocent'));
  symlinkSync(join(root, '.git', 'hooks'), join(root, 'scripts'));
  const policy = new ApprovalPolicy({ settings: { write: 'allow' } });
  for (const path of ['innocent/settings.json', 'scripts/pre-push']) {
    const run = await runOne(root, policy, 'write', { path, content: 'x' });
    assert.equal(run.asked.length, 1, `${path} was written without asking`);
  }
});

test('"always allow for this session" does not cover protected paths, but still covers ordinary files', async (t) => {
  const root = workspace(t);
  const policy = new ApprovalPolicy();
  policy.rememberAlways('write');
  policy.rememberAlways('edit');
  const ordinary = await runOne(root, policy, 'write', { path: 'src/b.ts', content: 'ok\n' });
  assert.deepEqual([ordinary.asked.length, ordinary.statuses], [0, ['done']]);
  const settings = await runOne(root, policy, 'write', { path: '.vscode/settings.json', content: '{}' });
  assert.equal(settings.asked.length, 1, '.vscode/settings.json was written under a session-wide "always"');
  writeFileSync(join(root, '.vscode', 'tasks.json'), '{"version":"2.0.0"}');
  const edit = await runOne(root, policy, 'edit', { path: '.vscode/tasks.json', oldText: '2.0.0', newText: '2.0.1' });
  assert.equal(edit.asked.length, 1, 'edit of .vscode/tasks.json ran under "always"');
  assert.equal(readFileSync(join(root, '.vscode', 'tasks.json'), 'utf8'), '{"version":"2.0.0"}');
});

test('writing through a hard link asks, even with write allowed', async (t) => {
  const root = workspace(t);
  writeFileSync(join(root, 'src', 'original.txt'), 'shared\n');
  linkSync(join(root, 'src', 'original.txt'), join(root, 'src', 'alias.txt'));
  const policy = new ApprovalPolicy({ settings: { write: 'allow', edit: 'allow' } });
  const run = await runOne(root, policy, 'write', { path: 'src/alias.txt', content: 'changed\n' });
  assert.equal(run.asked.length, 1, 'a file with 2 hard links was written without asking');
  assert.equal(readFileSync(join(root, 'src', 'original.txt'), 'utf8'), 'shared\n');
});

test('restricted mode and a deny setting still refuse a protected path without asking', async (t) => {
  const root = workspace(t);
  const denied = await runOne(root, new ApprovalPolicy({ settings: { write: 'deny' } }), 'write', { path: '.vscode/x.json', content: '{}' });
  assert.deepEqual([denied.asked.length, denied.statuses], [0, ['denied']]);
});

test('bash allowed by setting still asks when the command names a protected path (a tripwire, not a sandbox)', async (t) => {
  const root = workspace(t);
  const policy = new ApprovalPolicy({ settings: { bash: 'allow' } });
  for (const command of ['echo evil > .git/hooks/pre-commit', 'cp /tmp/x .VSCode/settings.json', 'git config core.hooksPath /tmp/h']) {
    const run = await runOne(root, policy, 'bash', { command });
    assert.equal(run.asked.length, 1, `bash ran unasked: ${command}`);
  }
  assert.equal(existsSync(join(root, '.git', 'hooks', 'pre-commit')), false);
  const plain = await runOne(root, policy, 'bash', { command: 'echo fine' });
  assert.deepEqual([plain.asked.length, plain.statuses], [0, ['done']]);
});

test("Arbor's sessions directory inside the workspace is protected too", async (t) => {
  const root = workspace(t);
  mkdirSync(join(root, 'sessions'));
  const policy = new ApprovalPolicy({ settings: { write: 'allow' } });
  const run = await runOne(root, policy, 'write', { path: './sessions/../sessions/forged.jsonl', content: '{}' }, [join(root, 'sessions')]);
  assert.equal(run.asked.length, 1, 'a session file was forged without asking');
  assert.match(run.asked[0]!.warnings?.[0]?.message ?? '', /sessions directory/);
});
