// File checkpoints on branch switches (issue #15), in the real extension host with the real app: turns
// through the fake provider write a file, then Switch Here offers "Conversation and files" (the default
// when the states differ) or "Conversation only"; the restore is visible on disk, and a file changed
// outside Arbor is kept unless ticked. Compare Files With… and Restore Files Only work on the same tree.
import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { answers, FILE, removeFile, replyOf, twoTurnSession, workspaceFile, writeTurn } from './checkpoints-fixtures';
import { stubWindow } from './surfaces-fixtures';

suite('file checkpoints: branch switches (issue #15)', () => {
  let api: ArborApi;

  setup(async () => {
    api = await twoTurnSession();
  });

  teardown(async () => {
    await removeFile();
  });

  test('each turn that wrote the file carries an arbor.files manifest', () => {
    const manifests = api.app.currentStore!.getEntries().filter((e) => e.type === 'custom' && e.customType === 'arbor.files');
    assert.equal(manifests.length, 2);
  });

  test('Switch Here with "Conversation and files" restores the file on disk; it is offered first', async () => {
    const { ui, seen } = answers('Conversation and files');
    try {
      const outcome = await vscode.commands.executeCommand<{ status: string }>('arbor.switchHere', replyOf(api, 'one'));
      assert.equal(outcome.status, 'switched');
    } finally {
      ui.restore();
    }
    assert.ok(seen.files, 'the files choice was offered');
    assert.match(seen.files[0]!.label, /Conversation and files/, 'the default when the states differ');
    assert.equal(seen.files[0]!.description, '1 file will change');
    assert.match(seen.files[0]!.detail ?? '', /cp15-switch\.txt/);
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'one\n');
    assert.equal(api.app.currentStore!.getLeafId(), replyOf(api, 'one'));
  });

  test('Switch Here with "Conversation only" moves the conversation and leaves the file', async () => {
    const { ui } = answers('Conversation only');
    try {
      await vscode.commands.executeCommand('arbor.switchHere', replyOf(api, 'one'));
    } finally {
      ui.restore();
    }
    assert.equal(api.app.currentStore!.getLeafId(), replyOf(api, 'one'));
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'two\n');
  });

  test('a file changed outside Arbor is listed and kept unless ticked; switching back redoes the outside edit', async () => {
    await writeFile(workspaceFile(FILE), 'outside\n');
    const first = answers('Conversation and files', []);
    try {
      await vscode.commands.executeCommand('arbor.switchHere', replyOf(api, 'one'));
    } finally {
      first.ui.restore();
    }
    assert.deepEqual(first.seen.outside?.map((i) => i.label), [`${vscode.workspace.workspaceFolders![0]!.name}/${FILE}`]);
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'outside\n', 'not ticked: kept');
    const point = api.app.currentStore!.getEntries().find((e) => e.type === 'custom' && (e.data as { reason?: string }).reason === 'restore-point');
    assert.ok(point, 'the outside content was saved as a restore point first');
    const key = `${vscode.workspace.workspaceFolders![0]!.name}/${FILE}`;
    const second = answers('Conversation and files', [key]);
    try {
      await vscode.commands.executeCommand('arbor.switchHere', replyOf(api, 'two'));
    } finally {
      second.ui.restore();
    }
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'two\n', 'ticked: overwritten');
    const third = answers('Conversation and files');
    try {
      await vscode.commands.executeCommand('arbor.switchHere', point.id);
    } finally {
      third.ui.restore();
    }
    assert.equal(third.seen.outside, undefined, 'nothing was changed outside Arbor this time');
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'outside\n', 'the restore point brings the outside edit back');
  });

  test('Compare Files With… lists the file that differs; Restore Files Only restores it and keeps the leaf', async () => {
    const leaf = api.app.currentStore!.getLeafId();
    const ui = stubWindow({ showWarningMessage: (_text: string, _options: unknown, restore: string) => restore });
    try {
      const rows = await vscode.commands.executeCommand<{ key: string }[]>('arbor.compareFilesWith', replyOf(api, 'one'), leaf);
      assert.deepEqual(rows.map((r) => r.key), [`${vscode.workspace.workspaceFolders![0]!.name}/${FILE}`]);
      const result = await vscode.commands.executeCommand<{ kind: string }>('arbor.restoreFilesOnly', replyOf(api, 'one'));
      assert.equal(result.kind, 'restored');
    } finally {
      ui.restore();
    }
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'one\n');
    assert.equal(api.app.currentStore!.getEntry(api.app.currentStore!.getLeafId()!)?.parentId, leaf, 'only the restore point was appended at the leaf');
  });
});
