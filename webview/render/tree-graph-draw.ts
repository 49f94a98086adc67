// Draws the rows of the conversation graph that are in view: lines and node marks as one SVG (numbers and
// fixed class names only, no text from the session), labels as HTML (so text ellipsizes, wraps in the
// preview and can take focus). Colours come from CSS classes that read VS Code's theme variables.
import type { TreeNode } from '../../src/protocol';
import { el } from '../dom';
import { spansIn, type GraphGeometry } from '../graph/graph-geometry';
import type { GraphLayout, Turn } from '../graph/graph-layout';
import { turnText } from '../graph/graph-text';
import { icon as svgIcon } from '../icons';
import { filesBadge, kindIcon, kindName } from './tree-kinds';
import { t } from '../l10n';

/** Lane colours cycle through this many classes (lane-c0 … lane-c5 in tree-graph.css). */
const LANE_COLOURS = 6;
const PAD = 6;

export interface DrawInput {
  layout: GraphLayout;
  geometry: GraphGeometry;
  nodeOf: (id: string) => TreeNode | undefined;
  leafRow: number;
  first: number;
  last: number;
  /** the drawing area's width */
  width: number;
  /** the focused row and entry (-1: the turn itself) */
  focus: { row: number; entry: number };
}

export interface Drawn {
  svg: string;
  labels: HTMLElement[];
  /** the y the SVG's origin stands for */
  top: number;
  height: number;
}

/** Lanes in use anywhere in rows [first, last] (their nodes or edges passing through). */
function lanesInView(layout: GraphLayout, first: number, last: number): number {
  let lanes = 0;
  for (let lane = 0; lane < layout.lanes; lane++) if (spansIn(layout, lane, first, last).length > 0) lanes = lane + 1;
  return Math.max(1, lanes);
}

/** Lane width: full size while the lanes fit a third of the width, narrower after that (never below 5 px). */
export function laneWidth(zoom: number, lanes: number, width: number): number {
  const budget = Math.max(36, width * 0.34) - PAD * 2;
  return Math.max(5, Math.min(Math.round(16 * zoom), budget / lanes));
}

export function drawWindow(input: DrawInput): Drawn {
  const { layout, geometry: g, first, last } = input;
  const lanes = lanesInView(layout, first, last);
  const laneW = laneWidth(g.zoom, lanes, input.width);
  const x = (lane: number) => PAD + lane * laneW + laneW / 2;
  const top = g.top(first);
  const height = g.top(last + 1) - top;
  const y = (row: number) => g.center(row) - top;
  const edges: string[] = [];
  const activeEdges: string[] = [];
  for (let lane = 0; lane < layout.lanes; lane++) {
    for (const span of spansIn(layout, lane, first, last)) {
      if (span.from === span.row) continue;
      const child = layout.turns[span.row]!;
      const active = input.nodeOf(child.entries[0]!)?.onActivePath ?? false;
      const path = edgePath(x(layout.turns[span.from]!.lane), x(lane), y(span.from), y(span.row), g.rowHeight);
      (active ? activeEdges : edges).push(`<path class="edge lane-c${lane % LANE_COLOURS}${active ? ' active' : ''}" d="${path}"/>`);
    }
  }
  const marks: string[] = [];
  const labels: HTMLElement[] = [];
  const labelLeft = Math.ceil(PAD * 2 + lanes * laneW);
  for (let row = first; row <= last; row++) {
    const turn = layout.turns[row]!;
    const cx = x(turn.lane);
    const shown = g.entriesShown(row);
    marks.push(...entryMarks(turn, cx, y(row), shown, g));
    marks.push(nodeMark(turn, input, cx, y(row), g.zoom));
    labels.push(...turnLabels(turn, input, labelLeft, shown));
  }
  return { svg: [...edges, ...activeEdges, ...marks].join(''), labels, top, height };
}

/** Straight down a lane, or out of the parent's lane in a curve and then down the child's. */
function edgePath(x0: number, x1: number, y0: number, y1: number, rowHeight: number): string {
  if (x0 === x1) return `M${x0} ${y0}V${y1}`;
  const bend = Math.min(y0 + rowHeight, y1);
  const mid = (y0 + bend) / 2;
  return `M${x0} ${y0}C${x0} ${mid} ${x1} ${mid} ${x1} ${bend}V${y1}`;
}

function nodeMark(turn: Turn, input: DrawInput, cx: number, cy: number, zoom: number): string {
  const first = input.nodeOf(turn.entries[0]!);
  const active = first?.onActivePath ? ' active' : '';
  const lane = ` lane-c${turn.lane % LANE_COLOURS}`;
  const r = 4.5 * zoom;
  const ring = turn.row === input.leafRow ? `<circle class="leaf-ring" cx="${cx}" cy="${cy}" r="${r + 3.5 * zoom}"/>` : '';
  switch (first?.kind) {
    case 'compaction':
      return `${ring}<rect class="node compaction${active}" x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" rx="${zoom * 1.5}"/>`;
    case 'branch_summary':
      return `${ring}<path class="node summary${active}" d="M${cx} ${cy - r * 1.3}L${cx + r * 1.3} ${cy}L${cx} ${cy + r * 1.3}L${cx - r * 1.3} ${cy}Z"/>`;
    case 'user':
      return `${ring}<circle class="node user${lane}${active}" cx="${cx}" cy="${cy}" r="${r}"/>`;
    default:
      return `${ring}<circle class="node other${lane}${active}" cx="${cx}" cy="${cy}" r="${r * 0.7}"/>`;
  }
}

