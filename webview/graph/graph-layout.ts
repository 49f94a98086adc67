// Lays the session tree out as a graph with lanes, like a git graph: one node per turn (a user message, a
// compaction or a branch summary, with the entries that follow it until the next one or a branch), one
// row per turn in the order turns began, and a lane (column) per line of descent.
//
// Why it stays cheap as a session grows: a turn's row and lane are decided once, when its first entry
// arrives, from what is above it only. New entries always come last (the host sends them in file order),
// so an append either joins the newest turns or becomes a new last row: O(lanes) per append, never
// O(session). A full layout is the same appends in file order (parents first), so the kept layout and a
// fresh one agree by construction; whatever breaks that (an entry that adopts orphans, a moved parent,
// duplicate ids) is left to a fresh layout (GraphLayout.update returns false).
//
// Lanes: a child turn continues its parent's lane when nothing has used that lane since the parent;
// otherwise it takes the lowest lane unused since the parent's row (the edge runs down that lane from the
// row after the parent to the child). So no edge passes through another turn's node, and lanes are reused
// once their line has ended.
import type { TreeNode, TreeNodeKind } from '../../src/protocol';

/** Entry kinds that begin a turn of their own (anything else joins the turn it follows). */
const TURN_STARTS: ReadonlySet<TreeNodeKind> = new Set(['user', 'compaction', 'branch_summary']);

export interface Turn {
  row: number;
  lane: number;
  /** entry ids in path order; entries[0] began the turn */
  entries: string[];
  /** row of the parent turn, -1 for a root */
  parent: number;
  /** rows of the child turns, in the order they began */
  children: number[];
  /** files its steps changed (summed over the steps: a file two steps changed counts twice) */
  fileChanges: number;
  /** its steps that changed files */
  fileSteps: number;
}

/** The patched nodes as they were before the patch, by id; `undefined` for a node the patch adds. */
export type NodesBefore = ReadonlyMap<string, TreeNode | undefined>;

export class GraphLayout {
  /** by row */
  readonly turns: Turn[] = [];
  /** rows of the turns in each lane, ascending: each turn's edge spans [parent row, row] in its lane */
  readonly laneRows: number[][] = [];
  /** per lane, the last row it is used at */
  private readonly laneEnd: number[] = [];
  private readonly turnOf = new Map<string, number>();
  /** entries that have a child (a later child of one begins a turn of its own) */
  private readonly hasChild = new Set<string>();
  /** parent ids referenced but not present: an entry with such an id would adopt orphans */
  private readonly missingParents = new Set<string>();
  private patchable = true;

  /** The full layout of `nodes` (file order; a later copy of a duplicate id wins, as in TreeModel). */
  constructor(nodes: readonly TreeNode[]) {
    const last = new Map<string, number>();
    nodes.forEach((node, i) => last.set(node.id, i));
    if (last.size !== nodes.length) this.patchable = false;
    const kept = nodes.filter((node, i) => last.get(node.id) === i);
    for (const node of parentsFirst(kept)) this.add(node, last.has(node.parentId ?? ''));
  }

  get lanes(): number {
    return this.laneRows.length;
  }

  /** The row of the turn an entry belongs to, -1 when unknown. */
  rowOf(entryId: string | null): number {
    return entryId === null ? -1 : (this.turnOf.get(entryId) ?? -1);
  }

  /**
   * Brings the layout up to date with a patch (`before`: the patched nodes as they were, `now` their
   * current copies). Returns false when only a fresh layout is sure to be right.
   */
  update(before: NodesBefore, now: (id: string) => TreeNode): boolean {
    if (!this.patchable) return false;
    for (const [id, old] of before) {
      const node = now(id);
      if (old && (old.parentId !== node.parentId || old.kind !== node.kind)) return false;
      if (!old && (this.missingParents.has(id) || this.turnOf.has(id))) return false;
    }
    for (const [id, old] of before) {
      if (old) this.countFiles(this.turnOf.get(id), old, -1);
      if (old) this.countFiles(this.turnOf.get(id), now(id), 1);
      else this.add(now(id), now(id).parentId !== null && this.turnOf.has(now(id).parentId!));
    }
    return true;
  }

