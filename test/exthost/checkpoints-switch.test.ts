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

  test('the Session Tree has no row for a manifest: the step before it says "1 file", its next step hangs on it', () => {
    const store = api.app.currentStore!;
    const tree = api.sessionTree;
    const shown: string[] = [];
    const walk = (id?: string) => {
      for (const child of tree.getChildren(id)) {
        shown.push(child);
        walk(child);
      }
    };
    walk();
    const manifests = store.getEntries().filter((e) => e.type === 'custom' && e.customType === 'arbor.files');
    for (const manifest of manifests) {
      assert.ok(!shown.includes(manifest.id), 'no row for the manifest');
      const item = tree.getTreeItem(manifest.parentId!);
      assert.match(String(item.description), /(^|\s)1 file$/, 'the step that changed the file carries the count');
      assert.match((item.tooltip as vscode.MarkdownString).value, /1 file changed/);
      assert.match(String(item.contextValue), /arbor\.entry/, 'Compare Files With… and Restore Files Only stay on its menu');
      const next = store.getChildren(manifest.id)[0]!;
      assert.equal(tree.getParent(next.id), tree.getParent(manifest.parentId!), 'the run goes on through the manifest');
    }
    assert.equal(shown.length, store.entryCount - manifests.length, 'every other entry has a row');
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
    const store = () => api.app.currentStore!;
    const point = store().getEntries().find((e) => e.type === 'custom' && (e.data as { reason?: string }).reason === 'restore-point');
    assert.ok(point, 'the outside content was saved as a restore point first');
    const key = `${vscode.workspace.workspaceFolders![0]!.name}/${FILE}`;
    // the row that carries the second turn's "1 file" (the manifest's parent): the files right after that turn
    const turnTwo = store().getEntries().filter((e) => e.type === 'custom' && e.customType === 'arbor.files' && e.id !== point.id)[1]!;
    const second = answers('Conversation and files', [key]);
    try {
      await vscode.commands.executeCommand('arbor.switchHere', turnTwo.parentId);
    } finally {
      second.ui.restore();
    }
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'two\n', 'ticked: overwritten');
    assert.equal(store().getLeafId(), turnTwo.id, 'the leaf goes to the step with its files');
    // the row that was left ("Wrote two."): its newest file state is the restore point saved when leaving it
    const third = answers('Conversation and files');
    try {
      await vscode.commands.executeCommand('arbor.switchHere', replyOf(api, 'two'));
    } finally {
      third.ui.restore();
    }
    assert.equal(third.seen.outside, undefined, 'nothing was changed outside Arbor this time');
    assert.equal(await readFile(workspaceFile(FILE), 'utf8'), 'outside\n', 'switching back to the row that was left brings the outside edit back');
    assert.equal(store().getLeafId(), point.id);
    assert.equal(api.app.views.treeLeafId, replyOf(api, 'two'), 'shown on that row');
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
