// File checkpoints of `bash` in a git work tree (issue #15), in the real extension host: the workspace is
// made a git repository, the scripted model runs shell commands through the approval flow, and each turn's
// `arbor.files` manifest, read back from the session file, must list exactly what the command changed:
// the first command gets full `git status` scans, later ones (once the folder watcher is built) a status
// narrowed to the touched paths or no git call at all. Ignored files never appear; Switch Here with
// "Conversation and files" undoes and redoes the commands' changes on disk. Without a repository of its
// own, the folder (which may lie in an ignored folder of an enclosing checkout) is walked instead.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { ScanCounts } from '../../src/checkpoints/root-watchers';
import type { ArborApi } from '../../src/vscode/api';
import { answers, workspaceFile } from './checkpoints-fixtures';
import { activateArbor, fakeAdmin } from './helpers';

const run = promisify(execFile);
const REWRITTEN = 'bash-rewrite.txt';
const GONE = 'bash-gone.txt';
const MADE = 'bash-new/made.txt';
const IGNORED = 'bash-ignored/out.txt';
const LOOSE = 'bash-loose.txt';
/** Everything this suite creates in the workspace folder, removed before and after each test. */
const CREATED = ['.git', '.gitignore', REWRITTEN, GONE, 'bash-new', 'bash-ignored', LOOSE];

const config = () => vscode.workspace.getConfiguration('arbor.checkpoints');
const keyOf = (rel: string) => `${vscode.workspace.workspaceFolders![0]!.name}/${rel}`;
const fileState = (text: string) => ({ kind: 'file', hash: createHash('sha256').update(text).digest('hex'), size: Buffer.byteLength(text) });
const absent = { kind: 'absent' };

type State = { kind: string; hash?: string; size?: number };
type Manifest = { reason: string; method: string; before: Record<string, State>; after: Record<string, State> };

function git(...args: string[]) {
  const identity = ['-c', 'user.name=Arbor Test', '-c', 'user.email=test@arbor.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main'];
  return run('git', [...identity, ...args], { cwd: workspaceFile('.') });
}

async function removeCreated(): Promise<void> {
  for (const rel of CREATED) await rm(workspaceFile(rel), { recursive: true, force: true });
}

/** The workspace folder as a git repository whose last commit holds the two tracked files and the ignore rule. */
async function makeRepository(): Promise<void> {
  await removeCreated();
  await writeFile(workspaceFile(REWRITTEN), 'original\n');
  await writeFile(workspaceFile(GONE), 'keep me\n');
  await writeFile(workspaceFile('.gitignore'), 'bash-ignored/\n');
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'start');
}

/** The `arbor.files` manifests in the session file, in file order. */
async function manifestsOnDisk(api: ArborApi): Promise<Manifest[]> {
  const lines = (await readFile(api.app.currentStore!.file, 'utf8')).split('\n').filter((l) => l.trim());
  return lines.map((l) => JSON.parse(l)).filter((e) => e.type === 'custom' && e.customType === 'arbor.files').map((e) => e.data as Manifest);
}

/** Keeps only kind/hash/size of each state (the exec bit is not what these tests are about). */
function plain(states: Record<string, State>): Record<string, State> {
  return Object.fromEntries(Object.entries(states).map(([k, s]) => [k, s.kind === 'file' ? { kind: s.kind, hash: s.hash, size: s.size } : { kind: s.kind }]));
}

/** One turn: the model runs `command` through `bash` (approved), then says `Ran <name>.`; returns the manifests it appended. */
async function bashTurn(api: ArborApi, name: string, command: string): Promise<Manifest[]> {
  const before = (await manifestsOnDisk(api)).length;
  await fakeAdmin('enqueue', [{ toolCalls: [{ id: `call_${name}`, name: 'bash', input: { command } }] }, { text: `Ran ${name}.` }]);
  const subscription = api.approvals.onDidRequest((pending) => api.approvals.answer(pending.toolCallId, { kind: 'approve' }));
  try {
    assert.equal((await api.app.prompt(`run ${name}`)).kind, 'sent');
  } finally {
    subscription.dispose();
  }
  return (await manifestsOnDisk(api)).slice(before);
}

function replyOf(api: ArborApi, text: string): string {
  const entry = api.app.currentStore!.getEntries().find((e) => e.type === 'message' && e.message.role === 'assistant' && JSON.stringify(e.message.content).includes(text));
  assert.ok(entry, `the reply "${text}"`);
  return entry.id;
}

async function watchers(api: ArborApi) {
  const checkpoints = await api.app.checkpoints.ready();
  assert.ok(checkpoints, 'checkpoints are on');
  return checkpoints.files.watchers;
}

async function switchWithFiles(api: ArborApi, targetId: string): Promise<void> {
  const { ui, seen } = answers('Conversation and files');
  try {
    const outcome = await vscode.commands.executeCommand<{ status: string }>('arbor.switchHere', targetId);
    assert.equal(outcome.status, 'switched');
  } finally {
    ui.restore();
  }
  assert.equal(seen.outside, undefined, 'nothing was changed outside Arbor');
  assert.equal(api.app.currentStore!.getLeafId(), targetId);
}

const exists = (rel: string) => readFile(workspaceFile(rel)).then(() => true, () => false);
const text = (rel: string) => readFile(workspaceFile(rel), 'utf8');

