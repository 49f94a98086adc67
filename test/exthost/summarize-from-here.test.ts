// "Summarize from Here" and Pin / Unpin in the real extension host against the fake provider: the menus,
// the stage summary the command writes (what the summarizer saw, the new branch, the next request's
// context, the originals kept), Cancel at the preview and during the summary (file byte-identical), and
// the pin entries (append-only) with the Session Tree's pin mark and menu flags.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { SessionEntry } from '../../src/session/entries';
import type { ArborApi } from '../../src/vscode/api';
import type { SummarizeFromHereOutcome } from '../../src/vscode/commands/summarize-from-here';
import { activateArbor, fakeAdmin, waitFor } from './helpers';
import { pickLabel, stubWindow } from './surfaces-fixtures';

const COMMAND = 'arbor.summarizeFromHere';
const SUMMARY = '## Goal\nSTAGE-SUMMARY: the middle stage\n\n## Next Steps\n1. continue';

interface FakeRequest {
  body: { messages?: { role: string; content: unknown }[] };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { type?: string; text?: string }) => (p?.type === 'text' ? p.text ?? '' : '')).join('');
}

async function requests(): Promise<FakeRequest[]> {
  return ((await fakeAdmin('requests')) as FakeRequest[]).filter((r) => Array.isArray(r.body?.messages));
}

