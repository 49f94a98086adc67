// Idle compaction wiring in the extension host: the clamped idleTimeoutSeconds from the real
// configuration, a settings change arming the timer without a new turn, the webview's `userTyping`
// message (through the chat view provider) restarting the wait, and no idle compaction while the agent
// works. The app is built like activate() but with a manual clock; the provider is the fake server.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Clock } from '../../src/agent/idle-timer';
import { ArborApp, type AppChange } from '../../src/app/arbor-app';
import type { ArborSettings } from '../../src/app/settings';
import type { CompactionSettings } from '../../src/compaction';
import { ChatViewProvider } from '../../src/vscode/chat-view';
import type { ChatState } from '../../src/protocol';
import { activateArbor, EXTENSION_ID, waitFor, fakeAdmin } from './helpers';
import { memoryLog } from './surfaces-fixtures';
import { ManualClock } from '../unit/agent/manual-clock';
import { wellFormedSummary } from '../unit/compaction/fixtures';

const SUMMARY_SYSTEM = 'You write context checkpoints';
const SUMMARY = wellFormedSummary('IDLE');

suite('idle compaction wiring (extension host)', () => {
  const temps: string[] = [];
  setup(async () => {
    await fakeAdmin('reset', {});
  });
  suiteTeardown(async () => {
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  test('arbor.compaction.idleTimeoutSeconds from the configuration is clamped to 60–3600', async () => {
    const api = await activateArbor();
    const config = () => vscode.workspace.getConfiguration('arbor.compaction');
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window.showWarningMessage;
    window.showWarningMessage = async () => undefined; // the expected "outside 60–3600" warnings
    try {
      await config().update('idleTimeoutSeconds', 5, vscode.ConfigurationTarget.Global);
      await waitFor('the clamped low value', () => api.config.settings.compaction.idleTimeoutSeconds === 60);
      await config().update('idleTimeoutSeconds', 99_999, vscode.ConfigurationTarget.Global);
      await waitFor('the clamped high value', () => api.config.settings.compaction.idleTimeoutSeconds === 3600);
      await config().update('idleTimeoutSeconds', 120, vscode.ConfigurationTarget.Global);
      await waitFor('a value in range', () => api.config.settings.compaction.idleTimeoutSeconds === 120);
    } finally {
      window.showWarningMessage = original;
      await config().update('idleTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('the real chat view passes the webview\'s userTyping on to the current agent', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.newSession');
    const agent = api.app.currentAgent!;
    let typed = 0;
    const original = agent.notifyUserTyping;
    agent.notifyUserTyping = function (this: typeof agent) {
      typed++;
      return original.call(this);
    };
    try {
      assert.equal(await api.chatView.receive({ type: 'userTyping' }), true);
      assert.equal(typed, 1);
    } finally {
      agent.notifyUserTyping = original;
    }
  });

  test('enabling idle compaction arms the timer at once; typing in the chat restarts the clamped wait; then it compacts', async () => {
    const api = await activateArbor();
    const dir = await mkdtemp(join(tmpdir(), 'arbor-idle-'));
    temps.push(dir);
    const clock = new ManualClock();
    let compaction: CompactionSettings = {
      ...api.config.settings.compaction,
      idleEnabled: false,
      idleThresholdTokens: 1,
      idleTimeoutSeconds: 5,
      keepRecentTokens: 10,
      remoteEnabled: false,
      warnBeforeAuto: false,
    };
    const settings = (): ArborSettings => ({ ...api.config.settings, compaction });
    const app = new ArborApp({
      sessionsDir: () => dir,
      journalsDir: () => join(dir, 'own-storage'),
      workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      trusted: () => true,
      settings,
      keys: { getKey: async () => undefined },
      prompter: { ask: async () => ({ kind: 'approve' }) },
      compaction: { retry: { baseDelayMs: 1, sleep: async () => {} } },
      agent: { clock },
    });
    const chatView = new ChatViewProvider({
      extensionUri: vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri,
      log: memoryLog(),
      app,
      getState: () => ({}) as ChatState,
      showSessionTree: async () => undefined,
    });
    const changes: AppChange[] = [];
    const listener = app.onDidChange((change) => changes.push(change));
    const compactionEnds = () => changes.filter((c) => c.kind === 'agent' && c.event.type === 'compaction_end');
    try {
      await app.session.newSession();
      for (const n of [1, 2, 3]) {
        await fakeAdmin('enqueue', { text: `reply ${n} ${'lorem ipsum '.repeat(160)}` });
        await app.prompt(`question ${n} ${'dolor sit amet '.repeat(10)}`);
      }
      await fakeAdmin('rules', { when: { systemIncludes: SUMMARY_SYSTEM }, then: { text: SUMMARY } });
      assert.equal(clock.pending, 0, 'idle compaction is off');

      compaction = { ...compaction, idleEnabled: true };
      await app.applySettings();
      assert.equal(clock.pending, 1, 'armed by the settings change, without a new turn');

      clock.advance(59_000);
      assert.equal(compactionEnds().length, 0, 'idleTimeoutSeconds 5 is clamped to 60 s');
      assert.equal(await chatView.receive({ type: 'userTyping' }), true);
      clock.advance(59_000);
      assert.equal(compactionEnds().length, 0, 'typing in the chat restarted the wait');
      clock.advance(1_000);
      await waitFor('the idle compaction', () => compactionEnds().length === 1, 10_000);
      await app.currentAgent!.whenIdle();
      const end = compactionEnds()[0] as Extract<AppChange, { kind: 'agent' }>;
      assert.ok(end.event.type === 'compaction_end' && end.event.reason === 'idle' && end.event.outcome.status === 'compacted');
      assert.ok(app.snapshot({ tree: false }).conversation.some((e) => e.kind === 'compaction'));

      // Turning it off again disarms the timer.
      compaction = { ...compaction, idleEnabled: false };
      await app.applySettings();
      assert.equal(clock.pending, 0);
    } finally {
      listener.dispose();
      chatView.dispose();
      app.dispose();
    }
  });

  test('no idle timer while the agent works', async () => {
    const api = await activateArbor();
    const dir = await mkdtemp(join(tmpdir(), 'arbor-idle-'));
    temps.push(dir);
    const clock = new ManualClock();
    const compaction: CompactionSettings = { ...api.config.settings.compaction, idleEnabled: true, idleThresholdTokens: 1, remoteEnabled: false };
    const app = new ArborApp({
      sessionsDir: () => dir,
      journalsDir: () => join(dir, 'own-storage'),
      workspaceRoots: [],
      trusted: () => true,
      settings: () => ({ ...api.config.settings, compaction }),
      keys: { getKey: async () => undefined },
      prompter: { ask: async () => ({ kind: 'approve' }) },
      agent: { clock },
    });
    try {
      await app.session.newSession();
      assert.equal(clock.pending, 1, 'an idle session arms the timer');
      await fakeAdmin('enqueue', { text: 'slow reply', hangAfterChunks: 1 });
      const run = app.prompt('work');
      await waitFor('the turn to start', () => app.busy);
      assert.equal(clock.pending, 0, 'disarmed while the agent works');
      await app.applySettings();
      assert.equal(clock.pending, 0, 'a settings change does not arm it during a turn');
      await app.stop();
      await run;
      assert.equal(clock.pending, 1, 're-armed when the turn ended');
    } finally {
      app.dispose();
    }
  });
});
