// The conversation tree inside the panel: one row per entry (fixed height, windowed), rails for depth,
// distinct icons for compactions and branch summaries, labels, the active path highlighted and the leaf
// marked. ARIA tree with a roving tabindex: Up/Down/Home/End move, Enter/Space switches, the context
// menu key (or Shift+F10, right click) opens the switch dialog with summary options.
// Per update the panel costs O(visible rows): the rows are laid out once and then kept up to date by the
// tree patches (tree-rows.ts), and only the rows in the viewport (plus a margin) are in the DOM. While the
// leaf's row is in view, the panel keeps it in view as the leaf moves (a turn appended, a switch made).
import type { TreeNode } from '../../src/protocol';
import { el } from '../dom';
import { entryCount, filesBadge, kindIcon, kindName } from './tree-kinds';
import { createTreeGraph } from './tree-graph';
import { icon as svgIcon } from '../icons';
import type { TreeRow } from '../tree-layout';
import { modelOfNodes, rowsOf, treeModelOf, type TreeModel } from '../tree-patch';
import type { TreeRows } from '../tree-rows';
import { t } from '../l10n';

const ROW = 22;

export interface TreeActions {
  /** plain click / Enter */
  activate(node: TreeNode): void;
  /** context action: always the dialog */
  switchWithSummary(node: TreeNode): void;
}

/** The panel shows the tree as a list of entries or as a graph of turns (tree-graph.ts). */
export type TreeMode = 'list' | 'graph';

export interface TreePanel {
  root: HTMLElement;
  update(nodes: readonly TreeNode[]): void;
  setOpen(open: boolean): void;
  focus(): void;
}

