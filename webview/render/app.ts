// Composes the page from the render modules and wires store changes to the parts that show them.
import { CONVERSATION_PAGE, LIMITS, type DraftImage, type FilesPreviewMessage, type WebviewToHostMessage } from '../../src/protocol';
import { installActions } from '../actions';
import { installBranchActions, startEdit } from '../branch-actions';
import { SiblingIndex } from '../branch-siblings';
import { appendToDraft } from '../draft-text';
import { createSaver, type PersistedUi } from '../persist';
import { NEVER_SHOWN, nearTopPage, restoreStep, type ScrollAnchor } from '../scroll-anchor';
import type { ParsedInput } from '../slash';
import type { Store } from '../store';
import { createRestrictedBanner } from './banners';
import { decorateRow, navSignature, type RowExtras } from './branch-nav';
import { createComposer } from './composer';
import { createConversation } from './conversation';
import { createHeader } from './header';
import { createInstructionsLine } from './instructions-line';
import { createJumpToLatest } from './jump-latest';
import { installMentionCompletion } from './mention-complete';
import { imagesAllowed, installImageAttachments } from './image-attach';
import type { RenderContext } from './message';
import { createMeter } from './meter';
import { createSwitchFlow } from './switch-flow';
import { createTreePanel } from './tree';

export interface App {
  setDroppedCount(count: number): void;
  /** the input's new text (and chips: a queued prompt's images taken back) */
  /** `append`: after what is being written (Add to Chat), else in its place */
  setEditorText(text: string, images?: readonly DraftImage[], append?: boolean): void;
  /** the host's answer to the switch dialog's `previewFiles` */
  filesPreview(preview: FilesPreviewMessage): void;
  /** Session Tree selection: scroll to the entry (loading earlier pages until it is there), or say why it cannot be shown */
  revealEntry(entryId: string): void;
  command(command: 'focusInput' | 'toggleTree' | 'showTree' | 'openModelPicker' | 'compactDialog'): void;
}

/** A page request whose answer has not come by then is given up (the host refuses stale ones silently). */
const PAGE_TIMEOUT_MS = 15_000;
const NOT_ON_PATH = 'That entry is not on the active path shown here. Use Switch Here in the Session Tree (or click it in the conversation tree) to continue from it.';

/**
 * Scrolling that waits for its entry to be loaded: a Session Tree reveal (which then highlights it), or the
 * scroll position saved before the webview was re-created (which then puts the same row at the same spot).
 */
type PendingScroll = { kind: 'reveal'; entryId: string } | { kind: 'restore'; anchor: ScrollAnchor };

