// File checkpoints in the real extension host, beyond the switch itself (issue #15):
// `arbor.checkpoints.restore` = never / always skips the files question; "Show changes" from the question
// opens the multi-file diff and asks again; a restore a crash interrupted (journal left, file half-way) is
// finished when the store is opened again; deleting a session collects the blobs no other session names.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { answers, FILE, removeFile, replyOf, twoTurnSession, workspaceFile, writeTurn } from './checkpoints-fixtures';
import { stubWindow } from './surfaces-fixtures';

const config = () => vscode.workspace.getConfiguration('arbor.checkpoints');
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

suite('file checkpoints: settings, Show changes, crash recovery, gc (issue #15)', () => {
  let api: ArborApi;

  setup(async () => {
    api = await twoTurnSession();
  });

  teardown(async () => {
    await config().update('restore', undefined, vscode.ConfigurationTarget.Global);
    await config().update('maxFileBytes', undefined, vscode.ConfigurationTarget.Global);
    await removeFile();
  });

  for (const [mode, expected] of [['never', 'two\n'], ['always', 'one\n']] as const) {
    test(`arbor.checkpoints.restore = ${mode}: Switch Here does not ask about files and ${mode === 'never' ? 'leaves' : 'restores'} them`, async () => {
      await config().update('restore', mode, vscode.ConfigurationTarget.Global);
      const { ui, seen } = answers('Conversation and files');
      try {
        const outcome = await vscode.commands.executeCommand<{ status: string }>('arbor.switchHere', replyOf(api, 'one'));
        assert.equal(outcome.status, 'switched');
      } finally {
        ui.restore();
      }
      assert.equal(seen.files, undefined, 'no files question');
      assert.equal(api.app.currentStore!.getLeafId(), replyOf(api, 'one'));
      assert.equal(await readFile(workspaceFile(FILE), 'utf8'), expected);
    });
  }

  test('"Show changes" in the files question opens the multi-file diff, then the question comes back', async () => {
    const diffTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith('Files this switch changes'));
    const whileAsked: vscode.Tab[][] = [];
    const { ui, seen } = answers('Show changes|Conversation and files', [], () => whileAsked.push(diffTabs()));
    try {
      await vscode.commands.executeCommand('arbor.switchHere', replyOf(api, 'one'));
    } finally {
      ui.restore();
    }
    assert.equal(seen.filesAsked, 2, 'asked again after showing the changes');
    const tabs = whileAsked[1]!;
    assert.equal(tabs.length, 1, 'the diff tab is open while the question comes back');
    // vscode.TabInputTextMultiDiff (newer than the typings this builds with): one diff per file.
    assert.equal((tabs[0]!.input as { textDiffs?: unknown[] }).textDiffs?.length, 1, 'a multi-file diff of one file');
    assert.equal(diffTabs().length, 0, 'closed once the switch is made (issue #28: it showed the opposite direction next time)');
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'one\n');
  });

  test('a restore interrupted by a crash is finished when the store is opened again', async () => {
    const blob = await api.app.checkpoints.blobPath(hashOf('one\n'));
    assert.ok(blob, 'the first turn\'s content is stored');
    const journals = await api.app.checkpoints.journalsFolder();
    assert.ok(journals, 'the journals folder of the open store');
    const storeDir = dirname(dirname(dirname(blob)));
    assert.ok(!journals.startsWith(storeDir), `journals live in Arbor's own storage, not beside the sessions (${journals})`);
    const key = `${vscode.workspace.workspaceFolders![0]!.name}/${FILE}`;
    const state = (text: string) => ({ kind: 'file', hash: hashOf(text), size: Buffer.byteLength(text) });
    // What a crash after the journal was written and before the file was replaced leaves behind.
    const journal = { version: 1, id: randomBytes(8).toString('hex'), fromId: api.app.currentStore!.getLeafId(), toId: replyOf(api, 'one'), steps: [{ key, from: state('two\n'), to: state('one\n') }] };
    await mkdir(journals, { recursive: true });
    await writeFile(join(journals, `${journal.id}.json`), JSON.stringify(journal));
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'two\n');
    // A new size cap opens the store again, as the next start does: recovery runs before anything else.
    await config().update('maxFileBytes', 4 * 1024 * 1024, vscode.ConfigurationTarget.Global);
    await api.app.tree.previewSwitchFiles(replyOf(api, 'two'));
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'one\n', 'the interrupted restore was finished');
    await assert.rejects(readFile(join(journals, `${journal.id}.json`)), 'the journal is gone');
  });

  test('issue #24: a journal in the sessions folder (where a repository could commit one) is never replayed', async () => {
    const blob = await api.app.checkpoints.blobPath(hashOf('one\n'));
    assert.ok(blob);
    const storeDir = dirname(dirname(dirname(blob)));
    const key = `${vscode.workspace.workspaceFolders![0]!.name}/${FILE}`;
    const state = (text: string) => ({ kind: 'file', hash: hashOf(text), size: Buffer.byteLength(text) });
    const journal = { version: 1, id: randomBytes(8).toString('hex'), fromId: null, toId: null, steps: [{ key, from: state('two\n'), to: state('one\n') }] };
    const planted = join(storeDir, 'journals', `${journal.id}.json`);
    await mkdir(dirname(planted), { recursive: true });
    await writeFile(planted, JSON.stringify(journal));
    try {
      await config().update('maxFileBytes', 4 * 1024 * 1024, vscode.ConfigurationTarget.Global);
      await api.app.tree.previewSwitchFiles(replyOf(api, 'two'));
      assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'two\n', 'the file is as it was: the journal was not replayed');
      assert.equal(await readFile(planted, 'utf8'), JSON.stringify(journal), 'and left where it was');
    } finally {
      await rm(planted, { force: true });
    }
  });

  test('deleting a session collects the blobs only it named; blobs other sessions name stay', async () => {
    const word = `gc-${randomBytes(4).toString('hex')}`;
    await writeTurn(api, word);
    const only = await api.app.checkpoints.blobPath(hashOf(`${word}\n`));
    const shared = await api.app.checkpoints.blobPath(hashOf('one\n'));
    assert.ok(only && shared);
    const file = api.app.currentStore!.file;
    await api.app.session.newSession();
    // The new session's turn starts from no file (its `before` must not name the word's blob).
    await rm(workspaceFile(FILE), { force: true });
    await writeTurn(api, 'one');
    // Past the grace period that protects blobs a capture in another window has not named yet.
    const old = new Date(Date.now() - 3_600_000);
    for (const blob of [only, shared]) await utimes(blob, old, old);
    const ui = stubWindow({ showWarningMessage: (_text: string, _options: unknown, remove: string) => remove });
    try {
      assert.equal(await vscode.commands.executeCommand('arbor.sessions.delete', file), true);
    } finally {
      ui.restore();
    }
    assert.equal(await api.app.checkpoints.blobPath(hashOf(`${word}\n`)), undefined, 'the deleted session\'s own blob is collected');
    assert.ok(await api.app.checkpoints.blobPath(hashOf('one\n')), 'a blob the open session names stays');
  });
});
