// Composes the page from the render modules and wires store changes to the parts that show them.
import { CONVERSATION_PAGE, type DraftImage, type FilesPreviewMessage, type WebviewToHostMessage } from '../../src/protocol';
import { installActions } from '../actions';
import { installBranchActions, startEdit } from '../branch-actions';
import { SiblingIndex } from '../branch-siblings';
import { appendToDraft } from '../draft-text';
import { createSaver, type PersistedUi } from '../persist';
import { createScrollController } from '../scroll-controller';
import type { ParsedInput } from '../slash';
import type { Store } from '../store';
import { createRestrictedBanner } from './banners';
import { decorateRow, navSignature, type RowExtras } from './branch-nav';
import { createComposer } from './composer';
import { createModeBar } from './mode-bar';
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
import { t } from '../l10n';

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
  const conversation = createConversation(ctx, {
    nearTop: () => scroll.nearTop(),
    fill: (prompt) => {
      composer.setText(prompt);
      composer.focus();
    },
    decorate: (item, node) => {
      decorateRow(extras, item, node);
      navShown.set(item.entryId, navSignature(extras, item.entryId));
    },
  });

  const scroll = createScrollController({ store, view: conversation, post, persisted });
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
  const modeBar = createModeBar({
    setApprovalMode: (mode) => post({ type: 'setApprovalMode', mode }),
    runPlan: (mode) => {
      post({ type: 'runPlan', mode });
      conversation.list.scrollToBottom();
    },
  });
  composer.inputWrap.after(modeBar.root);
  installMentionCompletion(composer.input, composer.inputWrap, post, (text) => composer.setText(text));
  const attachments = installImageAttachments(composer.root, composer.input, post, (text) => store.addNotice('warning', text), () => composer.attachmentsChanged());
  composer.inputWrap.before(attachments.chips);
  composer.sendActions.prepend(attachments.button);
  composer.setText(persisted.input);

  const tree = createTreePanel(treeActions, treeMode, (mode) => {
    treeMode = mode;
    save();
  });

  function setTreeOpen(open: boolean): void {
    treeOpen = open;
    tree.setOpen(open);
    header.setTreeOpen(open);
    container.dataset.treeOpen = String(open);
    save();
  }

  saver = createSaver(
    api,
    () => ({
      input: composer.getText(),
      ...scroll.position(),
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
    loadEarlier: () => scroll.loadEarlier(CONVERSATION_PAGE),
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
      scroll.revealAfterSwitch(revealAfter);
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
      scroll.conversationChanged();
      container.dataset.leaf = store.leafId ?? '';
      conversation.checkNearTop();
    }
    if (parts.has('earlier')) {
      conversation.renderEarlier();
      scroll.earlierChanged();
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
      scroll.treeChanged();
    }
    if (parts.has('navigation')) {
      const nav = store.navigation;
      dialog.progress(nav);
      container.dataset.navigation = nav?.state ?? '';
      if (nav && (nav.state === 'failed' || nav.state === 'cancelled')) scroll.switchEnded();
      if (nav && (nav.state === 'failed' || nav.state === 'cancelled') && !dialog.isOpen) {
        store.addNotice(nav.state === 'failed' ? 'error' : 'warning', nav.message ?? (nav.state === 'failed' ? t('Switch failed.') : t('Switch cancelled.')));
      }
    }
    if (parts.has('conversation') || parts.has('earlier') || parts.has('draft')) jumpToLatest.update();
    // the mode bar reads the state only (planReady is the host's), not the conversation or the streamed draft
    if (parts.has('state')) modeBar.update(store.state);
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
      scroll.revealEntry(entryId);
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

