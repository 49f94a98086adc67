// The conversation tree drawn as a graph (in the chat's tree panel and in the Conversation Tree editor
// tab): a node per turn in lanes like a git graph, the active path highlighted, compactions and branch
// summaries with marks of their own, labels, hover previews, zoom and a minimap. Keyboard: Up/Down move
// to the parent / child turn, Left/Right to sibling branches (else the neighbouring lane), Space expands a
// turn to its entries, Enter switches there (the caller's flow: the summary/files dialog), Shift+F10 or
// the context menu key always asks. Per frame the cost is O(rows in view + lanes · log rows): the layout
// is kept up to date by the tree patches (graph/graph-layout.ts) and only the rows in view are drawn.
import type { TreeNode } from '../../src/protocol';
import { el } from '../dom';
import { GraphGeometry, ZOOM_MAX, ZOOM_MIN } from '../graph/graph-geometry';
import type { GraphLayout } from '../graph/graph-layout';
import { graphOf, modelOfNodes, treeModelOf, type TreeModel } from '../tree-patch';
import { createGraphHover } from './tree-graph-hover';
import { drawWindow } from './tree-graph-draw';
import { moveFrom, type GraphFocus } from './tree-graph-keys';
import { createMinimap } from './tree-minimap';
import { t } from '../l10n';

/** Entry rows an expanded turn shows at most. */
const MAX_ENTRY_ROWS = 200;
const OVERSCAN = 6;
const SVG_NS = 'http://www.w3.org/2000/svg';

export interface GraphActions {
  /** plain click / Enter on a turn or an entry */
  activate(node: TreeNode): void;
  /** context action: always the dialog */
  switchWithSummary(node: TreeNode): void;
}

export interface TreeGraph {
  root: HTMLElement;
  /** zoom buttons and the jump to the current position, for the owner's header */
  toolbar: HTMLElement;
  update(nodes: readonly TreeNode[]): void;
  /** the graph became visible: lay out what arrived while hidden, show the current position */
  shown(): void;
  focus(): void;
  /** focuses the turn of an entry, if it is in the graph */
  reveal(entryId: string): boolean;
}

