import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateArbor } from './helpers';

suite('session tree', () => {
  test('is empty until a session exists (so its welcome content shows) and can be focused', async () => {
    const api = await activateArbor();
    assert.deepEqual(api.sessionTree.getChildren(), []);
    await vscode.commands.executeCommand('arbor.sessionTree.focus');
  });

  test('renders nodes it is given', async () => {
    const api = await activateArbor();
    const node = { id: 'n1', label: 'root', children: [{ id: 'n2', label: 'child', children: [] }] };
    api.sessionTree.setRoots([node]);
    try {
      assert.equal(api.sessionTree.getChildren()[0]?.id, 'n1');
      const item = api.sessionTree.getTreeItem(node);
      assert.equal(item.label, 'root');
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    } finally {
      api.sessionTree.setRoots([]);
    }
  });
});
