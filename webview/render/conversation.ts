// The conversation area: welcome text for an empty session, the virtualized active path, and a tail that
// is not virtualized (the streaming draft, inline notices). Streaming re-renders only the draft. The path
// is loaded from its end: a row above the list stands for the items the host has not sent yet, and
// scrolling near it asks for them (they are put in front without moving what the user looks at).
import type { ConversationItem } from '../../src/protocol';
import { el } from '../dom';
import type { ScrollAnchor } from '../scroll-anchor';
import type { Store } from '../store';
import { renderBlocks, renderItem, type RenderContext } from './message';
import { VirtualList } from './virtual-list';
import { welcomeTips } from './welcome-tips';
import { noticeActionButtons } from './notice-actions';
import { t } from '../l10n';
import { followOutput } from '../scroll-controller';

export interface ConversationHooks {
  /** the user is near the top of the loaded items (or asked for more): load the page before them */
  nearTop(): void;
  /** a welcome tip was picked: its prompt goes into the input */
  fill(prompt: string): void;
  /** extras laid over every rendered row (the branch switcher, the in-place editor) */
  decorate(item: ConversationItem, node: HTMLElement): void;
}

export interface ConversationView {
  root: HTMLElement;
  scroller: HTMLElement;
  list: VirtualList<ConversationItem>;
  renderConversation(): void;
  /** a page was put in front of the items, or the page request started or ended */
  renderEarlier(): void;
  /** asks for the page before the loaded items when the viewport is near their top */
  checkNearTop(): void;
  renderDraft(): void;
  renderTools(): void;
  renderNotices(): void;
  rerenderEntry(entryId: string): void;
  /** scrolls to an entry on the active path and highlights it; false when it is not on the path */
  reveal(entryId: string): boolean;
  /** the entry at the top of the viewport and how far into it the viewport starts; undefined when not laid out */
  anchor(): ScrollAnchor | undefined;
  /** scrolls back to a saved anchor exactly; false when its entry is not loaded */
  restore(anchor: ScrollAnchor): boolean;
}

const HIGHLIGHT_MS = 2000;
/** within this many viewport heights of the top of the loaded items, the page before them is asked for */
const NEAR_TOP_SCREENS = 1;

function estimate(item: ConversationItem): number {
  switch (item.kind) {
    case 'user':
      return 56 + Math.ceil(item.text.length / 70) * 18;
    case 'assistant': {
      let chars = 0;
      let tools = 0;
      for (const b of item.blocks) {
        if (b.type === 'text') chars += b.text.length;
        else if (b.type === 'toolCall') tools++;
        else chars += 10;
      }
      return 56 + Math.ceil(chars / 70) * 18 + tools * 64;
    }
    case 'compaction':
    case 'branch_summary':
      return 44;
    default:
      return 36;
  }
}