export function createTreeGraph(actions: GraphActions): TreeGraph {
  const geometry = new GraphGeometry();
  const spacer = el('div', { class: 'graph-spacer' });
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.classList.add('graph-svg');
  svg.setAttribute('aria-hidden', 'true');
  const labels = el('div', { class: 'graph-labels' });
  const scroller = el('div', { class: 'graph-scroll', role: 'tree', 'aria-label': t('Conversation graph'), tabindex: '-1' }, spacer, svg, labels);
  const minimap = createMinimap({ scrollTo: (fraction) => (scroller.scrollTop = Math.max(0, fraction * scroller.scrollHeight - scroller.clientHeight / 2)) });
  const hover = createGraphHover();
  const root = el('div', { class: 'graph-view' }, el('div', { class: 'graph-body' }, scroller, minimap.root), hover.root);
  const zoomLabel = el('span', { class: 'graph-zoom-label', 'aria-live': 'polite' }, '100%');
  const button = (label: string, title: string, onClick: () => void, content: string) => {
    const b = el('button', { class: 'graph-tool', type: 'button', title, 'aria-label': label }, content);
    b.addEventListener('click', onClick);
    return b;
  };
  const toolbar = el(
    'div',
    { class: 'graph-toolbar' },
    button(t('Zoom out'), t('Zoom out (-)'), () => zoomBy(-0.2), '−'),
    zoomLabel,
    button(t('Zoom in'), t('Zoom in (+)'), () => zoomBy(0.2), '+'),
    button(t('Go to the current position'), t('Go to the current position'), () => goToLeaf(), '◎'),
  );

  let model: TreeModel = treeModelOf(null, []);
  let layout: GraphLayout = graphOf(model);
  let stale: readonly TreeNode[] | undefined;
  let focus: GraphFocus = { row: 0, entry: -1 };
  const expanded = new Set<number>();
  let frame = 0;
  let leafRow = -1;
  const nodeOf = (id: string) => {
    const at = model.positions.get(id);
    return at === undefined ? undefined : model.nodes[at];
  };

  function syncExpanded(): void {
    const shown = new Map<number, number>();
    for (const row of expanded) {
      const turn = layout.turns[row];
      if (turn) shown.set(row, Math.min(turn.entries.length, MAX_ENTRY_ROWS));
    }
    geometry.setExpanded(shown);
    spacer.style.height = `${geometry.height(layout.turns.length)}px`;
  }

  function render(): void {
    const rows = layout.turns.length;
    root.dataset.turns = String(rows);
    root.dataset.lanes = String(layout.lanes);
    if (rows === 0 || root.offsetParent === null) {
      labels.replaceChildren();
      svg.replaceChildren();
      return;
    }
    const started = performance.now();
    const first = Math.max(0, geometry.rowAt(scroller.scrollTop, rows) - OVERSCAN);
    const last = Math.min(rows - 1, geometry.rowAt(scroller.scrollTop + scroller.clientHeight, rows) + OVERSCAN);
    const drawn = drawWindow({ layout, geometry, nodeOf, leafRow, first, last, width: scroller.clientWidth, focus });
    svg.style.top = `${drawn.top}px`;
    svg.setAttribute('height', String(Math.max(1, drawn.height)));
    svg.setAttribute('width', String(scroller.clientWidth));
    // Numbers and fixed class names only (tree-graph-draw.ts): no session text goes through innerHTML.
    svg.innerHTML = drawn.svg;
    const hadFocus = labels.contains(document.activeElement);
    labels.replaceChildren(...drawn.labels);
    if (hadFocus) focusedElement()?.focus({ preventScroll: true });
    // the minimap only when there is somewhere to scroll: at 300 px its width is better spent on labels
    const overflows = scroller.scrollHeight > scroller.clientHeight;
    if (minimap.root.hidden === overflows) {
      minimap.root.hidden = !overflows;
      if (overflows) minimap.draw(layout, nodeOf);
    }
    minimap.viewport(scroller.scrollTop / Math.max(1, scroller.scrollHeight), scroller.clientHeight / Math.max(1, scroller.scrollHeight));
    // read by bench/tree-graph.mjs (frame cost while panning)
    performance.measure('arbor:graph:render', { start: started });
  }

  function schedule(): void {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  }

  function focusedElement(): HTMLElement | null {
    return labels.querySelector<HTMLElement>(`[data-row="${focus.row}"][data-entry="${focus.entry}"]`);
  }

  function focusedY(): { top: number; height: number } {
    if (focus.entry < 0) return { top: geometry.top(focus.row), height: geometry.rowHeight };
    return { top: geometry.top(focus.row) + geometry.rowHeight + focus.entry * geometry.entryHeight, height: geometry.entryHeight };
  }

  function scrollToFocus(center = false): void {
    const { top, height } = focusedY();
    if (center) scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 2);
    else if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (top + height > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = top + height - scroller.clientHeight;
  }

  function moveFocus(next: GraphFocus, center = false): void {
    if (layout.turns.length === 0) return;
    focus = next;
    scrollToFocus(center);
    render();
    focusedElement()?.focus({ preventScroll: true });
    // the preview would cover the rows the keys move to; the focused item's label carries its text
    hover.hide();
  }

  function toggle(row: number): void {
    if (expanded.has(row)) expanded.delete(row);
    else if ((layout.turns[row]?.entries.length ?? 0) > 1) expanded.add(row);
    else return;
    if (focus.row === row) focus = { row, entry: -1 };
    syncExpanded();
    render();
    minimap.draw(layout, nodeOf);
  }

  function nodeAt(target: GraphFocus): TreeNode | undefined {
    const turn = layout.turns[target.row];
    if (!turn) return undefined;
    // A turn stands for where it ends: switching to it continues after its last entry.
    return nodeOf(target.entry < 0 ? turn.entries.at(-1)! : turn.entries[target.entry]!);
  }

  function targetOf(event: Event): GraphFocus | undefined {
    const item = (event.target as HTMLElement | null)?.closest<HTMLElement>('[data-row]');
    if (!item) return undefined;
    return { row: Number(item.dataset.row), entry: Number(item.dataset.entry) };
  }

  function zoomBy(delta: number): void {
    const anchor = focusedY().top - scroller.scrollTop;
    geometry.zoom = Math.round(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, geometry.zoom + delta)) * 10) / 10;
    root.style.setProperty('--graph-zoom', String(geometry.zoom));
    zoomLabel.textContent = `${Math.round(geometry.zoom * 100)}%`;
    syncExpanded();
    scroller.scrollTop = Math.max(0, focusedY().top - anchor);
    render();
  }

  function goToLeaf(): void {
    if (leafRow >= 0) moveFocus({ row: leafRow, entry: -1 }, true);
  }

  function showHover(item: HTMLElement | null | undefined): void {
    const target = item ? { row: Number(item.dataset.row), entry: Number(item.dataset.entry) } : undefined;
    const turn = target && layout.turns[target.row];
    if (!item || !turn || target.entry >= 0) return hover.hide();
    hover.show(turn, nodeOf, item, root);
  }

  scroller.addEventListener('scroll', () => {
    hover.hide();
    schedule();
  }, { passive: true });
  new ResizeObserver(() => {
    schedule();
    minimap.draw(layout, nodeOf);
  }).observe(scroller);
  scroller.addEventListener('click', (event) => {
    const target = targetOf(event);
    if (!target) return;
    focus = target;
    if ((event.target as HTMLElement).closest('.graph-expand')) return toggle(target.row);
    const node = nodeAt(target);
    if (node) actions.activate(node);
  });
  scroller.addEventListener('contextmenu', (event) => {
    const target = targetOf(event);
    const node = target && nodeAt(target);
    if (!node) return;
    event.preventDefault();
    focus = target;
    actions.switchWithSummary(node);
  });
  scroller.addEventListener('mouseover', (event) => showHover((event.target as HTMLElement).closest<HTMLElement>('[data-row]')));
  scroller.addEventListener('mouseleave', () => hover.hide());
  scroller.addEventListener('focusout', () => hover.hide());
  scroller.addEventListener('wheel', (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    zoomBy(event.deltaY < 0 ? 0.1 : -0.1);
  }, { passive: false });
  scroller.addEventListener('keydown', (event) => {
    const page = Math.max(1, Math.floor(scroller.clientHeight / geometry.rowHeight));
    const next = moveFrom(layout, focus, event.key, { page, nodeOf, entriesShown: (row) => geometry.entriesShown(row) });
    if (next) moveFocus(next);
    else if (event.key === ' ') toggle(focus.row);
    else if (event.key === 'Enter') {
      const node = nodeAt(focus);
      if (node) actions.activate(node);
    } else if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      const node = nodeAt(focus);
      if (node) actions.switchWithSummary(node);
    } else if (event.key === '+' || event.key === '=') zoomBy(0.2);
    else if (event.key === '-') zoomBy(-0.2);
    else return;
    event.preventDefault();
  });
  // A theme change re-colours the minimap (its canvas reads the theme's colours when it draws).
  new MutationObserver(() => minimap.draw(layout, nodeOf)).observe(document.body, { attributes: true, attributeFilter: ['class'] });

  function relayout(nodes: readonly TreeNode[]): void {
    stale = undefined;
    const followLeaf = leafRow < 0 || inView(leafRow);
    model = modelOfNodes(nodes) ?? treeModelOf(nodes.find((node) => node.isLeaf)?.id ?? null, [...nodes]);
    const before = layout;
    layout = graphOf(model);
    // A fresh layout may give rows other turns: the expanded ones and the focus no longer mean the same.
    if (layout !== before) {
      expanded.clear();
      focus = { row: 0, entry: -1 };
    }
    leafRow = layout.rowOf(model.leafId);
    if (!labels.contains(document.activeElement) && leafRow >= 0) focus = { row: leafRow, entry: -1 };
    if (focus.row >= layout.turns.length) focus = { row: Math.max(0, layout.turns.length - 1), entry: -1 };
    syncExpanded();
    if (followLeaf && leafRow >= 0 && !inView(leafRow)) scroller.scrollTop = Math.max(0, geometry.top(leafRow) - scroller.clientHeight / 2);
    render();
    minimap.draw(layout, nodeOf);
  }

  function inView(row: number): boolean {
    const top = geometry.top(row);
    return top >= scroller.scrollTop && top + geometry.rowHeight <= scroller.scrollTop + scroller.clientHeight;
  }

  return {
    root,
    toolbar,
    update(nodes) {
      if (root.offsetParent === null) stale = nodes;
      else relayout(nodes);
    },
    shown() {
      if (stale) relayout(stale);
      if (leafRow >= 0) scroller.scrollTop = Math.max(0, geometry.top(leafRow) - scroller.clientHeight / 2);
      render();
      minimap.draw(layout, nodeOf);
    },
    focus() {
      moveFocus(focus);
    },
    reveal(entryId) {
      const row = layout.rowOf(entryId);
      if (row < 0) return false;
      moveFocus({ row, entry: -1 }, true);
      return true;
    },
  };
}
