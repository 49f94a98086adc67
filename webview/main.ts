// Chat webview bootstrap: mounts the UI, connects to the host through the validated protocol, and starts
// the ready handshake (again on every load: the host re-sends its snapshot). Rendering lives in render/,
// the model in store.ts, protocol handling in host-channel.ts.
import './zod-config'; // must stay the first import
import type { HostToWebviewMessage, WebviewToHostMessage } from '../src/protocol';
import { connectToHost, sendReady, type HostChannel } from './host-channel';
import { loadStrings } from './l10n';
import { loadPersisted } from './persist';
import { mountApp, type App } from './render/app';
import { mountTreePage } from './render/tree-page';
import { Store } from './store';

function dispatch(store: Store, app: App, channel: HostChannel, message: HostToWebviewMessage): void {
  switch (message.type) {
    case 'state':
      store.setState(message.state);
      return;
    case 'conversation':
      store.setConversation(message.leafId, message.items, message.hasEarlier);
      return;
    case 'conversationPage': {
      // a late answer (the path changed, or it was given up) must not mix another path into this one
      const ignored = store.applyPage(message);
      if (ignored) channel.report('info', `ignored page #${message.seq} of earlier messages before ${message.beforeId}: ${ignored}`);
      return;
    }
    case 'labels':
      store.setLabels(message.leafId, message.labels);
      return;
    case 'pins':
      store.setPins(message.leafId, message.pins);
      return;
    case 'tree':
      store.setTree(message.leafId, message.nodes);
      return;
    case 'treePatch':
      store.patchTree(message);
      return;
    case 'agentEvent':
      store.applyEvent(message.event);
      return;
    case 'navigationProgress':
      store.setNavigation({ targetId: message.targetId, state: message.state, ...(message.message ? { message: message.message } : {}) });
      return;
    case 'editorText':
      app.setEditorText(message.text, message.images, message.append === true);
      return;
    case 'filesPreview':
      app.filesPreview(message);
      return;
    case 'notice':
      store.addNotice(message.level, message.message, message.actions);
      return;
    case 'revealEntry':
      app.revealEntry(message.entryId);
      return;
    case 'uiCommand':
      app.command(message.command);
      return;
    case 'imagesAttached':
      // the composer's image chips listen for it (render/image-attach.ts)
      window.dispatchEvent(new CustomEvent('arbor:imagesAttached', { detail: { images: message.images, refused: message.refused } }));
      return;
    case 'restoreDraftImages':
      // the composer's image chips listen for it (render/image-attach.ts)
      window.dispatchEvent(new CustomEvent('arbor:restoreDraftImages', { detail: message.images }));
      return;
    case 'fileMatches':
      // the composer's @-mention list listens for it (render/mention-complete.ts)
      window.dispatchEvent(new CustomEvent('arbor:fileMatches', { detail: { seq: message.seq, files: message.files } }));
      return;
  }
}

function bootstrap(): void {
  const container = document.getElementById('app');
  if (!container) throw new Error('Arbor chat: #app element missing');
  // the host's translations (src/vscode/webview-html.ts) before anything is drawn
  const stringsProblem = loadStrings(container.dataset.strings);
  const api = acquireVsCodeApi();
  const store = new Store();
  let channelRef: ReturnType<typeof connectToHost> | undefined;
  const post = (message: WebviewToHostMessage) => channelRef?.post(message);
  // The Conversation Tree editor tab loads this bundle too (src/vscode/webview-html.ts marks it).
  const app = container.dataset.view === 'tree' ? mountTreePage(container, store, post, api) : mountApp(container, store, post, api, loadPersisted(api));
  const channel = connectToHost(api, (message) => dispatch(store, app, channel, message), (count) => app.setDroppedCount(count));
  channelRef = channel;
  if (stringsProblem) channel.report('warn', `${stringsProblem}; the chat shows English`);
  // A blocked resource means the CSP and the page disagree; make that visible in the output channel.
  document.addEventListener('securitypolicyviolation', (event) => {
    container.dataset.cspViolations = String(Number(container.dataset.cspViolations ?? '0') + 1);
    channel.report('error', `CSP blocked ${event.blockedURI || 'inline content'} (${event.violatedDirective})`);
  });
  // with several chats open (side bar, editor tabs) the one the user works in is the current one
  window.addEventListener('focus', () => channel.post({ type: 'focused' }));
  sendReady(channel);
}

bootstrap();
