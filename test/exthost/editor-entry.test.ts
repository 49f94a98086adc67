// The editor's entry points in the real workbench: Add Selection to Chat and Add File to Chat add to the focused
// chat's draft (appended, never replacing it), and Fix with Arbor is offered as a quick fix on a diagnostic and
// sends the problem and its code as a prompt in that chat.
import * as assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

const SOURCE = ['export function total(prices: number[]): number {', '  let sum = 0;', '  for (const p of prices) sum += p;', '  return sum;', '}', ''].join('\n');

async function workspaceFile(rel: string, text: string): Promise<vscode.Uri> {
  const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  await mkdir(join(root, 'editor-entry'), { recursive: true });
  const file = join(root, 'editor-entry', rel);
  await writeFile(file, text);
  return vscode.Uri.file(file);
}

async function sideBarChat() {
  const api = await activateArbor();
  await vscode.commands.executeCommand('arbor.openChat');
  await waitFor('the chat view to resolve', () => api.chatView.isResolved);
  await api.chatView.receive({ type: 'ready', protocolVersion: 5 });
  await api.chatView.receive({ type: 'focused' });
  return api;
}

suite('editor entry points', () => {
  test('Add Selection to Chat appends the selected lines, quoted with their file and range', async () => {
    const api = await sideBarChat();
    const uri = await workspaceFile('total.ts', SOURCE);
    const editor = await vscode.window.showTextDocument(uri);
    editor.selection = new vscode.Selection(1, 0, 3, 0); // lines 2-3 (ends at column 0 of line 4)
    const start = api.chatView.postCount;
    assert.equal(await vscode.commands.executeCommand('arbor.addSelectionToChat'), true);
    const posted = api.chatView.postsSince(start).filter((p) => p.type === 'editorText');
    assert.equal(posted.length, 1);
    const message = posted[0] as { text: string; append?: boolean };
    assert.equal(message.append, true, 'added to the draft, not in its place');
    assert.equal(message.text, '`editor-entry/total.ts` (lines 2-3):\n```typescript\n  let sum = 0;\n  for (const p of prices) sum += p;\n```');
  });

  test('with nothing selected, and from the Explorer, the file is added as an @-mention', async () => {
    const api = await sideBarChat();
    const uri = await workspaceFile('total.ts', SOURCE);
    const editor = await vscode.window.showTextDocument(uri);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    let start = api.chatView.postCount;
    assert.equal(await vscode.commands.executeCommand('arbor.addSelectionToChat'), true);
    assert.deepEqual(api.chatView.postsSince(start).filter((p) => p.type === 'editorText').map((p) => (p as { text: string }).text), ['@editor-entry/total.ts']);
    const other = await workspaceFile('rates.ts', 'export const VAT = 0.2;\n');
    start = api.chatView.postCount;
    assert.equal(await vscode.commands.executeCommand('arbor.addFileToChat', uri, [uri, other, vscode.Uri.file(join(uri.fsPath, '..'))]), true);
    assert.deepEqual(api.chatView.postsSince(start).filter((p) => p.type === 'editorText').map((p) => (p as { text: string }).text), ['@editor-entry/total.ts @editor-entry/rates.ts']);
  });

  test('Fix with Arbor is a quick fix on a diagnostic and sends it with its code as a prompt', async () => {
    const api = await sideBarChat();
    await api.app.session.newSession();
    const uri = await workspaceFile('broken.ts', SOURCE.replace('sum += p', 'sum += q'));
    await vscode.window.showTextDocument(uri);
    const diagnostics = vscode.languages.createDiagnosticCollection('arbor-test');
    try {
      const problem = new vscode.Diagnostic(new vscode.Range(2, 34, 2, 35), "Cannot find name 'q'.", vscode.DiagnosticSeverity.Error);
      problem.source = 'ts';
      problem.code = 2304;
      diagnostics.set(uri, [problem]);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, problem.range);
      const fix = actions.find((a) => a.title === 'Fix with Arbor');
      assert.ok(fix?.command, `offered among ${actions.map((a) => a.title).join(', ')}`);
      await fakeAdmin('enqueue', { text: 'Use p, the loop variable.' });
      assert.equal(await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? [])), true);
      await waitFor('the turn to finish', () => !api.app.busy && api.app.snapshot().conversation.length === 2);
      const prompt = api.app.snapshot().conversation[0]!.text;
      assert.match(prompt, /`editor-entry\/broken\.ts` at line 3/);
      assert.match(prompt, /Error: Cannot find name 'q'\. \(ts 2304\)/);
      assert.match(prompt, /for \(const p of prices\) sum \+= q;/);
    } finally {
      diagnostics.dispose();
    }
  });
});
