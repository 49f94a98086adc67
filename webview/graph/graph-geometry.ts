// Where the graph's rows are on screen: fixed-height rows scaled by the zoom, plus the entry rows of the
// turns the user expanded (few), so a row's y and the row at a y are O(log rows), and what is visible in
// a window is found without walking the session (per lane, a binary search over its edge spans).
import type { GraphLayout } from './graph-layout';

export const ZOOM_MIN = 0.6;
export const ZOOM_MAX = 1.8;

/** A turn's edge in its lane: from its parent's row (its own for a root) down to its row. */
export interface Span {
  row: number;
  from: number;
}

export class GraphGeometry {
  zoom = 1;
  /** expanded rows, ascending, and how many entry rows each shows */
  private expandedRows: number[] = [];
  private entryCounts: number[] = [];
  /** extraBefore[i]: entry rows of expandedRows[0..i-1] */
  private extraBefore: number[] = [0];

  get rowHeight(): number {
    return Math.round(26 * this.zoom);
  }

  get entryHeight(): number {
    return Math.round(20 * this.zoom);
  }

  /** The expanded turns (row → entry rows shown); O(expanded) per call. */
  setExpanded(expanded: ReadonlyMap<number, number>): void {
    this.expandedRows = [...expanded.keys()].sort((a, b) => a - b);
    this.entryCounts = this.expandedRows.map((row) => expanded.get(row)!);
    this.extraBefore = [0];
    for (const count of this.entryCounts) this.extraBefore.push(this.extraBefore.at(-1)! + count);
  }

  /** Entry rows shown under `row` (0 when collapsed). */
  entriesShown(row: number): number {
    const i = lowerBound(this.expandedRows, row);
    return this.expandedRows[i] === row ? this.entryCounts[i]! : 0;
  }

  /** The y of a row's top. */
  top(row: number): number {
    return row * this.rowHeight + this.extraBefore[lowerBound(this.expandedRows, row)]! * this.entryHeight;
  }

  /** The y of a row's node (the middle of its own line). */
  center(row: number): number {
    return this.top(row) + this.rowHeight / 2;
  }

  height(rows: number): number {
    return this.top(rows);
  }

  /** The row whose block (its line and its entry rows) contains `y`, clamped to [0, rows - 1]. */
  rowAt(y: number, rows: number): number {
    let lo = 0;
    let hi = rows - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.top(mid) <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }
}

/** The edge spans of one lane that reach into rows [first, last], top to bottom. */
export function spansIn(layout: GraphLayout, lane: number, first: number, last: number): Span[] {
  const rows = layout.laneRows[lane]!;
  const out: Span[] = [];
  for (let i = lowerBound(rows, first); i < rows.length; i++) {
    const row = rows[i]!;
    const parent = layout.turns[row]!.parent;
    const from = parent >= 0 ? parent : row;
    if (from > last) break;
    out.push({ row, from });
  }
  return out;
}

/** The first index whose value is ≥ `value` in an ascending array. */
export function lowerBound(values: readonly number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
