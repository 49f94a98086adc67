// "Arbor: Search Sessions" in the real extension host: the registered command over sessions seeded into
// the real app's sessions folder (a hit on the active path is revealed in the chat, one on another
// branch is offered for Switch Here, which really moves the leaf), and the QuickPick itself (debounce, a
// superseded search never touching the list, item shape, "No matches", picking) with a recorded picker.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { listSessions, type SessionSummary } from '../../src/session/catalog';
import type { SessionSearchHit } from '../../src/session/search';
import { id as SEARCH_COMMAND, SEARCH_DEBOUNCE_MS, showSearchPicker, type SearchPickItem, type SearchSessionsOutcome } from '../../src/vscode/commands/search-sessions';
import { activateArbor, waitFor } from './helpers';
import { FakeApp, assistantEntry, depsFor, labelEntry, stubWindow, userEntry } from './surfaces-fixtures';

/** Writes a session file; `modified` (seconds since epoch) fixes the Sessions view order. */
function writeSession(dir: string, id: string, entries: Record<string, unknown>[], modified: number): string {
  const header = { type: 'session', version: 3, id, timestamp: '2025-01-01T00:00:00.000Z', cwd: dir };
  const file = join(dir, `2025-01-01T00-00-00-000Z_${id}.jsonl`);
  writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');
  utimesSync(file, modified, modified);
  return file;
}

/**
 * Session "alpha" (older):   u1 → a1 ┬ u2 → a2        off the active path: "marmoset"
 *                                    └ u3 → a3        the leaf (last line): "tamarin"
 * Session "beta" (newer):    b1 → b2                  "tamarin" too, and a label "capuchin" on b1
 */
function seed(dir: string): { alpha: string; beta: string } {
  const alpha = writeSession(
    dir,
    'alpha',
    [
      userEntry('u1', null, 'Monkey questions'),
      assistantEntry('a1', 'u1', 'Ask away.'),
      userEntry('u2', 'a1', 'What does a marmoset eat?'),
      assistantEntry('a2', 'u2', 'A marmoset eats tree gum and insects.'),
      userEntry('u3', 'a1', 'And the tamarin?'),
      assistantEntry('a3', 'u3', 'The tamarin eats fruit.'),
    ],
    1_700_000_000,
  );
  const beta = writeSession(
    dir,
    'beta',
    [userEntry('b1', null, 'Tell me about the tamarin in Brazil'), assistantEntry('b2', 'b1', 'Golden lion tamarins live in Brazil.'), labelEntry('l1', 'b2', 'b1', 'capuchin notes')],
    1_700_000_100,
  );
  return { alpha, beta };
}