export function createTreePanel(actions: TreeActions, mode: TreeMode = 'graph', modeChanged?: (mode: TreeMode) => void): TreePanel {
  const spacer = el('div', { class: 'tree-spacer' });
  const rowsEl = el('div', { class: 'tree-rows' });
  const viewport = el('div', { class: 'tree-viewport', role: 'tree', 'aria-label': t('Conversation tree'), tabindex: '-1' }, spacer, rowsEl);
  const count = el('span', { class: 'tree-count' });
  const graph = createTreeGraph(actions);
  const modeButton = (which: TreeMode, label: string, title: string) => {
    const button = el('button', { class: `graph-tool tree-mode-${which}`, type: 'button', title, 'aria-label': label }, label);
    button.addEventListener('click', () => setMode(which));
    return button;
  };
  const modes = { list: modeButton('list', t('List'), t('Show the tree as a list')), graph: modeButton('graph', t('Graph'), t('Show the tree as a graph')) };
  const head = el(
    'div',
    { class: 'tree-head', title: t('Click to switch · right-click: switch with summary') },
    el('span', { class: 'tree-title' }, t('Tree')),
    count,
    el('span', { class: 'tree-head-tools' }, graph.toolbar, el('span', { class: 'tree-modes', role: 'group', 'aria-label': t('Show as') }, modes.list, modes.graph)),
  );
  const root = el('section', { class: 'tree-panel', id: 'tree-panel', hidden: true, 'aria-label': t('Conversation tree') }, head, viewport, graph.root);
  let tree: TreeModel = treeModelOf(null, []);
  let rows: TreeRows = rowsOf(tree);
  let focusIndex = 0;
  let frame = 0;
  /** nodes received while the panel was closed: their rows are only needed (and laid out) when it opens */
  let stale: readonly TreeNode[] | undefined;
  /** the leaf's row at the last layout (-1: none) */
  let leafRow = -1;

  function rowElement(row: TreeRow, index: number): HTMLElement {
    const n = row.node;
    const classes = ['tree-row', `kind-${n.kind}`];
    if (n.onActivePath) classes.push('active');
    if (n.isLeaf) classes.push('leaf');
    if (row.branchPoint) classes.push('branch-point');
    const title = `${kindName(n.kind)}${n.pinned ? t(' (pinned)') : ''}${n.label ? ` [${n.label}]` : ''}: ${n.preview}`;
    const node = el(
      'div',
      {
        class: classes.join(' '),
        role: 'treeitem',
        'aria-level': String(row.depth + 1),
        'aria-selected': String(n.isLeaf),
        'aria-current': n.isLeaf ? 'location' : undefined,
        'aria-label': n.isLeaf ? t('{0} (current position)', title) : title,
        title,
        tabindex: index === focusIndex ? '0' : '-1',
        'data-id': n.id,
        'data-index': String(index),
      },
      el('span', { class: 'tree-rails', style: `width:${row.depth * 12}px` }),
      el('span', { class: `tree-icon icon-${n.kind}`, 'aria-hidden': 'true' }, kindIcon(n.kind)),
      n.pinned ? el('span', { class: 'tree-pin', 'aria-hidden': 'true' }, svgIcon('pin')) : '',
      n.label ? el('span', { class: 'tree-label' }, n.label) : '',
      el('span', { class: 'tree-preview' }, n.preview || kindName(n.kind)),
      filesBadge(n, 'tree-files'),
      row.branchPoint ? el('span', { class: 'tree-branches', title: t('{0} branches', n.childCount) }, svgIcon('branch'), String(n.childCount)) : '',
      n.isLeaf ? el('span', { class: 'tree-leaf-mark' }, '◀ here') : '',
    );
    node.style.top = `${index * ROW}px`;
    return node;
  }

  function render(): void {
    const top = viewport.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW) - 10);
    const last = Math.min(rows.size - 1, Math.ceil((top + viewport.clientHeight) / ROW) + 10);
    const nodes: HTMLElement[] = [];
    for (let i = first; i <= last; i++) nodes.push(rowElement(rows.at(i)!, i));
    const hadFocus = rowsEl.contains(document.activeElement);
    rowsEl.replaceChildren(...nodes);
    if (hadFocus) rowsEl.querySelector<HTMLElement>(`[data-index="${focusIndex}"]`)?.focus({ preventScroll: true });
  }

  function schedule(): void {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  }

  /** Whether the whole row is inside the viewport. */
  function inView(index: number): boolean {
    return index >= 0 && index * ROW >= viewport.scrollTop && (index + 1) * ROW <= viewport.scrollTop + viewport.clientHeight;
  }

  /** Scrolls the least that brings the whole row into the viewport. */
  function scrollIntoView(index: number): void {
    const y = index * ROW;
    if (y < viewport.scrollTop) viewport.scrollTop = y;
    else if (y + ROW > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = y + ROW - viewport.clientHeight;
  }

  function moveFocus(index: number): void {
    focusIndex = Math.max(0, Math.min(rows.size - 1, index));
    scrollIntoView(focusIndex);
    render();
    rowsEl.querySelector<HTMLElement>(`[data-index="${focusIndex}"]`)?.focus({ preventScroll: true });
  }

  function rowOf(target: EventTarget | null): TreeRow | undefined {
    const item = (target as HTMLElement | null)?.closest<HTMLElement>('.tree-row');
    if (!item) return undefined;
    focusIndex = Number(item.dataset.index);
    return rows.at(focusIndex);
  }

  viewport.addEventListener('scroll', schedule, { passive: true });
  new ResizeObserver(schedule).observe(viewport);
  viewport.addEventListener('click', (event) => {
    const row = rowOf(event.target);
    if (row) actions.activate(row.node);
  });
  viewport.addEventListener('contextmenu', (event) => {
    const row = rowOf(event.target);
    if (!row) return;
    event.preventDefault();
    actions.switchWithSummary(row.node);
  });
  viewport.addEventListener('keydown', (event) => {
    const row = rows.at(focusIndex);
    switch (event.key) {
      case 'ArrowDown':
        moveFocus(focusIndex + 1);
        break;
      case 'ArrowUp':
        moveFocus(focusIndex - 1);
        break;
      case 'Home':
        moveFocus(0);
        break;
      case 'End':
        moveFocus(rows.size - 1);
        break;
      case 'PageDown':
        moveFocus(focusIndex + Math.floor(viewport.clientHeight / ROW));
        break;
      case 'PageUp':
        moveFocus(focusIndex - Math.floor(viewport.clientHeight / ROW));
        break;
      case 'Enter':
      case ' ':
        if (row) actions.activate(row.node);
        break;
      case 'ContextMenu':
        if (row) actions.switchWithSummary(row.node);
        break;
      case 'F10':
        if (!event.shiftKey || !row) return;
        actions.switchWithSummary(row.node);
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  function setCount(nodes: readonly TreeNode[]): void {
    const branches = modelOfNodes(nodes)?.branchPoints ?? nodes.filter((node) => node.childCount > 1).length;
    count.textContent = entryCount(nodes.length, branches);
    count.title = count.textContent;
  }

  function setMode(next: TreeMode): void {
    mode = next;
    root.dataset.mode = next;
    viewport.hidden = next !== 'list';
    graph.root.hidden = next !== 'graph';
    graph.toolbar.hidden = next !== 'graph';
    modes.list.setAttribute('aria-pressed', String(next === 'list'));
    modes.graph.setAttribute('aria-pressed', String(next === 'graph'));
    modeChanged?.(next);
    if (root.hidden) return;
    if (next === 'graph') graph.shown();
    else if (stale) relayout(stale);
    else schedule();
  }

  function relayout(nodes: readonly TreeNode[]): void {
    // Follow the leaf only when the user had it in view (not when they scrolled elsewhere in the tree).
    const followLeaf = inView(leafRow);
    stale = undefined;
    tree = modelOfNodes(nodes) ?? standaloneModel(nodes);
    // O(1) when the patches since the last update kept the rows; a full layout when one could not.
    rows = rowsOf(tree);
    spacer.style.height = `${rows.size * ROW}px`;
    const leaf = rows.indexOf(tree.leafId);
    if (followLeaf && leaf >= 0) scrollIntoView(leaf);
    leafRow = leaf;
    if (focusIndex >= rows.size || !rowsEl.contains(document.activeElement)) focusIndex = Math.max(0, leaf);
    render();
  }

  setMode(mode);

  return {
    root,
    update(nodes) {
      setCount(nodes);
      graph.update(nodes);
      if (root.hidden || mode !== 'list') stale = nodes;
      else relayout(nodes);
    },
    setOpen(open) {
      root.hidden = !open;
      if (open && mode === 'graph') graph.shown();
      else if (open) {
        if (stale) relayout(stale);
        // Bring the current position into view.
        const leaf = rows.indexOf(tree.leafId);
        if (leaf >= 0) viewport.scrollTop = Math.max(0, leaf * ROW - viewport.clientHeight / 2);
        leafRow = leaf;
        schedule();
      }
    },
    focus() {
      if (mode === 'graph') graph.focus();
      else moveFocus(focusIndex);
    },
  };
}

/**
 * A model for nodes that are not a store's tree (no patches will keep it): laid out in full on every
 * update, as a copy so that changes to the caller's array cannot leave stale rows behind.
 */
function standaloneModel(nodes: readonly TreeNode[]): TreeModel {
  return treeModelOf(nodes.find((node) => node.isLeaf)?.id ?? null, [...nodes]);
}
