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

/** A small branch icon drawn as inline SVG (no font glyph dependency; not a resource load, so CSP-safe). */
function branchIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M4 2v12M4 8c0-2 2-3 4-3h2M4 11c0-1.5 2-2 4-2h2');
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '1.4');
  path.setAttribute('stroke-linecap', 'round');
  svg.append(path);
  for (const [cx, cy] of [[12, 5], [12, 9], [4, 14]]) {
    const c = document.createElementNS(ns, 'circle');
    c.setAttribute('cx', String(cx));
    c.setAttribute('cy', String(cy));
    c.setAttribute('r', '1.6');
    c.setAttribute('fill', 'currentColor');
    svg.append(c);
  }
  return svg;
}

export function createHeader(actions: HeaderActions): Header {
  const title = el('span', { class: 'session-title', id: 'session-title' }, 'Arbor');
  const workspace = el('span', { class: 'workspace', id: 'workspace-label' }, 'Connecting…');
  const version = el('span', { class: 'version', id: 'version-label' });
  const model = el('span', { class: 'model', id: 'model-label' });
  const trust = el('vscode-tag', { id: 'trust-tag', hidden: true, title: 'Tools that change files or run commands are disabled' }, 'Restricted Mode');
  const treeToggle = el('vscode-button', { id: 'toggle-tree', appearance: 'icon', title: 'Show the conversation tree in this panel', 'aria-label': 'Conversation tree', 'aria-pressed': 'false' }, el('span', { class: 'glyph' }, branchIcon()));
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
