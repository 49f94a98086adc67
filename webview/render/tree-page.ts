// The Conversation Tree editor tab (Arbor: Open Conversation Tree): the same webview bundle and store as
// the chat, showing only the graph (tree-graph.ts) full size, with the switch dialog of the chat
// (switch-flow.ts) and a status line for the host's notices. The host side is the chat's, bound to a
// WebviewPanel (src/vscode/commands/open-conversation-tree.ts).
import type { FilesPreviewMessage, WebviewToHostMessage } from '../../src/protocol';
import { el } from '../dom';
import type { StateApi } from '../persist';
import type { Store } from '../store';
import { modelOfNodes } from '../tree-patch';
import type { App } from './app';
import { createSwitchFlow } from './switch-flow';
import { createTreeGraph } from './tree-graph';
import { entryCount } from './tree-kinds';
import { t } from '../l10n';

/**
 * `api` keeps the session file in the webview's state: after a window reload the tab comes back on that
 * session's chat (src/vscode/tree-tabs.ts).
 */
export function mountTreePage(container: HTMLElement, store: Store, post: (message: WebviewToHostMessage) => void, api: Pick<StateApi, 'setState'>): App {
  const flow = createSwitchFlow(store, post);
  const graph = createTreeGraph(flow.treeActions);
  const title = el('h1', { class: 'tree-page-title' }, t('Conversation tree'));
  const count = el('span', { class: 'tree-count' });
  const status = el('div', { class: 'tree-page-status', role: 'status' });
  const hint = el('span', { class: 'tree-page-hint' }, t('Click or Enter: switch · Space: entries · ←→ branches · right-click: with summary'));
  const head = el('div', { class: 'tree-page-head' }, title, count, hint, graph.toolbar);
  let savedFile: string | undefined;
  container.classList.add('tree-page');
  container.replaceChildren(head, status, graph.root, flow.dialog.root);

  store.subscribe((parts) => {
    if (parts.has('state')) {
      container.dataset.status = 'ready';
      title.textContent = store.state?.sessionName ? t('Conversation tree — {0}', store.state.sessionName) : t('Conversation tree');
      if (store.state?.sessionFile && store.state.sessionFile !== savedFile) {
        savedFile = store.state.sessionFile;
        api.setState({ sessionFile: savedFile });
      }
    }
    if (parts.has('tree')) {
      graph.update(store.tree);
      const branches = modelOfNodes(store.tree)?.branchPoints ?? 0;
      count.textContent = entryCount(store.tree.length, branches);
      container.dataset.leaf = store.treeLeafId ?? '';
    }
    if (parts.has('navigation')) {
      const nav = store.navigation;
      flow.dialog.progress(nav);
      container.dataset.navigation = nav?.state ?? '';
      if (nav && (nav.state === 'failed' || nav.state === 'cancelled') && !flow.dialog.isOpen) status.textContent = nav.message ?? (nav.state === 'failed' ? t('Switch failed.') : t('Switch cancelled.'));
    }
    if (parts.has('notices')) status.textContent = store.notices.at(-1)?.text ?? '';
  });
  container.dataset.status = 'connecting';
  requestAnimationFrame(() => graph.shown());

  return {
    setDroppedCount(dropped) {
      container.dataset.dropped = String(dropped);
    },
    setEditorText() {
      // the tree tab has no input: the chat shows the text of an edited message
    },
    filesPreview(preview: FilesPreviewMessage) {
      flow.dialog.filesPreview(preview);
    },
    revealEntry(entryId) {
      graph.reveal(entryId);
    },
    command() {
      graph.focus();
    },
  };
}
