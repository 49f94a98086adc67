// Composes the page from the render modules. Holds no protocol logic: main.ts feeds it state.
import type { ChatState } from '../../src/protocol';
import { el } from '../dom';
import { createConversation } from './conversation';
import { createHeader, type HeaderActions } from './header';

export interface App {
  showState(state: ChatState): void;
  setDroppedCount(count: number): void;
}

export function mountApp(container: HTMLElement, actions: HeaderActions): App {
  const header = createHeader(actions);
  const conversation = createConversation();
  container.replaceChildren(header.root, el('vscode-divider', { role: 'separator' }), conversation.root);
  container.dataset.status = 'connecting';
  return {
    showState(state) {
      header.update(state);
      container.dataset.status = 'ready';
    },
    setDroppedCount(count) {
      container.dataset.dropped = String(count);
    },
  };
}
