// The conversation's scroll state machine (webview/scroll-controller.ts) against a fake scroll container, a
// fake list and a fake store: following the end while a reply streams unless the user scrolled up, when
// "Jump to latest" shows, putting the saved row back after the view is re-created (loading earlier pages for
// it), revealing an entry for the Session Tree, and the alternative reached by a switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONVERSATION_PAGE, LIMITS, type TreeNode } from '../../../src/protocol';
import type { PageRequest } from '../../../webview/conversation-pages';
import { awayFromEnd, createScrollController, followOutput, JUMP_SLACK_PX, PAGE_TIMEOUT_MS, type ScrollView } from '../../../webview/scroll-controller';
import type { ScrollAnchor } from '../../../webview/scroll-anchor';

/** A scroll container: 10,000 px of content in a 500 px viewport, scrolled to the end. */
function fakeScroller() {
  return { scrollTop: 9500, scrollHeight: 10_000, clientHeight: 500, dataset: {} as Record<string, string | undefined> };
}

function node(id: string, onActivePath = true, kind: TreeNode['kind'] = 'user'): TreeNode {
  return { id, parentId: null, kind, preview: id, onActivePath, isLeaf: false, childCount: 0, depth: 0 } as unknown as TreeNode;
}

class FakeStore {
  items: { entryId: string }[] = [];
  hasEarlier = false;
  hasConversation = false;
  loadingEarlier: PageRequest | undefined;
  treeReceived = false;
  tree: TreeNode[] = [];
  snapshots = 0;
  leafId: string | null = null;
  notices: string[] = [];
  requests: PageRequest[] = [];
  private seq = 0;
  requestEarlier(count: number): PageRequest | undefined {
    if (this.loadingEarlier || !this.hasEarlier) return undefined;
    this.loadingEarlier = { seq: ++this.seq, leafId: this.leafId ?? '', beforeId: this.items[0]?.entryId ?? '', count };
    this.requests.push(this.loadingEarlier);
    return this.loadingEarlier;
  }
  abandonEarlier(request: PageRequest): boolean {
    if (this.loadingEarlier !== request) return false;
    this.loadingEarlier = undefined;
    return true;
  }
  addNotice(level: string, text: string): void {
    this.notices.push(`${level}: ${text}`);
  }
  /** a snapshot of the path's tail arrives */
  snapshot(leafId: string, ids: string[], hasEarlier: boolean): void {
    this.items = ids.map((entryId) => ({ entryId }));
    this.leafId = leafId;
    this.hasEarlier = hasEarlier;
    this.hasConversation = true;
    this.snapshots++;
  }
  /** the page asked for arrives with `ids` before the loaded items */
  page(ids: string[], hasEarlier: boolean): void {
    this.items = [...ids.map((entryId) => ({ entryId })), ...this.items];
    this.hasEarlier = hasEarlier;
    this.loadingEarlier = undefined;
  }
}

function setup(persisted: { atBottom: boolean; anchor?: ScrollAnchor } = { atBottom: true }) {
  const store = new FakeStore();
  const scroller = fakeScroller();
  const calls: string[] = [];
  const timers: (() => void)[] = [];
  let top: ScrollAnchor | undefined;
  const list = {
    atBottom: true,
    scrollToBottom() {
      list.atBottom = true;
      scroller.scrollTop = scroller.scrollHeight - scroller.clientHeight;
    },
  };
  const view: ScrollView = {
    scroller,
    list,
    reveal: (id) => {
      if (!store.items.some((i) => i.entryId === id)) return false;
      calls.push(`reveal ${id}`);
      list.atBottom = false;
      return true;
    },
    restore: (anchor) => {
      calls.push(`restore ${anchor.entryId}@${anchor.offset}`);
      list.atBottom = false;
      top = anchor;
    },
    anchor: () => top,
    renderConversation: () => calls.push('render'),
  };
  const posted: unknown[] = [];
  const scroll = createScrollController({
    store,
    view,
    post: (m) => posted.push(m),
    persisted,
    setTimer: (run, ms) => {
      assert.equal(ms, PAGE_TIMEOUT_MS);
      timers.push(run);
    },
  });
  return { store, scroller, list, view, calls, posted, timers, scroll, setTop: (a: ScrollAnchor | undefined) => (top = a) };
}