suite('file checkpoints: bash commands (issue #15)', function () {
  this.timeout(120_000);
  let api: ArborApi;
  let reopen = 0;

  setup(async () => {
    api = await activateArbor();
    await makeRepository();
    // A new size cap opens the store again: a fresh view of the folder (its git repository, no watcher yet).
    await config().update('maxFileBytes', 5 * 1024 * 1024 + ++reopen, vscode.ConfigurationTarget.Global);
    await api.app.session.newSession();
    await fakeAdmin('enqueue', [{ text: 'Ready.' }]);
    assert.equal((await api.app.prompt('ready?')).kind, 'sent');
  });

  teardown(async () => {
    await config().update('maxFileBytes', undefined, vscode.ConfigurationTarget.Global);
    await removeCreated();
  });

  test('each command\'s manifest lists exactly what it changed (full scan first, then narrowed by the watcher); ignored files never', async () => {
    const first = await bashTurn(api, 'one', `printf 'rewritten\\n' > ${REWRITTEN} && rm ${GONE} && mkdir bash-new && printf 'made\\n' > ${MADE} && mkdir bash-ignored && printf 'x\\n' > ${IGNORED}`);
    assert.equal(first.length, 1, 'one manifest for the first command');
    assert.equal(first[0]!.method, 'git');
    assert.deepEqual(plain(first[0]!.before), { [keyOf(GONE)]: fileState('keep me\n'), [keyOf(MADE)]: absent, [keyOf(REWRITTEN)]: fileState('original\n') });
    assert.deepEqual(plain(first[0]!.after), { [keyOf(GONE)]: absent, [keyOf(MADE)]: fileState('made\n'), [keyOf(REWRITTEN)]: fileState('rewritten\n') });

    // Turn 1's folders were made while the watcher was being built, so the next window rebuilds it (a full
    // scan); a command that touches nothing, then a settled watcher, give the steady state.
    const watched = await watchers(api);
    await watched.settled();
    assert.deepEqual(await bashTurn(api, 'settle', 'true'), [], 'a command that changed nothing gets no manifest');
    await watched.settled();
    const counts = (): ScanCounts => ({ ...watched.counts });
    const start = counts();
    assert.deepEqual(await bashTurn(api, 'nothing', `cat ${REWRITTEN} && ls bash-new`), [], 'a command that changed nothing gets no manifest');
    assert.deepEqual(counts(), { ...start, untouched: start.untouched + 1 }, 'no git call for a command that touched nothing');

    const second = await bashTurn(api, 'two', `printf 'more\\n' >> ${MADE} && printf 'y\\n' > bash-ignored/second.txt`);
    assert.equal(second.length, 1, 'one manifest for the second command');
    assert.deepEqual(plain(second[0]!.before), { [keyOf(MADE)]: fileState('made\n') });
    assert.deepEqual(plain(second[0]!.after), { [keyOf(MADE)]: fileState('made\nmore\n') });
    assert.deepEqual(counts(), { ...start, untouched: start.untouched + 1, narrowed: start.narrowed + 1 }, 'a status narrowed to the touched paths');

    for (const manifest of await manifestsOnDisk(api)) {
      assert.ok(!Object.keys(manifest.after).some((k) => k.includes('bash-ignored')), 'no ignored file in any manifest');
    }
  });

  test('without a repository of its own (the run folder may lie in an ignored folder of a checkout) bash is captured by a walk', async () => {
    await rm(workspaceFile('.git'), { recursive: true, force: true });
    await config().update('maxFileBytes', 5 * 1024 * 1024 + ++reopen, vscode.ConfigurationTarget.Global);
    const turn = await bashTurn(api, 'walked', `printf 'walked\\n' > ${REWRITTEN} && printf 'x\\n' > ${LOOSE}`);
    assert.equal(turn.length, 1);
    assert.equal(turn[0]!.method, 'scan');
    assert.deepEqual(plain(turn[0]!.before), { [keyOf(LOOSE)]: absent, [keyOf(REWRITTEN)]: fileState('original\n') });
    assert.deepEqual(plain(turn[0]!.after), { [keyOf(LOOSE)]: fileState('x\n'), [keyOf(REWRITTEN)]: fileState('walked\n') });
  });

  test('Switch Here with "Conversation and files" undoes the commands\' changes, and switching forward redoes them', async () => {
    await bashTurn(api, 'one', `printf 'rewritten\\n' > ${REWRITTEN} && rm ${GONE} && mkdir bash-new && printf 'made\\n' > ${MADE} && mkdir bash-ignored && printf 'x\\n' > ${IGNORED}`);
    const watched = await watchers(api);
    await watched.settled();
    await bashTurn(api, 'settle', 'true');
    await watched.settled();
    await bashTurn(api, 'two', `printf 'more\\n' >> ${MADE}`);

    await switchWithFiles(api, replyOf(api, 'Ready.'));
    assert.equal(await text(REWRITTEN), 'original\n', 'the rewritten file has its committed content');
    assert.equal(await text(GONE), 'keep me\n', 'the deleted file is back');
    assert.equal(await exists(MADE), false, 'the new file is gone');
    assert.equal(await text(IGNORED), 'x\n', 'an ignored file is not Arbor\'s to restore');

    await switchWithFiles(api, replyOf(api, 'Ran two.'));
    assert.equal(await text(REWRITTEN), 'rewritten\n');
    assert.equal(await exists(GONE), false, 'deleted again');
    assert.equal(await text(MADE), 'made\nmore\n', 'the turn-2 content is back');
  });
});
