// The hover preview of a turn in the conversation graph: the turn's text (its first entries, each with
// its kind), its label and branches, and what a click does. One element, moved and refilled; shown for
// the hovered or keyboard-focused turn, hidden on scroll and when the pointer leaves.
import type { TreeNode } from '../../src/protocol';
import { el } from '../dom';
import type { Turn } from '../graph/graph-layout';
import { PREVIEW_ENTRIES } from '../graph/graph-text';
import { kindIcon, kindName } from './tree-kinds';
import { t } from '../l10n';

export interface GraphHover {
  root: HTMLElement;
  show(turn: Turn, nodeOf: (id: string) => TreeNode | undefined, anchor: HTMLElement, container: HTMLElement): void;
  hide(): void;
}

export function createGraphHover(): GraphHover {
  const root = el('div', { class: 'graph-tip', role: 'tooltip', hidden: true });
  let shownRow = -1;
  return {
    root,
    show(turn, nodeOf, anchor, container) {
      if (shownRow !== turn.row) root.replaceChildren(...tipContent(turn, nodeOf));
      shownRow = turn.row;
      root.hidden = false;
      place(root, anchor, container);
    },
    hide() {
      root.hidden = true;
      shownRow = -1;
    },
  };
}

function tipContent(turn: Turn, nodeOf: (id: string) => TreeNode | undefined): HTMLElement[] {
  const lines = turn.entries.slice(0, PREVIEW_ENTRIES).map((id) => {
    const node = nodeOf(id);
    if (!node) return el('div', { class: 'graph-tip-line' }, '…');
    return el(
      'div',
      { class: `graph-tip-line kind-${node.kind}` },
      el('span', { class: 'graph-tip-kind', 'aria-hidden': 'true' }, kindIcon(node.kind)),
      el('span', { class: 'graph-tip-name' }, kindName(node.kind)),
      node.label ? el('span', { class: 'graph-chip' }, node.label) : '',
      el('span', { class: 'graph-tip-text' }, node.preview || '—'),
    );
  });
  const more = turn.entries.length - PREVIEW_ENTRIES;
  const facts = [turn.entries.length === 1 ? t('1 entry') : t('{0} entries', turn.entries.length)];
  if (turn.children.length > 1) facts.push(t('{0} branches from here', turn.children.length));
  return [
    ...lines,
    more > 0 ? el('div', { class: 'graph-tip-more' }, t('+ {0} more', more)) : el('span'),
    el('div', { class: 'graph-tip-foot' }, t('{0} · Enter or click: switch here · Space: entries', facts.join(' · '))),
  ];
}

/** Below the anchor row (above it when there is no room), inside the container. */
function place(tip: HTMLElement, anchor: HTMLElement, container: HTMLElement): void {
  const box = container.getBoundingClientRect();
  const row = anchor.getBoundingClientRect();
  const width = Math.min(420, box.width - 16);
  tip.style.width = `${width}px`;
  const left = Math.max(8, Math.min(row.left - box.left, box.width - width - 8));
  tip.style.left = `${left}px`;
  const below = row.bottom - box.top + 4;
  const height = tip.offsetHeight;
  tip.style.top = `${below + height > box.height && row.top - box.top > height ? row.top - box.top - height - 4 : below}px`;
}