test('a streaming reply keeps the view at the end, unless the user scrolled up', () => {
  const scroller = fakeScroller();
  const list = { atBottom: true };
  scroller.scrollHeight = 10_400; // the reply grew
  followOutput(list, scroller);
  assert.equal(scroller.scrollTop, 10_400, 'followed the end');
  list.atBottom = false; // the user scrolled up to read
  scroller.scrollTop = 3000;
  scroller.scrollHeight = 10_800;
  followOutput(list, scroller);
  assert.equal(scroller.scrollTop, 3000, 'left where the user reads');
});

test('"Jump to latest" shows only when the user is more than the slack away from the end', () => {
  const scroller = fakeScroller();
  assert.equal(awayFromEnd(scroller), false, 'at the end');
  scroller.scrollTop = 9500 - JUMP_SLACK_PX;
  assert.equal(awayFromEnd(scroller), false, 'within the slack');
  scroller.scrollTop = 9500 - JUMP_SLACK_PX - 1;
  assert.equal(awayFromEnd(scroller), true, 'scrolled up');
});

test('re-created view: the saved row is put back once the first snapshot shows it', () => {
  const anchor = { entryId: 'm7', offset: -12 };
  const { store, calls, scroll, scroller, setTop } = setup({ atBottom: false, anchor });
  assert.deepEqual(scroll.position(), { atBottom: false, anchor }, 'before anything is shown, the saved position is kept');
  store.snapshot('m9', ['m5', 'm6', 'm7', 'm8', 'm9'], false);
  scroll.conversationChanged();
  assert.deepEqual(calls, ['render', 'restore m7@-12']);
  assert.equal(scroller.dataset.restored, 'm7');
  setTop({ entryId: 'm8', offset: -3 }); // the user scrolls on
  assert.deepEqual(scroll.position(), { atBottom: false, anchor: { entryId: 'm8', offset: -3 } }, 'the live position once laid out');
  // a re-render of the same leaf (an append, a label) keeps the scroll: nothing is restored again
  store.snapshots++;
  scroll.conversationChanged();
  assert.deepEqual(calls, ['render', 'restore m7@-12', 'render']);
});

test('re-created view: a saved row in an earlier page is loaded page by page, then put back', () => {
  const anchor = { entryId: 'm2', offset: 0 };
  const { store, calls, scroll, posted } = setup({ atBottom: false, anchor });
  store.snapshot('m9', ['m8', 'm9'], true);
  scroll.conversationChanged();
  assert.deepEqual(calls, ['render'], 'the tree has not said whether m2 is on the path yet: wait');
  store.treeReceived = true;
  store.tree = [node('m2'), node('m8'), node('m9')];
  scroll.treeChanged();
  assert.deepEqual(posted, [{ type: 'loadEarlier', seq: 1, leafId: 'm9', beforeId: 'm8', count: LIMITS.page }], 'the largest page');
  assert.deepEqual(scroll.position(), { atBottom: false, anchor }, 'saved meanwhile: the row still to restore');
  scroll.nearTop();
  assert.equal(posted.length, 1, 'no small page slipped in while loading towards the row');
  store.page(['m5', 'm6', 'm7'], true);
  scroll.earlierChanged();
  assert.equal(posted.length, 2, 'not there yet: the next page');
  store.page(['m1', 'm2', 'm3', 'm4'], false);
  scroll.earlierChanged();
  assert.deepEqual(calls, ['render', 'restore m2@0']);
});

test('re-created view: a saved row no longer on the path shows the end', () => {
  const { store, calls, scroll, scroller } = setup({ atBottom: false, anchor: { entryId: 'gone', offset: 0 } });
  store.snapshot('m9', ['m8', 'm9'], false);
  scroll.conversationChanged();
  assert.deepEqual(calls, ['render']);
  assert.equal(scroller.dataset.restored, 'bottom');
});

