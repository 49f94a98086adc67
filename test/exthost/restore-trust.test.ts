// Issue #24 in the real extension host: a workspace's `.vscode/settings.json` cannot choose the sessions
// folder or make restores silent (VS Code's own scopes and Arbor's reader, with one warning each), and a
// branch switch with `arbor.checkpoints.restore` = always still asks, in a pick of its own with nothing
// ticked, before it restores a protected file (`.vscode/tasks.json`) a turn wrote.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { activateArbor, fakeAdmin } from './helpers';
import { stubWindow } from './surfaces-fixtures';

const TASKS = join('.vscode', 'tasks.json');

function folderPath(...parts: string[]): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return join(folder.uri.fsPath, ...parts);
}

async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One turn: the model writes `content` to `path`; every approval (a protected path asks) is granted. */
async function writeTurn(api: ArborApi, path: string, content: string): Promise<string> {
  await fakeAdmin('enqueue', [{ toolCalls: [{ id: `call_${content.trim()}`, name: 'write', input: { path, content } }] }, { text: `Wrote ${content.trim()}.` }]);
  const subscription = api.approvals.onDidRequest((pending) => api.approvals.answer(pending.toolCallId, { kind: 'approve' }));
  try {
    assert.equal((await api.app.prompt(`write ${content.trim()}`)).kind, 'sent');
  } finally {
    subscription.dispose();
  }
  const reply = api.app.currentStore!.getEntries().find((e) => e.type === 'message' && e.message.role === 'assistant' && JSON.stringify(e.message.content).includes(`Wrote ${content.trim()}.`));
  assert.ok(reply);
  return reply.id;
}

suite('issue #24: the restore surface obeys the same rules as the tools (real extension host)', () => {
  test("a workspace's .vscode/settings.json sets neither arbor.sessions.directory nor arbor.checkpoints.restore; each is warned about once", async () => {
    const api = await activateArbor();
    const settingsFile = folderPath('.vscode', 'settings.json');
    const previous = await readFile(settingsFile, 'utf8').catch(() => undefined);
    const ui = stubWindow();
    try {
      await mkdir(dirname(settingsFile), { recursive: true });
      await writeFile(settingsFile, JSON.stringify({ 'arbor.sessions.directory': '.arbor', 'arbor.checkpoints.restore': 'always' }));
      // VS Code itself drops a machine-scoped value from the workspace layer; Arbor reads the file to say so.
      await waitFor('the warning about the workspace value', () => ui.messages.some((m) => m.text.includes('arbor.checkpoints.restore')));
      api.config.reload();
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(api.config.settings.sessionsDirectory, '', 'the sessions folder stays in Arbor\'s storage');
      assert.equal(api.config.settings.checkpoints.restore, 'ask', 'restores still ask');
      for (const key of ['arbor.sessions.directory', 'arbor.checkpoints.restore']) {
        const warned = ui.messages.filter((m) => m.level === 'warning' && m.text.includes(key) && m.text.includes('ignored'));
        assert.equal(warned.length, 1, `${key} warned once: ${JSON.stringify(ui.messages)}`);
      }
    } finally {
      ui.restore();
      if (previous === undefined) await rm(settingsFile, { force: true });
      else await writeFile(settingsFile, previous);
    }
  });

  test('a switch with arbor.checkpoints.restore = always asks before restoring a protected file, nothing ticked', async () => {
    const api = await activateArbor();
    const config = vscode.workspace.getConfiguration('arbor.checkpoints');
    const tasks = folderPath(TASKS);
    const previous = await readFile(tasks, 'utf8').catch(() => undefined);
    await api.app.session.newSession();
    const one = await writeTurn(api, TASKS, 'tasks one\n');
    await writeTurn(api, TASKS, 'tasks two\n');
    await config.update('restore', 'always', vscode.ConfigurationTarget.Global);
    const picks: { title?: string; placeHolder?: string; labels: string[]; picked: boolean[] }[] = [];
    const ui = stubWindow({
      showQuickPick: (items: { label: string; picked?: boolean }[], options: { title?: string; placeHolder?: string; canPickMany?: boolean }) => {
        if (options?.canPickMany) {
          picks.push({ title: options.title, placeHolder: options.placeHolder, labels: items.map((i) => i.label), picked: items.map((i) => Boolean(i.picked)) });
          return [];
        }
        return items.find((i) => i.label.includes('No summary'));
      },
    });
    try {
      const outcome = await vscode.commands.executeCommand<{ status: string }>('arbor.switchHere', one);
      assert.equal(outcome.status, 'switched');
      const key = `${vscode.workspace.workspaceFolders![0]!.name}/.vscode/tasks.json`;
      const asked = picks.find((p) => p.labels.includes(key));
      assert.ok(asked, `the protected file was asked about: ${JSON.stringify(picks)}`);
      assert.match(asked.title ?? '', /Protected files/);
      assert.match(asked.placeHolder ?? '', /tick one only if you trust it/);
      assert.deepEqual(asked.picked, asked.labels.map(() => false), 'nothing ticked');
      assert.equal(await readFile(tasks, 'utf8'), 'tasks two\n', 'not ticked: not restored, even with "always"');
    } finally {
      ui.restore();
      await config.update('restore', undefined, vscode.ConfigurationTarget.Global);
      if (previous === undefined) await rm(tasks, { force: true });
      else await writeFile(tasks, previous);
    }
  });
});