const lastUserText = (r: FakeRequest) => textOf([...(r.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content);

async function summaryRule(ttfbMs = 0): Promise<void> {
  await fakeAdmin('rules', [{ when: { lastUserIncludes: '<conversation>' }, then: { text: SUMMARY, ...(ttfbMs ? { ttfbMs } : {}) } }]);
}

/** A new session of three turns: EARLY, MIDDLE, LATE. */
async function seed(api: ArborApi, ttfbMs = 0) {
  await fakeAdmin('reset', {});
  await api.app.session.newSession();
  await fakeAdmin('enqueue', [{ text: 'EARLY-ANSWER' }, { text: 'MIDDLE-ANSWER' }, { text: 'LATE-ANSWER' }]);
  for (const prompt of ['EARLY-REQUEST', 'MIDDLE-REQUEST', 'LATE-REQUEST']) assert.equal((await api.app.prompt(prompt)).kind, 'sent', prompt);
  await waitFor('the turns to end', () => !api.app.busy);
  const store = api.app.currentStore!;
  const find = (text: string) => store.getBranch().find((e) => e.type === 'message' && JSON.stringify(e.message).includes(text))!;
  await fakeAdmin('reset', {});
  await summaryRule(ttfbMs);
  return { store, file: store.file, early: find('EARLY-ANSWER'), middle: find('MIDDLE-REQUEST'), leaf: store.getLeafId()! };
}

async function lines(file: string): Promise<Record<string, any>[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
}

/** withProgress whose Cancel is pressed once the summarizer's request reached the fake provider. */
function cancelOnceRequested() {
  return async (_options: unknown, task: (progress: unknown, token: vscode.CancellationToken) => Promise<unknown>) => {
    const source = new vscode.CancellationTokenSource();
    void (async () => {
      const deadline = Date.now() + 20_000;
      while ((await requests()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      source.cancel();
    })();
    return task({ report() {} }, source.token);
  };
}

suite('Summarize from Here and Pin (extension host, fake provider)', () => {
  suiteTeardown(async () => {
    await fakeAdmin('reset', {});
  });

  test('menus: the Session Tree and the palette offer Summarize from Here, Pin and Unpin', async () => {
    const api = await activateArbor();
    const { middle } = await seed(api);
    const menus = vscode.extensions.getExtension('arbor-dev.arbor')!.packageJSON.contributes.menus as Record<string, { command: string; when?: string }[]>;
    const context = menus['view/item/context']!;
    const when = (command: string) => new RegExp(/viewItem =~ \/(.+?)\//.exec(context.find((m) => m.command === command)!.when!)![1]!);
    await waitFor('the tree to show the session', () => api.sessionTree.getTreeItem(middle.id).contextValue !== undefined);
    const item = api.sessionTree.getTreeItem(middle.id).contextValue!;
    assert.match(item, when(COMMAND));
    assert.match(item, when('arbor.pinEntry'));
    assert.doesNotMatch(item, when('arbor.unpinEntry'));
    for (const command of [COMMAND, 'arbor.pinEntry', 'arbor.unpinEntry']) assert.ok(menus.commandPalette!.some((m) => m.command === command && m.when === 'arbor.hasSession'), command);
  });

  test('summarizes the stage into one summary on a new branch; the next request has what came before plus the summary', async () => {
    const api = await activateArbor();
    const { file, early, middle, leaf } = await seed(api);
    const before = await readFile(file);
    const ui = stubWindow({ showInputBox: () => 'the decisions', showQuickPick: pickLabel('Summarize from Here') });
    let outcome: SummarizeFromHereOutcome;
    try {
      outcome = await vscode.commands.executeCommand<SummarizeFromHereOutcome>(COMMAND, middle.id);
    } finally {
      ui.restore();
    }
    assert.equal(outcome, 'summarized', JSON.stringify(ui.messages));
    assert.match((ui.pickers[0]!.options as { placeHolder: string }).placeHolder, /Summarizes 4 messages .* The originals stay as a branch in the tree\./);
    const after = await readFile(file);
    assert.ok(after.subarray(0, before.length).equals(before), 'append-only');
    const added = (await lines(file)).slice(before.toString('utf8').trim().split('\n').length);
    assert.equal(added.length, 1);
    const summary = added[0]!;
    assert.equal(summary.type, 'branch_summary');
    assert.equal(summary.parentId, early.id, 'a child of the chosen entry’s parent');
    assert.deepEqual(summary.details.stage, { fromEntryId: middle.id, leafId: leaf });
    assert.ok(summary.summary.includes('STAGE-SUMMARY: the middle stage'));

    const sent = (await requests()).map(lastUserText).filter((t) => t.includes('<conversation>'));
    assert.equal(sent.length, 1);
    for (const text of ['MIDDLE-REQUEST', 'MIDDLE-ANSWER', 'LATE-REQUEST', 'LATE-ANSWER', 'the decisions']) assert.ok(sent[0]!.includes(text), text);
    for (const text of ['EARLY-REQUEST', 'EARLY-ANSWER']) assert.ok(!sent[0]!.includes(text), `${text} is before the stage`);

    await fakeAdmin('enqueue', { text: 'NEXT-ANSWER' });
    assert.equal((await api.app.prompt('NEXT-REQUEST')).kind, 'sent');
    const next = (await requests()).find((r) => lastUserText(r) === 'NEXT-REQUEST')!;
    const wire = next.body.messages!.filter((m) => m.role !== 'system').map((m) => `${m.role}:${textOf(m.content)}`);
    assert.deepEqual(wire.map((w) => w.slice(0, 40)), ['user:EARLY-REQUEST', 'assistant:EARLY-ANSWER', wire[2]!.slice(0, 40), 'user:NEXT-REQUEST']);
    assert.ok(wire[2]!.startsWith('user:') && wire[2]!.includes('STAGE-SUMMARY'), wire[2]);
    const store = api.app.currentStore!;
    assert.ok(store.getBranch(leaf).some((e: SessionEntry) => e.id === middle.id), 'the originals are still in the tree');
  });

  test('Cancel at the preview and during the summary leave the file byte-identical', async () => {
    const api = await activateArbor();
    const { file, middle } = await seed(api, 3000);
    const before = await readFile(file);
    const atPreview = stubWindow({ showInputBox: () => '', showQuickPick: pickLabel('Cancel') });
    try {
      assert.equal(await vscode.commands.executeCommand<SummarizeFromHereOutcome>(COMMAND, middle.id), 'cancelled');
    } finally {
      atPreview.restore();
    }
    const during = stubWindow({
      showInputBox: () => '',
      showQuickPick: pickLabel('Summarize from Here'),
      withProgress: cancelOnceRequested(),
    });
    try {
      await waitFor('nothing running', () => !api.app.busy);
      const outcome = await vscode.commands.executeCommand<SummarizeFromHereOutcome>(COMMAND, middle.id);
      assert.equal(outcome, 'cancelled', JSON.stringify(during.messages));
      assert.ok(during.messages.some((m) => /Summary cancelled\. The session is unchanged\./.test(m.text)), JSON.stringify(during.messages));
      assert.equal((await requests()).length, 1, 'cancelled while the summarizer was answering');
    } finally {
      during.restore();
    }
    assert.ok((await readFile(file)).equals(before), 'byte-identical');
  });

  test('Pin and Unpin append entries; the Session Tree shows the mark and offers Unpin', async () => {
    const api = await activateArbor();
    const { file, middle } = await seed(api);
    const before = await readFile(file);
    assert.equal(await vscode.commands.executeCommand('arbor.pinEntry', middle.id), 'pinned');
    await waitFor('the pin mark', () => /pinned/.test(String(api.sessionTree.getTreeItem(middle.id).description)));
    assert.match(api.sessionTree.getTreeItem(middle.id).contextValue!, /\bpinned\b/);
    assert.equal(api.app.views.treeNode(middle.id)?.pinned, true);
    assert.equal(await vscode.commands.executeCommand('arbor.unpinEntry', middle.id), 'unpinned');
    await waitFor('the pin mark gone', () => !/pinned/.test(String(api.sessionTree.getTreeItem(middle.id).description)));
    const after = await readFile(file);
    assert.ok(after.subarray(0, before.length).equals(before), 'append-only: the pin stays in the file');
    const pins = (await lines(file)).filter((l) => l.type === 'custom' && l.customType === 'arbor.pin');
    assert.deepEqual(pins.map((p) => p.data), [{ targetId: middle.id, pinned: true }, { targetId: middle.id, pinned: false }]);
  });
});
