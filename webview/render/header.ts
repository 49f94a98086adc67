// Header: one row that fits a 300 px side bar: the session name (ellipsised; workspace, version and model
// in a quieter second line that hides when the view is very narrow), the Restricted Mode tag, and two
// icon buttons (in-panel tree toggle, Session Tree view). New session is the view's own title action
// (and /new), not a second + here. The model picker lives in the composer's toolbar, next to Send, like
// VS Code's own chat. Re-rendered whenever a state message arrives.
import type { ChatState } from '../../src/protocol';
import { el } from '../dom';
import { sessionTitle } from '../format';
import { icon } from '../icons';
import { t } from '../l10n';

export interface HeaderActions {
  showSessionTree(): void;
  toggleTree(): void;
}

export interface Header {
  root: HTMLElement;
  update(state: ChatState | undefined): void;
  setTreeOpen(open: boolean): void;
}

export function createHeader(actions: HeaderActions): Header {
  // the page's one h1 (screen readers list headings): the session's name, styled as the header's title
  const title = el('h1', { class: 'session-title', id: 'session-title' }, 'Arbor');
  const workspace = el('span', { class: 'workspace', id: 'workspace-label' }, t('Connecting…'));
  const version = el('span', { class: 'version', id: 'version-label' });
  const model = el('span', { class: 'model', id: 'model-label' });
  const trust = el('vscode-tag', { id: 'trust-tag', hidden: true, title: t('Tools that change files or run commands are disabled') }, t('Restricted Mode'));
  const treeToggle = el('vscode-button', { id: 'toggle-tree', appearance: 'icon', title: t('Show the conversation tree in this panel'), 'aria-label': t('Conversation tree'), 'aria-pressed': 'false' }, el('span', { class: 'glyph' }, icon('tree')));
  const treeButton = el('vscode-button', { id: 'show-session-tree', appearance: 'icon', title: t('Show the Session Tree view'), 'aria-label': t('Session Tree view') }, el('span', { class: 'glyph' }, icon('list')));
  treeToggle.addEventListener('click', () => actions.toggleTree());
  treeButton.addEventListener('click', () => actions.showSessionTree());
  const root = el(
    'header',
    { class: 'header', id: 'header' },
    el('div', { class: 'header-text' }, el('div', { class: 'header-title-row' }, title, trust), el('div', { class: 'header-meta' }, workspace, model, version)),
    el('div', { class: 'header-actions', role: 'toolbar', 'aria-label': t('Chat actions') }, treeToggle, treeButton),
  );

  return {
    root,
    update(state) {
      if (!state) return;
      workspace.textContent = state.workspaceFolders.length === 0 ? t('No folder open') : state.workspaceFolders.join(', ');
      title.textContent = sessionTitle(state);
      title.title = [title.textContent, state.sessionFile, workspace.textContent].filter(Boolean).join('\n');
      version.textContent = t('Arbor v{0}', state.extensionVersion);
      model.textContent = state.modelLabel ?? t('No model configured');
      root.querySelector('.header-meta')?.setAttribute('title', [workspace.textContent, model.textContent, version.textContent].join(' · '));
      trust.hidden = state.workspaceTrusted;
    },
    setTreeOpen(open) {
      treeToggle.setAttribute('aria-pressed', String(open));
      treeToggle.classList.toggle('pressed', open);
    },
  };
}
