// Header: session name and workspace, the in-panel tree toggle, Session Tree view, new session; a meta
// line with version, model and trust. Re-rendered whenever a state message arrives.
import type { ChatState } from '../../src/protocol';
import { el } from '../dom';

export interface HeaderActions {
  showSessionTree(): void;
  toggleTree(): void;
  newSession(): void;
}

export interface Header {
  root: HTMLElement;
  update(state: ChatState | undefined): void;
  setTreeOpen(open: boolean): void;
}

export function createHeader(actions: HeaderActions): Header {
  const title = el('span', { class: 'session-title', id: 'session-title' }, 'Arbor');
  const workspace = el('span', { class: 'workspace', id: 'workspace-label' }, 'Connecting…');
  const version = el('span', { class: 'version', id: 'version-label' });
  const model = el('span', { class: 'model', id: 'model-label' });
  const trust = el('vscode-tag', { id: 'trust-tag', hidden: true, title: 'Tools that change files or run commands are disabled' }, 'Restricted Mode');
  const treeToggle = el('vscode-button', { id: 'toggle-tree', appearance: 'icon', title: 'Show the conversation tree in this panel', 'aria-label': 'Conversation tree', 'aria-pressed': 'false' }, el('span', { class: 'glyph' }, '⑂'));
  const newSession = el('vscode-button', { id: 'new-session', appearance: 'icon', title: 'New session', 'aria-label': 'New session' }, el('span', { class: 'glyph' }, '+'));
  const treeButton = el('vscode-button', { id: 'show-session-tree', appearance: 'icon', title: 'Show the Session Tree view', 'aria-label': 'Session Tree view' }, el('span', { class: 'glyph' }, '☰'));
  treeToggle.addEventListener('click', () => actions.toggleTree());
  newSession.addEventListener('click', () => actions.newSession());
  treeButton.addEventListener('click', () => actions.showSessionTree());
  const root = el(
    'header',
    { class: 'header', id: 'header' },
    el('div', { class: 'header-text' }, title, el('div', { class: 'header-meta' }, workspace, version, model, trust)),
    el('div', { class: 'header-actions' }, treeToggle, newSession, treeButton),
  );

  return {
    root,
    update(state) {
      if (!state) return;
      workspace.textContent = state.workspaceFolders.length === 0 ? 'No folder open' : state.workspaceFolders.join(', ');
      title.textContent = state.sessionName ?? (state.sessionFile ? state.sessionFile.split(/[\\/]/).pop() ?? 'Session' : 'New session');
      title.title = state.sessionFile ?? '';
      version.textContent = `Arbor v${state.extensionVersion}`;
      model.textContent = state.modelLabel ?? 'No model configured';
      trust.hidden = state.workspaceTrusted;
    },
    setTreeOpen(open) {
      treeToggle.setAttribute('aria-pressed', String(open));
      treeToggle.classList.toggle('pressed', open);
    },
  };
}