suite('Search Sessions (real extension)', () => {
  let dir: string;
  let files: { alpha: string; beta: string };
  const config = () => vscode.workspace.getConfiguration('arbor.sessions');

  suiteSetup(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-search-'));
    files = seed(dir);
    const api = await activateArbor();
    await config().update('directory', dir, vscode.ConfigurationTarget.Global);
    await waitFor('the sessions folder setting', () => api.config.settings.sessionsDirectory === dir);
  });

  suiteTeardown(async () => {
    await config().update('directory', undefined, vscode.ConfigurationTarget.Global);
    const api = await activateArbor();
    await waitFor('the default sessions folder', () => api.config.settings.sessionsDirectory === '');
    await api.app.session.newSession();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the command is contributed with its search icon in the Sessions view title bar', () => {
    const pkg = vscode.extensions.getExtension('arbor-dev.arbor')!.packageJSON;
    const command = pkg.contributes.commands.find((c: { command: string }) => c.command === SEARCH_COMMAND);
    assert.equal(command?.icon, '$(search)');
    assert.equal(command?.category, 'Arbor');
    const title = pkg.contributes.menus['view/title'].find((m: { command: string }) => m.command === SEARCH_COMMAND);
    assert.equal(title?.when, 'view == arbor.sessions');
    assert.match(title?.group ?? '', /^navigation/);
  });

  test('hits of both sessions, newest session first; a hit on the active path opens its session and is revealed in the chat', async () => {
    const api = await activateArbor();
    let seen: readonly SessionSearchHit[] = [];
    const postsBefore = api.chatView.postCount;
    const outcome = await vscode.commands.executeCommand<SearchSessionsOutcome>(SEARCH_COMMAND, {
      query: 'TAMARIN',
      choose: (hits: readonly SessionSearchHit[]) => {
        seen = hits;
        return hits.find((h) => h.file === files.alpha && h.entryId === 'a3');
      },
    });
    assert.deepEqual(
      seen.map((h) => [h.file === files.beta ? 'beta' : 'alpha', h.entryId, h.kind]),
      [
        ['beta', 'b1', 'user'],
        ['beta', 'b2', 'assistant'],
        ['alpha', 'u3', 'user'],
        ['alpha', 'a3', 'assistant'],
      ],
    );
    assert.equal(seen[0]!.title, 'Tell me about the tamarin in Brazil', 'titled as in the Sessions view');
    assert.equal(outcome.status, 'picked');
    assert.ok(outcome.status === 'picked');
    assert.equal(outcome.open.status, 'revealed');
    assert.equal(api.app.currentStore?.file, files.alpha, 'the hit\'s session is open');
    assert.equal(api.app.currentStore?.getLeafId(), 'a3', 'opening does not move the leaf');
    const reveals = api.chatView.postsSince(postsBefore).filter((m) => m.type === 'revealEntry');
    assert.deepEqual(reveals, [{ type: 'revealEntry', entryId: 'a3' }], 'the chat was asked to scroll to the entry');
  });

  test('a hit on another branch: the session opens, Switch Here is offered, and taking it moves the leaf there', async () => {
    const api = await activateArbor();
    const ui = stubWindow({
      showInformationMessage: () => 'Switch Here',
      showQuickPick: (items: readonly { label: string }[]) => items.find((i) => i.label.includes('No summary')),
    });
    try {
      const postsBefore = api.chatView.postCount;
      const outcome = await vscode.commands.executeCommand<SearchSessionsOutcome>(SEARCH_COMMAND, {
        query: 'gum marmoset',
        choose: (hits: readonly SessionSearchHit[]) => hits.find((h) => h.entryId === 'a2'),
      });
      assert.ok(outcome.status === 'picked', JSON.stringify(outcome));
      assert.equal(outcome.open.status, 'offered');
      assert.equal(api.app.currentStore?.file, files.alpha);
      assert.equal(api.app.currentStore?.getLeafId(), 'a3', 'nothing switched before the user chose');
      assert.equal(await outcome.open.offer, 'arbor.switchHere');
      const offer = ui.messages.find((m) => /another branch/.test(m.text));
      assert.ok(offer, `the off-path offer was shown: ${JSON.stringify(ui.messages)}`);
      assert.equal(ui.pickers.length, 1, 'Switch Here asked about a summary (the setting is on)');
      await waitFor('the leaf to move to the hit', () => api.app.currentStore?.getLeafId() === 'a2');
      assert.equal(
        api.chatView.postsSince(postsBefore).filter((m) => m.type === 'revealEntry').length,
        0,
        'an off-path hit is not "revealed" in a chat that does not show it',
      );
    } finally {
      ui.restore();
    }
  });

  test('a label hit leads to the labelled entry; nothing chosen leaves everything as it was', async () => {
    const api = await activateArbor();
    const outcome = await vscode.commands.executeCommand<SearchSessionsOutcome>(SEARCH_COMMAND, {
      query: 'capuchin',
      choose: (hits: readonly SessionSearchHit[]) => hits[0],
    });
    assert.ok(outcome.status === 'picked');
    assert.deepEqual([outcome.hit.kind, outcome.hit.entryId, outcome.open.status], ['label', 'b1', 'revealed']);
    assert.equal(api.app.currentStore?.file, files.beta);
    const before = api.app.currentStore?.file;
    const none = await vscode.commands.executeCommand<SearchSessionsOutcome>(SEARCH_COMMAND, { query: 'no-such-word-anywhere', choose: () => undefined });
    assert.equal(none.status, 'dismissed');
    assert.equal(api.app.currentStore?.file, before);
  });
});

