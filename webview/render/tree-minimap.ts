// The conversation graph's minimap: every turn as a dot in its lane on a canvas beside the graph, the
// active path in the link colour, the part in view as a frame; a click or drag there scrolls the graph.
// Drawing is O(turns), so it is coalesced (at most one draw per DRAW_DELAY_MS) and never done while
// panning: the frame is a separate element moved on scroll. Colours are read from the theme's CSS
// variables at each draw (the caller redraws on a theme change).
import type { TreeNode } from '../../src/protocol';
import { el } from '../dom';
import type { GraphLayout } from '../graph/graph-layout';
import { t } from '../l10n';

const DRAW_DELAY_MS = 150;
/** pixels per row and per lane at most (a short session is not stretched over the whole height) */
const MAX_ROW = 5;
const MAX_LANE = 6;

export interface Minimap {
  root: HTMLElement;
  /** redraws soon (coalesced) */
  draw(layout: GraphLayout, nodeOf: (id: string) => TreeNode | undefined): void;
  /** moves the frame: the view's top and height as fractions of the whole graph */
  viewport(top: number, height: number): void;
}

export function createMinimap(actions: { scrollTo(fraction: number): void }): Minimap {
  const canvas = el('canvas', { class: 'graph-minimap-canvas', 'aria-hidden': 'true' });
  const frame = el('div', { class: 'graph-minimap-frame' });
  const root = el('div', { class: 'graph-minimap', title: t('Minimap: click or drag to scroll') }, canvas, frame);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest: { layout: GraphLayout; nodeOf: (id: string) => TreeNode | undefined } | undefined;
  /** the height the rows take on the minimap */
  let extent = 0;
  let view = { top: 0, height: 1 };

  function paint(): void {
    timer = undefined;
    if (!latest || root.clientHeight === 0) return;
    extent = paintTurns(canvas, root.clientWidth, root.clientHeight, latest.layout, latest.nodeOf);
    placeFrame();
  }

  function placeFrame(): void {
    frame.style.top = `${view.top * extent}px`;
    frame.style.height = `${Math.max(6, view.height * extent)}px`;
  }

  function scrollFrom(event: PointerEvent): void {
    const y = event.clientY - root.getBoundingClientRect().top;
    actions.scrollTo(Math.max(0, Math.min(1, y / Math.max(1, extent))));
  }

  root.addEventListener('pointerdown', (event) => {
    root.setPointerCapture(event.pointerId);
    scrollFrom(event);
  });
  root.addEventListener('pointermove', (event) => {
    if (root.hasPointerCapture(event.pointerId)) scrollFrom(event);
  });

  return {
    root,
    draw(layout, nodeOf) {
      latest = { layout, nodeOf };
      timer ??= setTimeout(paint, DRAW_DELAY_MS);
    },
    viewport(top, height) {
      view = { top, height };
      placeFrame();
    },
  };
}

/** Draws every turn; returns the height the rows take. */
function paintTurns(canvas: HTMLCanvasElement, width: number, height: number, layout: GraphLayout, nodeOf: (id: string) => TreeNode | undefined): number {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return 0;
  ctx.scale(ratio, ratio);
  ctx.clearRect(0, 0, width, height);
  const rows = layout.turns.length;
  const rowH = Math.min(MAX_ROW, height / Math.max(1, rows));
  const laneW = Math.min(MAX_LANE, (width - 6) / Math.max(1, layout.lanes));
  const style = getComputedStyle(document.body);
  const colour = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const inactive = colour('--vscode-descriptionForeground', '#888');
  const active = colour('--vscode-textLink-foreground', '#3794ff');
  const special = colour('--vscode-charts-purple', '#b180d7');
  const size = Math.max(2, laneW - 1);
  for (const turn of layout.turns) {
    const first = nodeOf(turn.entries[0]!);
    const onPath = first?.onActivePath ?? false;
    ctx.globalAlpha = onPath ? 1 : 0.55;
    ctx.fillStyle = first?.kind === 'compaction' || first?.kind === 'branch_summary' ? special : onPath ? active : inactive;
    ctx.fillRect(3 + turn.lane * laneW, turn.row * rowH, size, Math.max(1.5, rowH - 0.5));
  }
  return rows * rowH;
}
