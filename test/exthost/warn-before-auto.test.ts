// arbor.compaction.warnBeforeAuto in the real extension host: the notification confirmer maps its buttons
// ("Compact now", "Later", "Don't ask again", closed) to answers, and the activated extension asks it
// before a threshold compaction (fake provider reporting a nearly full window).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AutoCompactionQuestion } from '../../src/agent/auto-compaction-confirm';
import type { AppChange } from '../../src/app/arbor-app';
import { confirmerButtons, NotificationCompactionConfirmer } from '../../src/vscode/compaction-confirmer';
import { activateArbor, waitFor, fakeAdmin } from './helpers';



interface Shown {
  message: string;
  items: unknown[];
}

/** Replaces vscode.window.showWarningMessage for one test; `answer` picks the button (or undefined = closed). */
function stubWarning(answer: (message: string, items: string[]) => string | undefined | Promise<string | undefined>) {
  const window = vscode.window as unknown as Record<string, unknown>;
  const original = window.showWarningMessage;
  const shown: Shown[] = [];
  window.showWarningMessage = async (message: string, ...items: unknown[]) => {
    shown.push({ message, items });
    return answer(message, items.filter((i): i is string => typeof i === 'string'));
  };
  return { shown, restore: () => (window.showWarningMessage = original) };
}

/** the figures as the confirmer prints them (the host's locale) */
const n = (value: number) => value.toLocaleString().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const question: AutoCompactionQuestion = { reason: 'threshold', contextTokens: 150_000, threshold: 140_000, window: 200_000 };

suite('warnBeforeAuto (extension host)', () => {
  test('"Compact now" → compact; the warning is non-modal with three buttons and the figures', async () => {
    const buttons = confirmerButtons();
    const ui = stubWarning(() => buttons.compactNow);
    try {
      const answer = await new NotificationCompactionConfirmer().confirm(question, new AbortController().signal);
      assert.equal(answer, 'compact');
      assert.equal(ui.shown.length, 1);
      assert.deepEqual(ui.shown[0]!.items, ['Compact now', 'Later', "Don't ask again"], 'string buttons only: no { modal: true } options');
      assert.match(ui.shown[0]!.message, new RegExp(`${n(150_000)} of ${n(200_000)}`));
      assert.match(ui.shown[0]!.message, new RegExp(n(140_000)));
    } finally {
      ui.restore();
    }
  });

  test('"Later" and a closed notification → defer; the idle question names the idle threshold', async () => {
    const buttons = confirmerButtons();
    const answers: (string | undefined)[] = [buttons.later, undefined];
    const ui = stubWarning(() => answers.shift());
    try {
      const confirmer = new NotificationCompactionConfirmer();
      assert.equal(await confirmer.confirm(question, new AbortController().signal), 'defer');
      const idle = await confirmer.confirm({ reason: 'idle', contextTokens: 210_000, threshold: 200_000, window: 400_000 }, new AbortController().signal);
      assert.equal(idle, 'defer');
      assert.match(ui.shown[1]!.message, new RegExp(`${n(210_000)} tokens while idle`));
      assert.match(ui.shown[1]!.message, new RegExp(n(200_000)));
    } finally {
      ui.restore();
    }
  });

  test('"Don\'t ask again" → compact, and arbor.compaction.warnBeforeAuto is turned off in the user settings', async () => {
    const config = () => vscode.workspace.getConfiguration('arbor.compaction');
    await config().update('warnBeforeAuto', true, vscode.ConfigurationTarget.Global);
    const ui = stubWarning(() => confirmerButtons().never);
    try {
      assert.equal(config().get('warnBeforeAuto'), true);
      const answer = await new NotificationCompactionConfirmer().confirm(question, new AbortController().signal);
      assert.equal(answer, 'compact');
      assert.equal(config().inspect<boolean>('warnBeforeAuto')?.globalValue, false);
      assert.equal(config().get('warnBeforeAuto'), false);
    } finally {
      ui.restore();
      await config().update('warnBeforeAuto', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('an aborted question resolves "defer" at once, even if the notification stays open', async () => {
    const ui = stubWarning(() => new Promise<string | undefined>(() => undefined));
    try {
      const controller = new AbortController();
      const pending = new NotificationCompactionConfirmer().confirm(question, controller.signal);
      await waitFor('the warning', () => ui.shown.length === 1);
      controller.abort();
      assert.equal(await pending, 'defer');
      assert.equal(await new NotificationCompactionConfirmer().confirm(question, controller.signal), 'defer');
      assert.equal(ui.shown.length, 1, 'an already aborted question shows nothing');
    } finally {
      ui.restore();
    }
  });

  test('the activated extension asks before a threshold compaction; "Later" leaves the session uncompacted', async () => {
    const api = await activateArbor();
    const config = () => vscode.workspace.getConfiguration('arbor.compaction');
    await fakeAdmin('reset', {});
    await config().update('warnBeforeAuto', true, vscode.ConfigurationTarget.Global);
    const ui = stubWarning(() => confirmerButtons().later);
    const changes: AppChange[] = [];
    const listener = api.app.onDidChange((change) => changes.push(change));
    try {
      await waitFor('the setting to reach the app', () => api.config.settings.compaction.warnBeforeAuto === true);
      await vscode.commands.executeCommand('arbor.newSession');
      // fake-gpt has a 128,000-token window: the default threshold is 128,000 − 19,200 = 108,800.
      await fakeAdmin('enqueue', { text: 'A reply in a nearly full window.', usage: { prompt_tokens: 120_000, completion_tokens: 50, total_tokens: 120_050 } });
      const outcome = await api.app.prompt('fill the window');
      assert.equal(outcome.kind, 'sent');
      const asked = ui.shown.filter((s) => /automatic compaction starts at/.test(s.message));
      assert.equal(asked.length, 1, `asked once: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
      assert.match(asked[0]!.message, new RegExp(`${n(120_050)} of ${n(128_000)}`));
      const deferred = changes.flatMap((c) => (c.kind === 'agent' && c.event.type === 'compaction_deferred' ? [c.event] : []));
      assert.equal(deferred.length, 1);
      assert.equal(deferred[0]!.askAgainAt, 120_050 + 6_400);
      assert.ok(!changes.some((c) => c.kind === 'agent' && c.event.type === 'compaction_start'), 'no compaction started');
      assert.ok(!api.app.snapshot({ tree: false }).conversation.some((e) => e.kind === 'compaction'));
    } finally {
      listener.dispose();
      ui.restore();
      await config().update('warnBeforeAuto', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