/** An expanded turn: its entries as small dots down its lane. */
function entryMarks(turn: Turn, cx: number, cy: number, shown: number, g: GraphGeometry): string[] {
  if (shown === 0) return [];
  const out: string[] = [];
  const entryY = (i: number) => cy + g.rowHeight / 2 + i * g.entryHeight + g.entryHeight / 2;
  out.push(`<path class="entry-line lane-c${turn.lane % LANE_COLOURS}" d="M${cx} ${cy}V${entryY(shown - 1)}"/>`);
  for (let i = 0; i < shown; i++) out.push(`<circle class="entry-dot" cx="${cx}" cy="${entryY(i)}" r="${2.2 * g.zoom}"/>`);
  return out;
}

function turnLabels(turn: Turn, input: DrawInput, left: number, shown: number): HTMLElement[] {
  const text = turnText(turn, input.nodeOf, input.leafRow);
  if (!text) return [];
  const { geometry: g, focus } = input;
  const focused = focus.row === turn.row && focus.entry < 0;
  const branches = turn.children.length;
  const kind = kindName(text.first.kind);
  const classes = ['graph-node', `kind-${text.first.kind}`];
  if (text.first.onActivePath) classes.push('active');
  if (text.hasLeaf) classes.push('leaf');
  const label = el(
    'div',
    {
      class: classes.join(' '),
      role: 'treeitem',
      'aria-expanded': turn.entries.length > 1 ? String(shown > 0) : undefined,
      'aria-current': text.hasLeaf ? 'location' : undefined,
      'aria-selected': String(focused),
      tabindex: focused ? '0' : '-1',
      'data-row': String(turn.row),
      'data-entry': '-1',
    },
    turn.entries.length > 1
      ? el('button', { class: 'graph-expand', type: 'button', tabindex: '-1', 'aria-hidden': 'true', title: shown > 0 ? t('Hide the entries') : t('Show the {0} entries', turn.entries.length) }, shown > 0 ? '▾' : '▸')
      : el('span', { class: 'graph-expand-space' }),
    text.label ? el('span', { class: 'graph-chip' }, srOnly(t('{0}, labelled ', kind)), text.label, srOnly(': ')) : '',
    el('span', { class: 'graph-title' }, text.label ? '' : srOnly(t('{0}: ', kind)), text.title),
    text.reply ? el('span', { class: 'graph-reply' }, srOnly(t('. Reply: ')), text.reply) : '',
    shown === 0 ? turnFilesBadge(turn) : '',
    branches > 1 ? el('span', { class: 'graph-branches', title: t('{0} branches', branches) }, svgIcon('branch'), srOnly(', '), String(branches), srOnly(t(' branches'))) : '',
    text.hasLeaf ? hereMark() : '',
  );
  placeRow(label, g.top(turn.row), left, g.rowHeight);
  const out: HTMLElement[] = [label];
  for (let i = 0; i < shown; i++) out.push(entryLabel(turn, i, input, left));
  return out;
}

/** A collapsed turn carries its steps' file counts (an expanded one shows them on the steps). */
function turnFilesBadge(turn: Turn): HTMLElement | '' {
  const { fileChanges: n, fileSteps: steps } = turn;
  if (steps === 0) return '';
  const [text, title] = steps === 1 ? (n === 1 ? [t('1 file'), t('1 file changed')] : [t('{0} files', n), t('{0} files changed', n)]) : [t('{0} file changes', n), t('{0} file changes in {1} steps', n, steps)];
  return el('span', { class: 'graph-files', title }, text);
}

function entryLabel(turn: Turn, index: number, input: DrawInput, left: number): HTMLElement {
  const { geometry: g } = input;
  const node = input.nodeOf(turn.entries[index]!);
  const focused = input.focus.row === turn.row && input.focus.entry === index;
  const kind = node ? kindName(node.kind) : t('Entry');
  const row = el(
    'div',
    {
      class: `graph-entry${node?.onActivePath ? ' active' : ''}${node?.isLeaf ? ' leaf' : ''}`,
      role: 'treeitem',
      'aria-level': '2',
      'aria-selected': String(focused),
      tabindex: focused ? '0' : '-1',
      'data-row': String(turn.row),
      'data-entry': String(index),
    },
    el('span', { class: `graph-entry-icon icon-${node?.kind ?? 'other'}`, 'aria-hidden': 'true' }, node ? kindIcon(node.kind) : '·'),
    srOnly(t('{0}: ', kind)),
    node?.label ? el('span', { class: 'graph-chip' }, node.label) : '',
    el('span', { class: 'graph-entry-text' }, node?.preview || kind),
    filesBadge(node, 'graph-files'),
    node?.isLeaf ? hereMark() : '',
  );
  placeRow(row, g.top(turn.row) + g.rowHeight + index * g.entryHeight, left, g.entryHeight);
  return row;
}

// A treeitem is named by its content (what is seen, in order, plus these hidden words), never by an
// aria-label that would differ from the visible text (axe: label-content-name-mismatch).
function srOnly(text: string): HTMLElement {
  return el('span', { class: 'sr-only' }, text);
}

function hereMark(): HTMLElement {
  return el('span', { class: 'graph-here' }, t('here'), srOnly(t(' (current position)')));
}

function placeRow(row: HTMLElement, top: number, left: number, height: number): void {
  row.style.top = `${top}px`;
  row.style.left = `${left}px`;
  row.style.height = `${height}px`;
}
