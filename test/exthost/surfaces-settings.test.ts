// Settings validation (one warning per invalid value, the default used), the contributed schema, the
// status bar meter, and the Sessions view items.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_COMPACTION_SETTINGS } from '../../src/compaction';
import { SessionsProvider } from '../../src/vscode/sessions/sessions-provider';
import { ArborConfig, saveAutoCompactionSetting } from '../../src/vscode/settings/arbor-settings';
import { meterView } from '../../src/vscode/status-bar';
import { EXTENSION_ID, waitFor } from './helpers';
import { FakeApp, memoryLog, sessionFrom, twoBranchEntries } from './surfaces-fixtures';

const usage = (tokens: number | null, estimated = 0) => ({
  contextTokens: tokens,
  estimatedTokens: estimated,
  contextWindow: 200_000,
  thresholdTokens: 170_000,
  lastCost: 0,
  sessionCost: 0,
});

suite('surfaces: settings, status bar, sessions view', () => {
  test('an invalid setting warns once and falls back to the default; a valid one applies', async () => {
    const config = vscode.workspace.getConfiguration('arbor.compaction');
    const shown: string[] = [];
    // the extension's one settings reader (src/vscode/settings/arbor-settings.ts), with its warnings recorded
    const reader = new ArborConfig(memoryLog(), (m: string) => shown.push(m));
    const compaction = () => {
      reader.reload();
      return reader.settings.compaction;
    };
    try {
      await config.update('reserveTokens', 'lots', vscode.ConfigurationTarget.Global);
      await config.update('keepRecentTokens', 5000, vscode.ConfigurationTarget.Global);
      const first = compaction();
      const second = compaction();
      assert.equal(first.reserveTokens, DEFAULT_COMPACTION_SETTINGS.reserveTokens);
      assert.equal(second.reserveTokens, DEFAULT_COMPACTION_SETTINGS.reserveTokens);
      assert.equal(first.keepRecentTokens, 5000);
      assert.equal(shown.length, 1, `one warning, not one per read: ${JSON.stringify(shown)}`);
      assert.match(shown[0]!, /arbor\.compaction\.reserveTokens: "lots" is not valid.*using the default 16384/);
      await config.update('reserveTokens', -5, vscode.ConfigurationTarget.Global);
      compaction();
      assert.equal(shown.length, 2, 'a different invalid value warns again');
    } finally {
      reader.dispose();
      await config.update('reserveTokens', undefined, vscode.ConfigurationTarget.Global);
      await config.update('keepRecentTokens', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('branch summary settings: bad values warn once, defaults apply', async () => {
    const config = vscode.workspace.getConfiguration('arbor.branchSummary');
    const shown: string[] = [];
    const reader = new ArborConfig(memoryLog(), (m: string) => shown.push(m));
    const branchSummary = () => {
      reader.reload();
      return reader.settings.branchSummary;
    };
    try {
      assert.deepEqual(branchSummary(), { enabled: true, reserveTokens: 16384 });
      await config.update('enabled', 'yes', vscode.ConfigurationTarget.Global);
      assert.equal(branchSummary().enabled, true);
      assert.equal(branchSummary().enabled, true);
      assert.equal(shown.length, 1);
      await config.update('enabled', false, vscode.ConfigurationTarget.Global);
      await waitFor('the change to reach the reader without a reload', () => reader.settings.branchSummary.enabled === false);
    } finally {
      reader.dispose();
      await config.update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a changed setting reaches the listeners with its name; the writes go where the value is set', async () => {
    const reader = new ArborConfig(memoryLog(), () => undefined);
    const heard: string[][] = [];
    const listening = reader.onDidChange((change) => heard.push([...change.changed]));
    try {
      await vscode.workspace.getConfiguration('arbor').update('thinkingLevel', 'high', vscode.ConfigurationTarget.Global);
      await waitFor('the thinking level change to be told', () => heard.some((names) => names.includes('thinkingLevel')));
      assert.ok(heard.every((names) => !names.includes('compaction')), `only what changed is named: ${JSON.stringify(heard)}`);
      await saveAutoCompactionSetting(false);
      await waitFor('the write to reach the reader', () => reader.settings.compaction.enabled === false);
      assert.equal(vscode.workspace.getConfiguration('arbor.compaction').inspect('enabled')?.globalValue, false, 'written to the user settings');
      assert.ok(heard.some((names) => names.includes('compaction')));
    } finally {
      listening.dispose();
      reader.dispose();
      await vscode.workspace.getConfiguration('arbor').update('thinkingLevel', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('arbor.compaction').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('ArborConfig disposes every listener it made: the settings watcher\'s two and the configuration one', () => {
    let live = 0;
    const counted = <T>(event: vscode.Event<T>): vscode.Event<T> => (listener, thisArg, disposables) => {
      live++;
      const inner = event(listener, thisArg, disposables);
      let done = false;
      return { dispose: () => void (done || ((done = true), live--, inner.dispose())) };
    };
    const workspace = vscode.workspace as { -readonly [K in keyof typeof vscode.workspace]: (typeof vscode.workspace)[K] };
    const [createWatcher, onConfiguration] = [workspace.createFileSystemWatcher, workspace.onDidChangeConfiguration];
    workspace.createFileSystemWatcher = ((...args: Parameters<typeof createWatcher>) => {
      const watcher = createWatcher(...args);
      return { ...watcher, onDidCreate: counted(watcher.onDidCreate), onDidChange: counted(watcher.onDidChange), onDidDelete: counted(watcher.onDidDelete), dispose: () => watcher.dispose() };
    }) as typeof createWatcher;
    workspace.onDidChangeConfiguration = counted(onConfiguration);
    try {
      const reader = new ArborConfig(memoryLog(), () => undefined);
      assert.equal(live, 3, 'the configuration listener and the watcher\'s create and change listeners');
      reader.dispose();
      assert.equal(live, 0, 'none is left after dispose');
    } finally {
      workspace.createFileSystemWatcher = createWatcher;
      workspace.onDidChangeConfiguration = onConfiguration;
    }
  });

  test('every compaction and branch summary setting is contributed with a default and a markdownDescription', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const sections = ([] as { properties: Record<string, { default?: unknown; markdownDescription?: string; enum?: string[]; minimum?: number; maximum?: number }> }[]).concat(
      extension.packageJSON.contributes.configuration,
    );
    const properties = Object.assign({}, ...sections.map((s) => s.properties));
    for (const [key, value] of Object.entries(DEFAULT_COMPACTION_SETTINGS)) {
      const property = properties[`arbor.compaction.${key}`];
      assert.ok(property, `arbor.compaction.${key} contributed`);
      assert.deepEqual(property.default, value, `default of ${key}`);
      assert.ok(property.markdownDescription, `${key} has a markdownDescription`);
    }
    assert.deepEqual(properties['arbor.compaction.strategy'].enum, ['context-full', 'handoff', 'off']);
    assert.equal(properties['arbor.compaction.idleTimeoutSeconds'].minimum, 60);
    assert.equal(properties['arbor.compaction.idleTimeoutSeconds'].maximum, 3600);
    assert.equal(properties['arbor.compaction.warnBeforeAuto'].default, false);
    assert.equal(properties['arbor.branchSummary.enabled'].default, true);
    assert.equal(properties['arbor.branchSummary.reserveTokens'].default, 16384);
  });

  test('status bar meter: tokens and percent, threshold in the tooltip, warning near it, spinner while busy', () => {
    const low = meterView(usage(20_000), 'idle');
    assert.match(low.text, /20\.0k \/ 200k \(10%\)/);
    assert.match(low.tooltip, /170,000/);
    assert.equal(low.warning, false);
    assert.equal(low.command, 'arbor.compactSession');
    assert.equal(meterView(usage(150_000), 'idle').warning, true, 'near the threshold');
    assert.equal(meterView(usage(180_000), 'idle').warning, true, 'over the threshold');
    assert.match(meterView(usage(null, 12_345), 'idle').text, /~12\.3k/, 'an estimate is marked');
    const compacting = meterView(usage(20_000), 'compacting');
    assert.match(compacting.text, /sync~spin/);
    assert.equal(compacting.command, 'arbor.cancelCompaction');
    assert.match(meterView(usage(20_000), 'summarizing').text, /sync~spin/);
    assert.match(meterView(undefined, 'idle').text, /–/);
  });

  test('Sessions view: name or first message, relative time, entries and branches; the current one marked', async () => {
    const store = await sessionFrom(twoBranchEntries());
    const app = new FakeApp(store);
    app.sessionList = [
      { file: store.file, id: 'a', cwd: undefined, name: undefined, firstUserMessage: 'First question\nsecond line', modified: new Date(), created: undefined, entryCount: 8, branchCount: 2, parentSession: undefined },
      { file: '/tmp/other.jsonl', id: 'b', cwd: undefined, name: 'Named', firstUserMessage: 'x', modified: new Date(Date.now() - 3 * 3600_000), created: undefined, entryCount: 1, branchCount: 1, parentSession: undefined },
    ];
    const provider = new SessionsProvider(app);
    try {
      const sessions = await provider.getChildren();
      assert.equal(sessions.length, 2);
      const current = provider.getTreeItem(sessions[0]!);
      assert.equal(current.label, 'First question');
      assert.match(String(current.description), /● current · just now · 8 entries · 2 branches/);
      assert.equal(current.contextValue, 'arbor.session current');
      const other = provider.getTreeItem(sessions[1]!);
      assert.equal(other.label, 'Named');
      assert.match(String(other.description), /3 hours ago · 1 entry · 1 branch/);
      assert.equal(other.command?.command, 'arbor.sessions.open');
    } finally {
      provider.dispose();
    }
  });
});
