// What `activate` returns. Integration tests use it to observe the views; nothing else should depend on it.
import type { ChatViewProvider } from './chat-view';
import type { SessionTreeProvider } from './session-tree';

export interface ArborApi {
  readonly chatView: ChatViewProvider;
  readonly sessionTree: SessionTreeProvider;
}