export function mountApp(
  container: HTMLElement,
  store: Store,
  post: (message: WebviewToHostMessage) => void,
  api: VsCodeWebviewApi,
  persisted: PersistedUi,
): App {
  const ctx: RenderContext = { store, open: new Set(), notes: new Map() };
  let treeOpen = persisted.treeOpen;
  let treeMode = persisted.treeMode;
  let restoredScroll = false;
  /** a reveal or restore waiting for its entry: before the first snapshot (or tree), or while earlier pages load */
  let pending: PendingScroll | undefined;
  /** the scroll position last seen laid out (a hidden view has no size and no rows to tell it) */
  let position: Pick<PersistedUi, 'atBottom' | 'anchor'> = !persisted.atBottom && persisted.anchor ? { atBottom: false, anchor: persisted.anchor } : { atBottom: true };
  /** the snapshot and leaf the list shows (tells a branch/session switch from an append or a label) */
  let shownSnapshot = 0;
  let shownLeaf: string | null = null;
  let saver: (() => void) | undefined;
  const save = () => saver?.();

  const header = createHeader({
    showSessionTree: () => post({ type: 'openTree' }),
    toggleTree: () => setTreeOpen(!treeOpen),
  });
  const instructionsLine = createInstructionsLine({
    openFile: (path) => post({ type: 'openInstructionFile', path }),
    showAll: () => post({ type: 'showInstructions' }),
  });
  const restricted = createRestrictedBanner();
  const meter = createMeter({ compactNow: () => post({ type: 'compact' }) });
  // the alternatives of each message, laid out once per tree change (O(session)) when a row asks
  let siblingIndex: SiblingIndex | undefined;
  const extras: RowExtras = { siblings: () => (siblingIndex ??= new SiblingIndex(store.tree)), editing: new Map() };
  /** each mounted row's switcher as last rendered, so a tree change re-renders only rows whose switcher changed */
  const navShown = new Map<string, string>();
  /** after a switch made on a message, the alternative switched to is scrolled to once the leaf moved */
  let revealAfterSwitch: { entryId: string; fromLeaf: string | null } | undefined;
  const conversation = createConversation(ctx, {
    nearTop: () => {
      const count = nearTopPage(pending !== undefined, CONVERSATION_PAGE);
      if (count) loadEarlier(count);
    },
    fill: (prompt) => {
      composer.setText(prompt);
      composer.focus();
    },
    decorate: (item, node) => {
      decorateRow(extras, item, node);
      navShown.set(item.entryId, navSignature(extras, item.entryId));
    },
  });

  /** Asks the host for the page before the loaded items, unless one is on its way or there is none. */
  function loadEarlier(count: number): void {
    const request = store.requestEarlier(count);
    if (!request) return;
    post({ type: 'loadEarlier', ...request });
    setTimeout(() => {
      if (!store.abandonEarlier(request) || !pending) return;
      const gaveUp = pending;
      pending = undefined;
      // a restore leaves the view where it is (the end of the path); a reveal the user asked for says why
      if (gaveUp.kind === 'reveal') store.addNotice('warning', 'The earlier messages did not load, so that entry cannot be shown yet. Try again.');
      else conversation.scroller.dataset.restored = 'gave-up';
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
    if (conversation.reveal(entryId)) return;
    if (store.hasEarlier && mayBeShownOnPath(entryId)) {
      pending = { kind: 'reveal', entryId };
      // with a request in flight already, its answer continues this reveal (the `earlier` update below)
      loadEarlier(LIMITS.page);
      return;
    }
    store.addNotice('info', NOT_ON_PATH);
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
    switch (step) {
      case 'restore':
        conversation.restore(anchor);
        conversation.scroller.dataset.restored = anchor.entryId;
        return;
      case 'load':
        pending = { kind: 'restore', anchor };
        loadEarlier(LIMITS.page);
        return;
      case 'wait':
        pending = { kind: 'restore', anchor };
        return;
      case 'bottom':
        conversation.list.scrollToBottom();
        conversation.scroller.dataset.restored = 'bottom';
        return;
    }
  }

  function continuePending(): void {
    if (!pending) return;
    if (pending.kind === 'reveal') revealOrLoad(pending.entryId);
    else restoreOrLoad(pending.anchor);
  }
  const { dialog, switchTo, treeActions } = createSwitchFlow(store, post);
  const composer = createComposer(
    {
      submit: (input: ParsedInput) => {
        switch (input.kind) {
          case 'prompt': {
            const images = attachments.take();
            post({ type: 'prompt', text: input.text, ...(images.length > 0 ? { images } : {}) });
            conversation.list.scrollToBottom();
            return;
          }
          case 'compact':
            post({ type: 'compact', ...(input.instructions ? { instructions: input.instructions } : {}) });
            return;
          case 'tree':
            setTreeOpen(!treeOpen);
            return;
          case 'new':
            post({ type: 'newSession' });
            return;
          case 'model':
            composer.openModelPicker();
            return;
        }
      },
      canSubmit: (input) => input.kind !== 'prompt' || imagesAllowed(store, attachments.count(), (text) => store.addNotice('warning', text)),
      stop: () => post({ type: 'stop' }),
      dequeue: (index) => post({ type: 'dequeue', index }),
      selectModel: (key) => post({ type: 'selectModel', key }),
      setApiKey: (provider) => post({ type: 'setApiKey', ...(provider ? { provider } : {}) }),
      setThinkingLevel: (level) => post({ type: 'setThinkingLevel', level }),
      typing: () => post({ type: 'userTyping' }),
      changed: () => save(),
      attachments: () => attachments.count(),
    },
    persisted.history,
  );
  installMentionCompletion(composer.input, composer.inputWrap, post, (text) => composer.setText(text));
  const attachments = installImageAttachments(composer.root, composer.input, post, (text) => store.addNotice('warning', text), () => composer.attachmentsChanged());
  composer.inputWrap.before(attachments.chips);
  composer.sendActions.prepend(attachments.button);
  composer.setText(persisted.input);

  const tree = createTreePanel(treeActions, treeMode, (mode) => {
    treeMode = mode;
    save();
  });

  /** Scrolls to the alternative a switch on a message went to, once the new path is shown. */
  function revealSwitched(): void {
    if (!revealAfterSwitch || store.leafId === revealAfterSwitch.fromLeaf) return;
    const { entryId } = revealAfterSwitch;
    revealAfterSwitch = undefined;
    conversation.reveal(entryId);
  }

  function setTreeOpen(open: boolean): void {
    treeOpen = open;
    tree.setOpen(open);
    header.setTreeOpen(open);
    container.dataset.treeOpen = String(open);
    save();
  }

  /** Where the user is, as saved: the anchor still to be restored, else the live position while laid out. */
  function scrollPosition(): Pick<PersistedUi, 'atBottom' | 'anchor'> {
    if (pending?.kind === 'restore') return { atBottom: false, anchor: pending.anchor };
    // Before the first snapshot is shown, the list's position is not the user's yet.
    if (!restoredScroll) return position;
    if (conversation.scroller.clientHeight === 0) return position;
    const anchor = conversation.list.atBottom ? undefined : conversation.anchor();
    position = anchor ? { atBottom: false, anchor } : { atBottom: true };
    return position;
  }

  saver = createSaver(
    api,
    () => ({
      input: composer.getText(),
      ...scrollPosition(),
      treeOpen,
      ...(treeMode ? { treeMode } : {}),
      history: persisted.history,
      // an editor tab is restored after a reload with the session it showed (src/vscode/chat-panels.ts)
      ...(store.state?.sessionFile ? { sessionFile: store.state.sessionFile } : {}),
    }),
    // tells tests (and anyone inspecting the DOM) which row the saved state names
    (ui) => {
      conversation.scroller.dataset.savedAnchor = ui.anchor ? `${ui.anchor.entryId}@${ui.anchor.offset}` : 'bottom';
    },
  );
  conversation.scroller.addEventListener('scroll', save, { passive: true });
  const jumpToLatest = createJumpToLatest(conversation.scroller, () => conversation.list.scrollToBottom());

  installActions(container, {
    store,
    post,
    loadEarlier: () => loadEarlier(CONVERSATION_PAGE),
    open: ctx.open,
    notes: ctx.notes!,
    rerender: (entryId) => conversation.rerenderEntry(entryId),
    startEdit: (id) => startEdit(branchDeps, container, id),
    dismissNotice: (id) => store.dismissNotice(id),
  });
  const branchDeps = {
    ...extras,
    store,
    post,
    rerender: (entryId: string) => conversation.rerenderEntry(entryId),
    switchTo: (targetId: string, preview: string, isUser: boolean, revealAfter: string) => {
      revealAfterSwitch = { entryId: revealAfter, fromLeaf: store.leafId };
      switchTo(targetId, preview, isUser);
    },
  };
  installBranchActions(container, branchDeps);

  container.replaceChildren(header.root, instructionsLine.root, restricted.root, meter.meter, meter.banner, tree.root, conversation.root, jumpToLatest.root, composer.root, dialog.root);
  container.dataset.status = 'connecting';
  setTreeOpen(treeOpen);

  store.subscribe((parts) => {
    const started = performance.now();
    if (parts.has('state')) {
      header.update(store.state);
      instructionsLine.update(store.state);
      restricted.update(store.state);
      meter.update(store.state);
      composer.update(store.state);
      container.dataset.busy = String(store.busy);
      container.dataset.status = 'ready';
      save();
    }
    if (parts.has('conversation')) {
      // A new snapshot with another leaf (a branch switch, or another session) shows the new position,
      // which is the end of the path (a restore still waiting is dropped); a snapshot with the same leaf
      // keeps the scroll.
      if (restoredScroll && store.snapshots !== shownSnapshot && store.leafId !== shownLeaf) {
        conversation.list.atBottom = true;
        if (pending?.kind === 'restore') pending = undefined;
      }
      shownSnapshot = store.snapshots;
      shownLeaf = store.leafId;
      // The tail shows from its end; a saved anchor (the view was re-created) then moves to its row.
      conversation.renderConversation();
      revealSwitched();
      const first = !restoredScroll && store.items.length > 0;
      if (first) restoredScroll = true;
      // a reveal asked for before the first snapshot wins over the saved position
      if (first && !pending && !persisted.atBottom && persisted.anchor) restoreOrLoad(persisted.anchor);
      else continuePending();
      container.dataset.leaf = store.leafId ?? '';
      conversation.checkNearTop();
    }
    if (parts.has('earlier')) {
      conversation.renderEarlier();
      if (!store.loadingEarlier) continuePending();
      // a short page may leave the viewport near the top still
      conversation.checkNearTop();
    }
    if (parts.has('draft')) conversation.renderDraft();
    if (parts.has('tools')) conversation.renderTools();
    if (parts.has('notices')) conversation.renderNotices();
    if (parts.has('tree')) {
      tree.update(store.tree);
      siblingIndex = undefined;
      conversation.list.refresh((item) => navShown.has(item.entryId) && navShown.get(item.entryId) !== navSignature(extras, item.entryId));
      // a restore waiting for the tree to tell whether its entry is on the active path
      if (pending?.kind === 'restore' && !store.loadingEarlier) continuePending();
    }
    if (parts.has('navigation')) {
      const nav = store.navigation;
      dialog.progress(nav);
      container.dataset.navigation = nav?.state ?? '';
      if (nav && (nav.state === 'failed' || nav.state === 'cancelled')) revealAfterSwitch = undefined;
      if (nav && (nav.state === 'failed' || nav.state === 'cancelled') && !dialog.isOpen) {
        store.addNotice(nav.state === 'failed' ? 'error' : 'warning', nav.message ?? `Switch ${nav.state}.`);
      }
    }
    if (parts.has('conversation') || parts.has('earlier') || parts.has('draft')) jumpToLatest.update();
    performance.measure(`arbor:render:${[...parts].join('+')}`, { start: started });
  });

  // VS Code focuses the webview itself (Ctrl+Alt+A, the view's title, a click on its header): with
  // nothing inside focused yet, the cursor goes to the input, so typing right away is not lost.
  window.addEventListener('focus', () => {
    if (document.activeElement === null || document.activeElement === document.body) composer.focus();
  });

  // Esc in the tree closes it and returns to the input (Stop stays a button: Esc is too easy to hit).
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && treeOpen && tree.root.contains(document.activeElement) && !dialog.isOpen) {
      setTreeOpen(false);
      composer.focus();
    }
  });

  return {
    setDroppedCount(count) {
      container.dataset.dropped = String(count);
    },
    revealEntry(entryId) {
      // Render whatever arrived in this frame first (a snapshot may precede the reveal).
      store.flush();
      if (!store.hasConversation) {
        pending = { kind: 'reveal', entryId };
        return;
      }
      revealOrLoad(entryId);
    },
    filesPreview(preview) {
      dialog.filesPreview(preview);
    },
    setEditorText(text, images = [], append = false) {
      // images alone taken back (a queued screenshot) keep the text being written
      if (append) composer.setText(appendToDraft(composer.getText(), text));
      else if (text !== '' || images.length === 0) composer.setText(text);
      attachments.add(images);
      composer.focus();
    },
    command(command) {
      switch (command) {
        case 'focusInput':
          composer.focus();
          return;
        case 'toggleTree':
          setTreeOpen(!treeOpen);
          return;
        case 'showTree':
          setTreeOpen(true);
          tree.focus();
          return;
        case 'openModelPicker':
          composer.openModelPicker();
          return;
        case 'compactDialog':
          composer.setText('/compact ');
          composer.focus();
          return;
      }
    },
  };
}