test('Session Tree reveal: a loaded entry at once, an earlier one after its pages, off-path ones with a notice', () => {
  const { store, calls, scroll, posted } = setup();
  store.snapshot('m9', ['m8', 'm9'], true);
  store.treeReceived = true;
  store.tree = [node('m1'), node('m8'), node('m9'), node('other', false), node('lbl', true, 'label')];
  scroll.conversationChanged();
  scroll.revealEntry('m9');
  assert.deepEqual(calls, ['render', 'reveal m9']);
  scroll.revealEntry('m1');
  assert.equal(posted.length, 1, 'm1 is on the path before the loaded items: a page is asked for');
  store.page(['m1', 'm2'], false);
  scroll.earlierChanged();
  assert.deepEqual(calls.at(-1), 'reveal m1');
  scroll.revealEntry('other');
  scroll.revealEntry('lbl');
  assert.equal(store.notices.length, 2);
  assert.match(store.notices[0]!, /^info: That entry is not on the active path/);
});

test('Session Tree reveal before the first snapshot waits for it and wins over the saved position', () => {
  const { store, calls, scroll } = setup({ atBottom: false, anchor: { entryId: 'm8', offset: 0 } });
  scroll.revealEntry('m9');
  assert.deepEqual(calls, []);
  store.snapshot('m9', ['m8', 'm9'], false);
  scroll.conversationChanged();
  assert.deepEqual(calls, ['render', 'reveal m9']);
});

test('a page that never comes: the reveal gives up with a warning, a restore quietly stays at the end', () => {
  const reveal = setup();
  reveal.store.snapshot('m9', ['m9'], true);
  reveal.scroll.conversationChanged();
  reveal.scroll.revealEntry('m1');
  assert.equal(reveal.timers.length, 1);
  reveal.timers[0]!();
  assert.match(reveal.store.notices[0]!, /^warning: The earlier messages did not load/);
  const restore = setup({ atBottom: false, anchor: { entryId: 'm1', offset: 0 } });
  restore.store.treeReceived = true;
  restore.store.tree = [node('m1'), node('m9')];
  restore.store.snapshot('m9', ['m9'], true);
  restore.scroll.conversationChanged();
  restore.timers[0]!();
  assert.equal(restore.scroller.dataset.restored, 'gave-up');
  assert.deepEqual(restore.store.notices, []);
});

test('a switch to another branch shows the end of the new path and drops a restore still waiting', () => {
  const { store, list, scroll } = setup({ atBottom: false, anchor: { entryId: 'm1', offset: 0 } });
  store.snapshot('m9', ['m8', 'm9'], true);
  scroll.conversationChanged(); // waits for the tree
  list.atBottom = false;
  store.snapshot('b3', ['b2', 'b3'], false);
  scroll.conversationChanged();
  assert.equal(list.atBottom, true, 'the new position is the end of the path');
  assert.deepEqual(scroll.position(), { atBottom: true }, 'nothing left to restore');
});

test('a switch made on a message reveals the alternative once the leaf moved; a failed one reveals nothing', () => {
  const { store, calls, scroll } = setup();
  store.snapshot('m9', ['m8', 'm9'], false);
  scroll.conversationChanged();
  scroll.revealAfterSwitch('alt2');
  store.snapshots++;
  scroll.conversationChanged();
  assert.deepEqual(calls, ['render', 'render'], 'same leaf: not yet');
  store.snapshot('alt2', ['m8', 'alt2'], false);
  scroll.conversationChanged();
  assert.deepEqual(calls.slice(-2), ['render', 'reveal alt2']);
  scroll.revealAfterSwitch('alt3');
  scroll.switchEnded();
  store.snapshot('alt3', ['m8', 'alt3'], false);
  scroll.conversationChanged();
  assert.deepEqual(calls.slice(-1), ['render'], 'the switch ended: nothing revealed');
});

test('near the top, the usual page is asked for', () => {
  const { store, scroll, posted } = setup();
  store.snapshot('m9', ['m9'], true);
  scroll.conversationChanged();
  scroll.nearTop();
  assert.deepEqual(posted, [{ type: 'loadEarlier', seq: 1, leafId: 'm9', beforeId: 'm9', count: CONVERSATION_PAGE }]);
});
