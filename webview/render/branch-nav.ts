// The branch switcher on a message ("‹ 2/3 ›") and the in-place editor of a user message: extras laid over
// a rendered row (conversation.ts calls decorateRow for every row it renders, so virtualization keeps
// them). Their buttons are data-action buttons handled in webview/branch-actions.ts.
import type { ConversationItem } from '../../src/protocol';
import type { SiblingIndex, Siblings } from '../branch-siblings';
import { el } from '../dom';
import { t } from '../l10n';

/** What the row extras read: the alternatives of each entry, and the messages being edited (id → text). */
export interface RowExtras {
  siblings(): SiblingIndex;
  editing: Map<string, string>;
}

function navButton(action: 'siblingPrev' | 'siblingNext', entryId: string, disabled: boolean): HTMLElement {
  const label = action === 'siblingPrev' ? t('Previous alternative') : t('Next alternative');
  return el(
    'button',
    { type: 'button', class: 'icon-btn branch-step', 'data-action': action, 'data-id': entryId, title: label, 'aria-label': label, disabled },
    action === 'siblingPrev' ? '‹' : '›',
  );
}

export function branchNav(entryId: string, siblings: Siblings): HTMLElement {
  const position = `${siblings.index + 1}/${siblings.count}`;
  return el(
    'span',
    { class: 'branch-nav', role: 'group', 'aria-label': t('Alternative {0} of {1}', siblings.index + 1, siblings.count) },
    navButton('siblingPrev', entryId, siblings.index === 0),
    el('span', { class: 'branch-pos', 'aria-hidden': 'true' }, position),
    navButton('siblingNext', entryId, siblings.index === siblings.count - 1),
  );
}

function inlineEditor(entryId: string, text: string): HTMLElement {
  const input = el('textarea', { class: 'inline-edit-input', 'data-edit': entryId, rows: '3', 'aria-label': t('Edit your message; Enter sends it as a new branch, Escape cancels') });
  input.value = text;
  return el(
    'div',
    { class: 'inline-edit' },
    input,
    el(
      'div',
      { class: 'inline-edit-actions' },
      el('vscode-button', { appearance: 'secondary', 'data-action': 'cancelEdit', 'data-id': entryId }, t('Cancel')),
      el('vscode-button', { appearance: 'primary', 'data-action': 'saveEdit', 'data-id': entryId, title: t('Send the edited message as a new branch (the original stays in the tree)') }, t('Save & send')),
    ),
  );
}

/** Adds the switcher (in the head, or as a line above a marker) and swaps a message being edited for its editor. */
export function decorateRow(extras: RowExtras, item: ConversationItem, node: HTMLElement): void {
  const siblings = extras.siblings().siblingsOf(item.entryId);
  if (siblings) {
    const nav = branchNav(item.entryId, siblings);
    const head = node.querySelector(':scope > .msg-head');
    if (head) head.insertBefore(nav, head.querySelector(':scope > .when'));
    else node.prepend(el('div', { class: 'branch-nav-line' }, nav));
  }
  const draft = item.kind === 'user' ? extras.editing.get(item.entryId) : undefined;
  if (draft === undefined) return;
  node.classList.add('editing');
  const body = node.querySelector(':scope > .markdown');
  const editor = inlineEditor(item.entryId, draft);
  if (body) body.replaceWith(editor);
  else node.append(editor);
}

/** The signature of a row's switcher, to re-render only rows whose alternatives changed. */
export function navSignature(extras: RowExtras, entryId: string): string {
  const siblings = extras.siblings().siblingsOf(entryId);
  return siblings ? `${siblings.index}/${siblings.count}` : '';
}