  /** Places one entry whose parent (if `parentPresent`) is placed already. */
  private add(node: TreeNode, parentPresent: boolean): void {
    const parentId = parentPresent ? node.parentId : null;
    if (node.parentId !== null && !parentPresent) this.missingParents.add(node.parentId);
    const parentRow = parentId === null ? -1 : this.turnOf.get(parentId)!;
    const joins = parentId !== null && !TURN_STARTS.has(node.kind) && !this.hasChild.has(parentId);
    if (parentId !== null) this.hasChild.add(parentId);
    if (joins) {
      this.turns[parentRow]!.entries.push(node.id);
      this.turnOf.set(node.id, parentRow);
    } else this.newTurn(node.id, parentRow);
    this.countFiles(this.turnOf.get(node.id), node, 1);
  }

  /** Adds (`sign` 1) or takes back (-1) an entry's file count in its turn's totals: O(1) per entry. */
  private countFiles(row: number | undefined, node: TreeNode, sign: 1 | -1): void {
    const count = node.files?.count ?? 0;
    if (row === undefined || count === 0) return;
    const turn = this.turns[row]!;
    turn.fileChanges += sign * count;
    turn.fileSteps += sign;
  }

  private newTurn(entryId: string, parent: number): void {
    const row = this.turns.length;
    const lane = this.laneFor(parent);
    this.turns.push({ row, lane, entries: [entryId], parent, children: [], fileChanges: 0, fileSteps: 0 });
    if (parent >= 0) this.turns[parent]!.children.push(row);
    this.turnOf.set(entryId, row);
    if (lane === this.laneRows.length) {
      this.laneRows.push([]);
      this.laneEnd.push(-1);
    }
    this.laneRows[lane]!.push(row);
    this.laneEnd[lane] = row;
  }

  /** The parent's lane if nothing used it since; else the lowest lane unused since the parent's row. */
  private laneFor(parent: number): number {
    if (parent < 0) return this.laneRows.length;
    const own = this.turns[parent]!.lane;
    if (this.laneEnd[own] === parent) return own;
    for (let lane = 0; lane < this.laneEnd.length; lane++) if (this.laneEnd[lane]! < parent) return lane;
    return this.laneEnd.length;
  }
}

/**
 * File order, except that an entry whose parent comes later in the file waits for it (an entry whose
 * parent is missing, or that sits in a cycle, is placed as a root at the end).
 */
function parentsFirst(nodes: readonly TreeNode[]): TreeNode[] {
  const present = new Set(nodes.map((node) => node.id));
  const waiting = new Map<string, TreeNode[]>();
  const placed = new Set<string>();
  const order: TreeNode[] = [];
  const place = (first: TreeNode) => {
    const stack = [first];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (placed.has(node.id)) continue;
      placed.add(node.id);
      order.push(node);
      const children = waiting.get(node.id) ?? [];
      waiting.delete(node.id);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  };
  for (const node of nodes) {
    const parent = node.parentId;
    if (parent !== null && present.has(parent) && !placed.has(parent)) {
      const list = waiting.get(parent);
      if (list) list.push(node);
      else waiting.set(parent, [node]);
    } else place(node);
  }
  // Left over: cycles. Shown as roots rather than lost.
  for (const node of nodes) if (!placed.has(node.id)) place({ ...node, parentId: null });
  return order;
}

/** A turn is on the active path when its first entry is (a turn is a path: the leaf may end it early). */
export function turnIsActive(turn: Turn, nodeOf: (id: string) => TreeNode | undefined): boolean {
  return nodeOf(turn.entries[0]!)?.onActivePath ?? false;
}
