// The Session Tree provider on generated sessions: flat runs, branch points, compaction and branch
// summary nodes, active path and leaf decoration, labels, incremental refresh, a 35,000-entry session.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SessionTreeProvider } from '../../src/vscode/tree/session-tree-provider';
import {
  FakeApp,
  assistantEntry,
  branchSummaryEntry,
  labelEntry,
  sessionFrom,
  twoBranchEntries,
  userEntry,
} from './surfaces-fixtures';

function iconOf(item: vscode.TreeItem): string {
  return (item.iconPath as vscode.ThemeIcon).id;
}

async function providerFor(entries: Record<string, unknown>[], leafId?: string | null) {
  const app = new FakeApp(await sessionFrom(entries, undefined, leafId));
  const provider = new SessionTreeProvider(app);
  return { app, provider, store: app.store! };
}

suite('surfaces: Session Tree', () => {
  test('no session: no nodes (the welcome content shows)', () => {
    const provider = new SessionTreeProvider(new FakeApp(undefined));
    try {
      assert.deepEqual(provider.getChildren(), []);
    } finally {
      provider.dispose();
    }
  });

  test('a linear conversation is one flat list with the leaf marked current', async () => {
    const { provider } = await providerFor([
      userEntry('u1', null, 'Hello there\nmore'),
      assistantEntry('a1', 'u1', 'Hi!'),
      userEntry('u2', 'a1', 'Next'),
      assistantEntry('a2', 'u2', 'Done'),
    ]);
    try {
      assert.deepEqual(provider.getChildren(), ['u1', 'a1', 'u2', 'a2']);
      for (const id of ['u1', 'a1', 'u2', 'a2']) {
        assert.equal(provider.getTreeItem(id).collapsibleState, vscode.TreeItemCollapsibleState.None, id);
        assert.equal(provider.getParent(id), undefined, id);
      }
      const first = provider.getTreeItem('u1');
      assert.equal(first.label, 'Hello there', 'user messages show their first line');
      assert.equal(iconOf(first), 'account');
      assert.equal(iconOf(provider.getTreeItem('a1')), 'hubot');
      const leaf = provider.getTreeItem('a2');
      assert.match(String(leaf.description), /● current/);
      assert.match(String(leaf.contextValue), /\bcurrent\b/);
      assert.doesNotMatch(String(first.description), /current/);
      assert.deepEqual(first.command?.arguments, ['u1'], 'selecting a node reveals it in the chat');
      assert.equal(first.command?.command, 'arbor.revealInChat');
    } finally {
      provider.dispose();
    }
  });

  test('branch points are collapsible, each branch nests below them; the active path is expanded', async () => {
    const { provider } = await providerFor(twoBranchEntries());
    try {
      assert.deepEqual(provider.getChildren(), ['u1', 'a1']);
      const point = provider.getTreeItem('a1');
      assert.equal(point.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'branch point on the active path');
      assert.match(String(point.description), /2 branches/);
      assert.deepEqual(provider.getChildren('a1'), ['u2', 'u3']);
      assert.equal(provider.getTreeItem('u2').collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'other branch collapsed');
      assert.equal(provider.getTreeItem('u3').collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'current branch expanded');
      assert.deepEqual(provider.getChildren('u2'), ['a2']);
      assert.deepEqual(provider.getChildren('u3'), ['a3', 'c1', 'u4'], 'the run below a head is flat');
      assert.equal(provider.getParent('u4'), 'u3');
      assert.equal(provider.getParent('u3'), 'a1');
      assert.equal(provider.getParent('a2'), 'u2');
      assert.match(String(provider.getTreeItem('a2').contextValue), /offPath/);
      assert.match(String(provider.getTreeItem('a3').contextValue), /onPath/);
      const compaction = provider.getTreeItem('c1');
      assert.equal(iconOf(compaction), 'fold');
      assert.match(String(compaction.label), /Compaction summary/);
    } finally {
      provider.dispose();
    }
  });

  test('branch summaries have their own icon; labels appear as descriptions', async () => {
    const entries = [...twoBranchEntries(), branchSummaryEntry('b1', 'u4', 'a2'), labelEntry('l1', 'b1', 'u3', 'plan B')];
    const { provider } = await providerFor(entries);
    try {
      assert.equal(iconOf(provider.getTreeItem('b1')), 'git-merge');
      assert.match(String(provider.getTreeItem('u3').description), /plan B/);
      assert.equal(iconOf(provider.getTreeItem('l1')), 'tag');
    } finally {
      provider.dispose();
    }
  });

  test('appends refresh only the display node they change', async () => {
    const { provider, store } = await providerFor(twoBranchEntries());
    try {
      provider.getChildren();
      provider.getChildren('a1');
      provider.getChildren('u3');
      provider.refreshLog.length = 0;
      // Growing the current (nested) branch refreshes its head only.
      const added = await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'ok' }], api: 'x', provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: Date.now() });
      assert.ok(!provider.refreshLog.includes(undefined), `no whole-tree refresh: ${JSON.stringify(provider.refreshLog)}`);
      assert.ok(provider.refreshLog.includes('u3'), 'the branch head was refreshed');
      assert.deepEqual(provider.getChildren('u3'), ['a3', 'c1', 'u4', added.id]);
      assert.match(String(provider.getTreeItem(added.id).description), /current/);

      // A new branch in the middle of the run: the run is cut at a3, which becomes a branch point.
      provider.refreshLog.length = 0;
      store.branch('a3');
      await store.appendMessage({ role: 'user', content: 'Alternative after a3', timestamp: Date.now() });
      assert.ok(!provider.refreshLog.includes(undefined), `no whole-tree refresh: ${JSON.stringify(provider.refreshLog)}`);
      assert.ok(provider.refreshLog.includes('u3') && provider.refreshLog.includes('a3'));
      assert.deepEqual(provider.getChildren('u3'), ['a3']);
      assert.equal(provider.getChildren('a3').length, 2);
      assert.equal(provider.getChildren('a3')[0], 'c1');
      assert.deepEqual(provider.getChildren('c1'), ['u4', added.id], 'the former only child heads its own run now');
      assert.equal(provider.getParent(added.id), 'c1');

      // A label refreshes its target.
      provider.refreshLog.length = 0;
      await store.appendLabelChange('u2', 'approach A');
      assert.ok(provider.refreshLog.includes('u2'));
      assert.match(String(provider.getTreeItem('u2').description), /approach A/);
    } finally {
      provider.dispose();
    }
  });

  test('a leaf move (navigation) refreshes the decorations', async () => {
    const { app, provider } = await providerFor(twoBranchEntries());
    try {
      assert.match(String(provider.getTreeItem('a2').contextValue), /offPath/);
      await app.tree.navigate('a2', {});
      assert.match(String(provider.getTreeItem('a2').contextValue), /\bcurrent\b/);
      assert.match(String(provider.getTreeItem('u4').contextValue), /offPath/);
      assert.equal(provider.refreshLog[provider.refreshLog.length - 1], undefined);
    } finally {
      provider.dispose();
    }
  });

  test('another session replaces the tree', async () => {
    const { app, provider } = await providerFor(twoBranchEntries());
    try {
      const other = await sessionFrom([userEntry('x1', null, 'Other session')]);
      await app.openSession(other.file);
      assert.deepEqual(provider.getChildren(), ['x1']);
    } finally {
      provider.dispose();
    }
  });

  test('a 35,000-entry session stays one flat, cached list (no deep nesting, no recursion)', async () => {
    const entries: Record<string, unknown>[] = [];
    let parent: string | null = null;
    for (let i = 0; i < 35_000; i++) {
      const id = `e${i}`;
      entries.push(i % 2 === 0 ? userEntry(id, parent, `question ${i}`) : assistantEntry(id, parent, `answer ${i}`));
      parent = id;
    }
    entries.push(userEntry('side', 'e100', 'a side branch'));
    const { provider } = await providerFor(entries, 'e34999');
    try {
      const top = provider.getChildren();
      assert.equal(top.length, 101, 'the run from the root ends at the branch point e100');
      assert.equal(provider.getChildren(), top, 'the top level is cached');
      assert.deepEqual(provider.getChildren('e100'), ['e101', 'side']);
      const run = provider.getChildren('e101');
      assert.equal(run.length, 34_898, 'e102…e34999: the head e101 itself shows at the branch level');
      assert.equal(run[0], 'e102');
      assert.equal(run[run.length - 1], 'e34999');
      assert.equal(provider.getParent('e34999'), 'e101');
      assert.match(String(provider.getTreeItem('e34999').description), /current/);
    } finally {
      provider.dispose();
    }
  });
});
