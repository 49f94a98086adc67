// Header line: workspace, trust, model and version. Re-rendered whenever a state message arrives.
import type { ChatState } from '../../src/protocol';
import { el } from '../dom';

export interface HeaderActions {
  showSessionTree(): void;
}

export function createHeader(actions: HeaderActions): { root: HTMLElement; update(state: ChatState | undefined): void } {
  const workspace = el('span', { class: 'workspace', id: 'workspace-label' }, 'Connecting…');
  const version = el('span', { class: 'version', id: 'version-label' });
  const model = el('span', { class: 'model', id: 'model-label' });
  const trust = el('vscode-tag', { id: 'trust-tag', hidden: true, title: 'Tools that change files or run commands are disabled' }, 'Restricted Mode');
  const treeButton = el('vscode-button', { id: 'show-session-tree', appearance: 'secondary', title: 'Show the Session Tree view' }, 'Session Tree');
  treeButton.addEventListener('click', () => actions.showSessionTree());
  const root = el(
    'header',
    { class: 'header', id: 'header' },
    el('div', { class: 'header-text' }, workspace, el('div', { class: 'header-meta' }, version, model, trust)),
    treeButton,
  );

  function update(state: ChatState | undefined): void {
    if (!state) return;
    workspace.textContent =
      state.workspaceFolders.length === 0 ? 'No folder open' : state.workspaceFolders.join(', ');
    version.textContent = `Arbor v${state.extensionVersion}`;
    model.textContent = state.modelLabel ?? 'No model configured';
    trust.hidden = state.workspaceTrusted;
  }

  return { root, update };
}
