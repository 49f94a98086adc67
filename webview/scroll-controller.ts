// Where the conversation is scrolled, as one state machine apart from the DOM: it follows the end while a
// reply streams unless the user scrolled up, shows "Jump to latest" while they are away from the end, puts
// the row the user was reading back in place when the webview is re-created (loading earlier pages for it),
// reveals an entry the Session Tree asks for, and, after a switch made on a message, the alternative
// switched to. The page (render/app.ts) feeds it store changes; it drives the list through ScrollView.
import { CONVERSATION_PAGE, LIMITS, type TreeNode, type WebviewToHostMessage } from '../src/protocol';
import type { PageRequest } from './conversation-pages';
import { t } from './l10n';
import type { PersistedUi } from './persist';
import { NEVER_SHOWN, nearTopPage, restoreStep, type ScrollAnchor } from './scroll-anchor';

/** A page request whose answer has not come by then is given up (the host refuses stale ones silently). */
export const PAGE_TIMEOUT_MS = 15_000;

/** Farther than this from the bottom (px) counts as scrolled up: "Jump to latest" shows. */
export const JUMP_SLACK_PX = 48;

export interface ScrollMetrics {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/** Whether "Jump to latest" shows: the user is scrolled up from the end by more than the slack. */
export function awayFromEnd(scroller: ScrollMetrics): boolean {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight > JUMP_SLACK_PX;
}

/** While a reply streams (or notices arrive), the view stays at the end unless the user scrolled up. */
export function followOutput(list: { readonly atBottom: boolean }, scroller: ScrollMetrics): void {
  if (list.atBottom) scroller.scrollTop = scroller.scrollHeight;
}

/** The conversation list as the controller drives it (render/conversation.ts). */
export interface ScrollView {
  scroller: ScrollMetrics & { dataset: Record<string, string | undefined> };
  list: { atBottom: boolean; scrollToBottom(): void };
  /** scrolls to a loaded entry and highlights it; false when it is not loaded */
  reveal(entryId: string): boolean;
  restore(anchor: ScrollAnchor): void;
  /** the row at the top of the viewport and its offset */
  anchor(): ScrollAnchor | undefined;
  renderConversation(): void;
}

/** What the controller reads of the store (webview/store.ts). */
export interface ScrollStore {
  readonly items: readonly { entryId: string }[];
  readonly hasEarlier: boolean;
  readonly hasConversation: boolean;
  readonly loadingEarlier: unknown;
  readonly treeReceived: boolean;
  readonly tree: readonly TreeNode[];
  readonly snapshots: number;
  readonly leafId: string | null;
  requestEarlier(count: number): PageRequest | undefined;
  abandonEarlier(request: PageRequest): boolean;
  addNotice(level: 'info' | 'warning', text: string): void;
}

export interface ScrollDeps {
  store: ScrollStore;
  view: ScrollView;
  post(message: Extract<WebviewToHostMessage, { type: 'loadEarlier' }>): void;
  /** the position saved before the webview was re-created */
  persisted: Pick<PersistedUi, 'atBottom' | 'anchor'>;
  setTimer?: (run: () => void, ms: number) => void;
}

/**
 * Scrolling that waits for its entry to be loaded: a Session Tree reveal (which then highlights it), or the
 * scroll position saved before the webview was re-created (which then puts the same row at the same spot).
 */
type PendingScroll = { kind: 'reveal'; entryId: string } | { kind: 'restore'; anchor: ScrollAnchor };

export interface ScrollController {
  /** the list came near its top: load the page before it (unless a reveal or restore is loading pages) */
  nearTop(): void;
  /** asks the host for `count` items before the loaded ones */
  loadEarlier(count: number): void;
  /** the Session Tree selected an entry */
  revealEntry(entryId: string): void;
  /** a switch made on a message is about to move the leaf: show `entryId` once it has */
  revealAfterSwitch(entryId: string): void;
  /** the switch failed or was cancelled: nothing to reveal */
  switchEnded(): void;
  /** a new conversation snapshot (the leaf moved, a session opened, an append): render it and scroll */
  conversationChanged(): void;
  /** an earlier page arrived (or was given up) */
  earlierChanged(): void;
  /** the tree arrived or changed: a restore may have waited for it */
  treeChanged(): void;
  /** where the user is, as saved: the anchor still to be restored, else the live position while laid out */
  position(): Pick<PersistedUi, 'atBottom' | 'anchor'>;
}

export function createScrollController(deps: ScrollDeps): ScrollController {
  const { store, view, persisted } = deps;
  const setTimer = deps.setTimer ?? ((run, ms) => void setTimeout(run, ms));
  /** the first snapshot with items was shown (before it, the list's position is not the user's yet) */
  let restoredScroll = false;
  /** a reveal or restore waiting for its entry: before the first snapshot (or tree), or while earlier pages load */
  let pending: PendingScroll | undefined;
  /** the scroll position last seen laid out (a hidden view has no size and no rows to tell it) */
  let position: Pick<PersistedUi, 'atBottom' | 'anchor'> = !persisted.atBottom && persisted.anchor ? { atBottom: false, anchor: persisted.anchor } : { atBottom: true };
  /** the snapshot and leaf the list shows (tells a branch/session switch from an append or a label) */
  let shownSnapshot = 0;
  let shownLeaf: string | null = null;
  /** after a switch made on a message, the alternative switched to is scrolled to once the leaf moved */
  let afterSwitch: { entryId: string; fromLeaf: string | null } | undefined;

  function loadEarlier(count: number): void {
    const request = store.requestEarlier(count);
    if (!request) return;
    deps.post({ type: 'loadEarlier', ...request });
    setTimer(() => {
      if (!store.abandonEarlier(request) || !pending) return;
      const gaveUp = pending;
      pending = undefined;
      // a restore leaves the view where it is (the end of the path); a reveal the user asked for says why
      if (gaveUp.kind === 'reveal') store.addNotice('warning', t('The earlier messages did not load, so that entry cannot be shown yet. Try again.'));
      else view.scroller.dataset.restored = 'gave-up';
    }, PAGE_TIMEOUT_MS);
  }

  /** Whether `entryId` may be a shown entry on the active path, as far as the tree tells. */
  function mayBeShownOnPath(entryId: string): boolean {
    const node = store.tree.find((n) => n.id === entryId);
    return !node || (node.onActivePath && !NEVER_SHOWN.has(node.kind));
  }

  /** Scrolls to the entry when it is loaded; otherwise loads earlier pages (largest allowed) until it is. */
  function revealOrLoad(entryId: string): void {
    pending = undefined;
    if (view.reveal(entryId)) return;
    if (store.hasEarlier && mayBeShownOnPath(entryId)) {
      pending = { kind: 'reveal', entryId };
      // with a request in flight already, its answer continues this reveal (earlierChanged)
      loadEarlier(LIMITS.page);
      return;
    }
    store.addNotice('info', t('That entry is not on the active path shown here. Use Switch Here in the Session Tree (or click it in the conversation tree) to continue from it.'));
  }

  /**
   * Puts the saved anchor's row back at its place when it is loaded; loads earlier pages while it is on the
   * active path before them (as a reveal does); waits for the tree when only it can tell; otherwise (the
   * path changed while the view was gone) shows the end of the path.
   */
  function restoreOrLoad(anchor: ScrollAnchor): void {
    pending = undefined;
    const step = restoreStep(anchor, {
      isLoaded: (id) => store.items.some((item) => item.entryId === id),
      hasEarlier: store.hasEarlier,
      treeReceived: store.treeReceived,
      node: (id) => store.tree.find((n) => n.id === id),
    });
    if (step === 'restore') {
      view.restore(anchor);
      view.scroller.dataset.restored = anchor.entryId;
    } else if (step === 'bottom') {
      view.list.scrollToBottom();
      view.scroller.dataset.restored = 'bottom';
    } else {
      pending = { kind: 'restore', anchor };
      if (step === 'load') loadEarlier(LIMITS.page);
    }
  }

  function continuePending(): void {
    if (!pending) return;
    if (pending.kind === 'reveal') revealOrLoad(pending.entryId);
    else restoreOrLoad(pending.anchor);
  }

  /** Scrolls to the alternative a switch on a message went to, once the new path is shown. */
  function revealSwitched(): void {
    if (!afterSwitch || store.leafId === afterSwitch.fromLeaf) return;
    const { entryId } = afterSwitch;
    afterSwitch = undefined;
    view.reveal(entryId);
  }

  return {
    nearTop() {
      const count = nearTopPage(pending !== undefined, CONVERSATION_PAGE);
      if (count) loadEarlier(count);
    },
    loadEarlier,
    revealEntry(entryId) {
      if (!store.hasConversation) pending = { kind: 'reveal', entryId };
      else revealOrLoad(entryId);
    },
    revealAfterSwitch(entryId) {
      afterSwitch = { entryId, fromLeaf: store.leafId };
    },
    switchEnded() {
      afterSwitch = undefined;
    },
    conversationChanged() {
      // A new snapshot with another leaf (a branch switch, or another session) shows the new position,
      // which is the end of the path (a restore still waiting is dropped); a snapshot with the same leaf
      // keeps the scroll.
      if (restoredScroll && store.snapshots !== shownSnapshot && store.leafId !== shownLeaf) {
        view.list.atBottom = true;
        if (pending?.kind === 'restore') pending = undefined;
      }
      shownSnapshot = store.snapshots;
      shownLeaf = store.leafId;
      // The tail shows from its end; a saved anchor (the view was re-created) then moves to its row.
      view.renderConversation();
      revealSwitched();
      const first = !restoredScroll && store.items.length > 0;
      if (first) restoredScroll = true;
      // a reveal asked for before the first snapshot wins over the saved position
      if (first && !pending && !persisted.atBottom && persisted.anchor) restoreOrLoad(persisted.anchor);
      else continuePending();
    },
    earlierChanged() {
      if (!store.loadingEarlier) continuePending();
    },
    treeChanged() {
      // a restore waiting for the tree to tell whether its entry is on the active path
      if (pending?.kind === 'restore' && !store.loadingEarlier) continuePending();
    },
    position() {
      if (pending?.kind === 'restore') return { atBottom: false, anchor: pending.anchor };
      // Before the first snapshot is shown, the list's position is not the user's yet.
      if (!restoredScroll || view.scroller.clientHeight === 0) return position;
      const anchor = view.list.atBottom ? undefined : view.anchor();
      position = anchor ? { atBottom: false, anchor } : { atBottom: true };
      return position;
    },
  };
}
