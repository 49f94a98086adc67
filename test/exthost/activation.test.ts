import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, activateArbor } from './helpers';

suite('activation', () => {
  test('the extension is present and activates with its API', async () => {
    const api = await activateArbor();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    assert.ok(api.chatView, 'activate() returns the chat view provider');
    assert.ok(api.sessionTree, 'activate() returns the session tree provider');
    // A figure, not a timing assert: reported for docs/reliability.md.
    assert.ok(Number.isFinite(api.activationMs) && api.activationMs > 0, `activationMs: ${api.activationMs}`);
    console.log(`# figure exthost-activation activateMs=${api.activationMs}`);
  });

  test('the manifest contributes the Arbor container, its views and the Open Chat command', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: {
        viewsContainers: { activitybar: { id: string; title: string }[] };
        views: Record<string, { id: string; name: string; type?: string }[]>;
        commands: { command: string; title: string; category?: string }[];
      };
    };
    const container = manifest.contributes.viewsContainers.activitybar.find((c) => c.id === 'arbor');
    assert.equal(container?.title, 'Arbor');
    const views = manifest.contributes.views.arbor.map((v) => `${v.id}:${v.type ?? 'tree'}:${v.name}`);
    assert.deepEqual(views, ['arbor.chat:webview:Chat', 'arbor.sessionTree:tree:Session Tree', 'arbor.sessions:tree:Sessions']);
    const titles = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`);
    assert.ok(titles.includes('Arbor: Open Chat'), JSON.stringify(titles));
    assert.ok(titles.every((t) => t.startsWith('Arbor: ')), 'every command is in the Arbor category');
  });

  test('contributed commands are registered with VS Code', async () => {
    await activateArbor();
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['arbor.openChat', 'arbor.chat.focus', 'arbor.sessionTree.focus', 'workbench.view.extension.arbor']) {
      assert.ok(commands.includes(id), `command ${id} is registered`);
    }
  });
});