/** A QuickPick that records what the command does with it; the test types and accepts. */
class RecordedPicker {
  title: string | undefined;
  placeholder: string | undefined;
  matchOnDescription = true;
  matchOnDetail = true;
  keepScrollPosition = false;
  sortByLabel = true;
  value = '';
  activeItems: SearchPickItem[] = [];
  selectedItems: SearchPickItem[] = [];
  shown = false;
  disposed = false;
  busyLog: boolean[] = [];
  itemsLog: SearchPickItem[][] = [];
  private currentItems: SearchPickItem[] = [];
  private currentBusy = false;
  private readonly changeValue = new vscode.EventEmitter<string>();
  private readonly accept = new vscode.EventEmitter<void>();
  private readonly hidden = new vscode.EventEmitter<void>();
  readonly onDidChangeValue = this.changeValue.event;
  readonly onDidAccept = this.accept.event;
  readonly onDidHide = this.hidden.event;

  get items(): SearchPickItem[] {
    return this.currentItems;
  }
  set items(items: SearchPickItem[]) {
    this.currentItems = items;
    this.itemsLog.push(items);
  }
  get busy(): boolean {
    return this.currentBusy;
  }
  set busy(busy: boolean) {
    this.currentBusy = busy;
    this.busyLog.push(busy);
  }
  show(): void {
    this.shown = true;
  }
  hide(): void {
    if (!this.shown) return;
    this.shown = false;
    this.hidden.fire();
  }
  dispose(): void {
    this.disposed = true;
  }
  type(value: string): void {
    this.value = value;
    this.changeValue.fire(value);
  }
  pick(item: SearchPickItem): void {
    this.activeItems = [item];
    this.selectedItems = [item];
    this.accept.fire();
  }
}

