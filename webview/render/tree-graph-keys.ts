// Where the arrow keys go in the conversation graph: Up/Down along the tree (parent turn; into an expanded
// turn's entries, then to the child turn on the active path, else the first), Left/Right to the previous /
// next sibling branch, or when there is none to the nearest turn in the neighbouring lane; Home/End and
// PageUp/PageDown by rows. Each move is O(children + log rows).
import type { TreeNode } from '../../src/protocol';
import { lowerBound } from '../graph/graph-geometry';
import type { GraphLayout } from '../graph/graph-layout';

export interface GraphFocus {
  row: number;
  /** index into the turn's entries; -1 for the turn itself */
  entry: number;
}

export interface KeyContext {
  /** rows per page */
  page: number;
  nodeOf: (id: string) => TreeNode | undefined;
  entriesShown: (row: number) => number;
}

/** The focus after `key`, or undefined when the key is not a move. */
export function moveFrom(layout: GraphLayout, focus: GraphFocus, key: string, ctx: KeyContext): GraphFocus | undefined {
  const turns = layout.turns;
  const at = (row: number): GraphFocus => ({ row: Math.max(0, Math.min(turns.length - 1, row)), entry: -1 });
  const turn = turns[focus.row];
  if (!turn) return undefined;
  switch (key) {
    case 'ArrowUp':
      if (focus.entry >= 0) return { row: focus.row, entry: focus.entry - 1 };
      return turn.parent >= 0 ? at(turn.parent) : focus;
    case 'ArrowDown': {
      const shown = ctx.entriesShown(focus.row);
      if (focus.entry + 1 < shown) return { row: focus.row, entry: focus.entry + 1 };
      const child = turn.children.find((row) => ctx.nodeOf(turns[row]!.entries[0]!)?.onActivePath) ?? turn.children[0];
      return child === undefined ? focus : at(child);
    }
    case 'ArrowLeft':
    case 'ArrowRight':
      return sideways(layout, focus.row, key === 'ArrowLeft' ? -1 : 1);
    case 'Home':
      return at(0);
    case 'End':
      return at(turns.length - 1);
    case 'PageUp':
      return at(focus.row - ctx.page);
    case 'PageDown':
      return at(focus.row + ctx.page);
    default:
      return undefined;
  }
}

/** The sibling branch in that direction, else the nearest turn in the neighbouring lane, else stay. */
function sideways(layout: GraphLayout, row: number, direction: -1 | 1): GraphFocus {
  const turn = layout.turns[row]!;
  const siblings = turn.parent >= 0 ? layout.turns[turn.parent]!.children : [];
  const sibling = siblings[siblings.indexOf(row) + direction];
  if (sibling !== undefined) return { row: sibling, entry: -1 };
  const lane = layout.laneRows[turn.lane + direction];
  if (!lane || lane.length === 0) return { row, entry: -1 };
  const lo = lowerBound(lane, row);
  const below = lane[lo];
  const above = lane[lo - 1];
  const nearest = below === undefined ? above! : above === undefined || below - row <= row - above ? below : above;
  return { row: nearest, entry: -1 };
}