export function createConversation(ctx: RenderContext, hooks: ConversationHooks): ConversationView {
  const { store } = ctx;
  // The entry last revealed and until when it stays highlighted (rows re-render while scrolling).
  let revealed: { id: string; until: number } | undefined;
  const welcome = el(
    'section',
    { class: 'welcome', id: 'welcome' },
    el('h2', {}, t('Welcome to Arbor')),
    el('p', {}, t('Arbor is a coding agent whose conversations are trees: edit an earlier message to branch, and nothing you tried is lost.')),
    el('p', { class: 'hint' }, t('Ask for a change below. Type / for commands and @ for files; the tree button shows every branch of this conversation. Try:')),
    welcomeTips(hooks.fill),
  );
  // One button whose text changes (not two elements), so the row keeps its height while loading.
  const earlierButton = el('button', { type: 'button', class: 'link-btn', 'data-action': 'loadEarlier' }, t('Load earlier messages'));
  const earlier = el('div', { class: 'notice-line earlier', id: 'earlier', role: 'status', hidden: true }, earlierButton);
  const listContainer = el('div', { class: 'messages', id: 'messages', role: 'log', 'aria-label': t('Conversation'), 'aria-live': 'off' });
  const draft = el('div', { class: 'draft', id: 'draft', 'aria-live': 'polite', 'aria-busy': 'true' });
  const notices = el('div', { class: 'notices', id: 'notices', role: 'status' });
  const scroller = el('main', { class: 'conversation', id: 'conversation', tabindex: '-1' }, welcome, earlier, listContainer, draft, notices);
  const list = new VirtualList<ConversationItem>({
    scroller,
    container: listContainer,
    key: (item) => item.entryId,
    estimate,
    render: (item) => {
      const node = renderItem(ctx, item);
      hooks.decorate(item, node);
      node.classList.add('row');
      if (item.entryId === store.leafId) node.classList.add('is-leaf');
      if (revealed?.id === item.entryId && performance.now() < revealed.until) node.classList.add('revealed');
      return node;
    },
  });

  function hasToolCalls(item: ConversationItem): boolean {
    return item.kind === 'assistant' && item.blocks.some((b) => b.type === 'toolCall');
  }

  /** The row above the list: shown while the host has earlier items, saying whether they are on the way. */
  function renderEarlierRow(): void {
    const loading = store.loadingEarlier !== undefined;
    earlier.hidden = !store.hasEarlier;
    earlierButton.textContent = loading ? t('Loading earlier messages…') : t('Load earlier messages');
    earlierButton.toggleAttribute('disabled', loading);
    scroller.dataset.hasEarlier = String(store.hasEarlier);
    scroller.dataset.loadingEarlier = String(loading);
  }

  function checkNearTop(): void {
    if (store.hasEarlier && !store.loadingEarlier && scroller.scrollTop < scroller.clientHeight * NEAR_TOP_SCREENS) hooks.nearTop();
  }
  scroller.addEventListener('scroll', checkNearTop, { passive: true });

  return {
    root: scroller,
    scroller,
    list,
    renderConversation() {
      welcome.hidden = store.items.length > 0 || store.draft !== undefined;
      scroller.dataset.count = String(store.items.length);
      renderEarlierRow();
      list.setItems(store.items, true);
    },
    renderEarlier() {
      scroller.dataset.count = String(store.items.length);
      // the row may appear, change or go: the anchored replacement compensates what that does above the list
      list.setItemsAnchored(store.items, renderEarlierRow);
    },
    checkNearTop,
    renderDraft() {
      welcome.hidden = store.items.length > 0 || store.draft !== undefined;
      const d = store.draft;
      if (!d) {
        draft.replaceChildren();
        draft.hidden = true;
        return;
      }
      draft.hidden = false;
      draft.replaceChildren(
        el(
          'article',
          { class: 'msg msg-assistant streaming', 'aria-label': t('Assistant reply (streaming)') },
          el('div', { class: 'msg-head' }, el('span', { class: 'who' }, 'Arbor'), el('span', { class: 'typing', 'aria-label': t('writing') }, '●●●')),
          ...renderBlocks(ctx, 'draft', d.blocks, d),
        ),
      );
      followOutput(list, scroller);
    },
    renderTools() {
      list.refresh(hasToolCalls);
      if (store.draft) this.renderDraft();
    },
    renderNotices() {
      notices.replaceChildren(
        ...store.notices.map((n) =>
          el(
            'div',
            { class: `inline-notice level-${n.level}`, role: n.level === 'error' ? 'alert' : 'status' },
            el('span', {}, n.text),
            ...noticeActionButtons(n.actions, n.id),
            el('button', { type: 'button', class: 'link-btn', 'data-action': 'dismissNotice', 'data-id': String(n.id), 'aria-label': t('Dismiss') }, '✕'),
          ),
        ),
      );
      followOutput(list, scroller);
    },
    rerenderEntry(entryId) {
      list.refresh((item) => item.entryId === entryId);
    },
    reveal(entryId) {
      // A tool result is shown inside its call's card: reveal the assistant message that made the call.
      let target = entryId;
      if (!store.items.some((item) => item.entryId === entryId)) {
        const result = [...store.results.values()].find((r) => r.entryId === entryId);
        const owner = result && store.items.find((item) => item.kind === 'assistant' && item.blocks.some((b) => b.type === 'toolCall' && b.id === result.toolCallId));
        if (!owner) return false;
        target = owner.entryId;
      }
      revealed = { id: target, until: performance.now() + HIGHLIGHT_MS };
      if (!list.reveal(target)) return false;
      const node = list.nodeOf(target);
      if (node) {
        // restart the animation when the same entry is revealed twice in a row
        node.classList.remove('revealed');
        void node.offsetWidth;
        node.classList.add('revealed');
      }
      scroller.dataset.revealed = target;
      return true;
    },
    anchor() {
      const top = list.topAnchor();
      return top ? { entryId: top.key, offset: -top.top } : undefined;
    },
    restore(anchor) {
      return list.scrollToAnchor(anchor.entryId, anchor.offset);
    },
  };
}