function recordPickers(): { pickers: RecordedPicker[]; restore(): void } {
  const window = vscode.window as unknown as Record<string, unknown>;
  const original = window.createQuickPick;
  const pickers: RecordedPicker[] = [];
  window.createQuickPick = () => {
    const picker = new RecordedPicker();
    pickers.push(picker);
    return picker;
  };
  return { pickers, restore: () => void (window.createQuickPick = original) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

suite('Search Sessions picker (recorded QuickPick, fake app)', () => {
  let dir: string;
  let sessions: SessionSummary[];

  suiteSetup(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-search-picker-'));
    seed(dir);
    writeSession(dir, 'gamma', [userEntry('g1', null, 'Rendering $(rocket) in a label')], 1_700_000_050);
    sessions = (await listSessions(dir)).sessions;
  });
  suiteTeardown(() => rmSync(dir, { recursive: true, force: true }));

  test('searches once typing pauses; a superseded search never touches the list; items keep our order and shape', async () => {
    const app = new FakeApp(undefined);
    let release!: (value: SessionSummary[]) => void;
    let listings = 0;
    app.session.listSessions = () => {
      listings++;
      return new Promise<SessionSummary[]>((resolve) => (release = resolve));
    };
    const deps = depsFor(app);
    const recorded = recordPickers();
    const ui = stubWindow();
    try {
      const done = showSearchPicker(deps);
      const picker = recorded.pickers[0]!;
      assert.ok(picker.shown);
      assert.equal(picker.matchOnDescription, false);
      assert.equal(picker.matchOnDetail, false);
      assert.equal(picker.sortByLabel, false, 'VS Code must not re-sort the hits');
      assert.equal(picker.keepScrollPosition, true);
      // Quick typing: only the last value is searched.
      picker.type('m');
      picker.type('ma');
      picker.type('marmoset');
      await sleep(SEARCH_DEBOUNCE_MS + 100);
      assert.equal(picker.busy, true, 'busy while the search waits for the listing');
      // A new query while that search is pending: it is cancelled and must not write its result.
      picker.type('tamarin');
      await sleep(SEARCH_DEBOUNCE_MS + 100);
      release(sessions);
      await waitFor('the search to finish', () => picker.busyLog.length > 0 && !picker.busy, 5000);
      assert.equal(listings, 1, 'the sessions are listed once per picker');
      const searches = deps.log.lines.filter((l) => /search: \d+ hit/.test(l));
      assert.equal(searches.length, 1, `one search ran to the end: ${JSON.stringify(deps.log.lines)}`);
      for (const items of picker.itemsLog) {
        for (const item of items) assert.doesNotMatch(item.label, /marmoset/i, 'nothing of the superseded search');
      }
      const items = picker.items;
      assert.deepEqual(
        items.map((i) => i.hit?.entryId),
        ['b1', 'b2', 'u3', 'a3'],
        'newest session first, entries in file order',
      );
      const first = items[0]!;
      assert.equal(first.label, '$(account) Tell me about the tamarin in Brazil');
      assert.equal(first.description, 'Tell me about the tamarin in Brazil');
      assert.match(first.detail ?? '', /^You · /);
      assert.ok(items.every((i) => i.alwaysShow === true), 'every item is shown whatever VS Code thinks of the filter');
      assert.match(items[3]!.label, /^\$\(hubot\) /);

      // "No matches" when done with none; an empty query clears the list.
      picker.type('zzz-no-such-word');
      await sleep(SEARCH_DEBOUNCE_MS + 50);
      await waitFor('the empty search', () => !picker.busy && picker.items.length === 1, 5000);
      const noMatches = picker.items[0]!;
      assert.match(noMatches.label, /No matches/);
      assert.equal(noMatches.hit, undefined);
      picker.pick(noMatches);
      assert.equal(picker.shown, true, 'picking the "No matches" row does nothing');
      picker.type('   ');
      await sleep(SEARCH_DEBOUNCE_MS + 50);
      assert.equal(picker.items.length, 0, 'an empty query clears the list');
      assert.equal(picker.busy, false);

      // Icon syntax in a snippet is shown as text.
      picker.type('rocket');
      await waitFor('the rocket hit', () => !picker.busy && picker.items.length === 1 && picker.items[0]!.hit !== undefined, 5000);
      assert.equal(picker.items[0]!.label, '$(account) Rendering \\$(rocket) in a label');

      picker.hide();
      assert.deepEqual(await done, { status: 'dismissed' });
      assert.ok(picker.disposed);
    } finally {
      ui.restore();
      recorded.restore();
    }
  });

  test('picking hits: off the active path opens the session and offers Switch Here; on it reveals in the chat', async () => {
    const app = new FakeApp(undefined);
    app.sessionList = sessions;
    const deps = depsFor(app);
    const recorded = recordPickers();
    const ui = stubWindow();
    try {
      const offPath = showSearchPicker(deps, 'marmoset gum');
      let picker = recorded.pickers[0]!;
      assert.equal(picker.value, 'marmoset gum', 'the query argument prefills the picker');
      await waitFor('the prefilled search', () => picker.items.some((i) => i.hit), 5000);
      picker.pick(picker.items.find((i) => i.hit?.entryId === 'a2')!);
      const first = await offPath;
      assert.ok(first.status === 'picked');
      assert.equal(first.open.status, 'offered');
      assert.deepEqual(app.called('openSession').map((c) => c.args[0]), [first.hit.file]);
      assert.deepEqual(app.called('revealInChat'), []);
      await first.open.offer;
      assert.ok(ui.messages.some((m) => m.level === 'info' && /another branch/.test(m.text)));
      assert.ok(picker.disposed);

      const onPath = showSearchPicker(deps, 'fruit');
      picker = recorded.pickers[1]!;
      await waitFor('the second search', () => picker.items.some((i) => i.hit), 5000);
      picker.pick(picker.items[0]!);
      const second = await onPath;
      assert.ok(second.status === 'picked');
      assert.equal(second.open.status, 'revealed');
      assert.deepEqual(app.called('openSession').length, 1, 'the session was already open');
      assert.deepEqual(app.called('revealInChat').map((c) => c.args[0]), ['a3']);
    } finally {
      ui.restore();
      recorded.restore();
    }
  });
});
