// The Session Tree's shape, computed from the store without building the whole tree (no vscode here).
//
// Display rule (like pi's /tree): a linear run of entries (each with exactly one child) is shown as
// siblings at one level instead of nesting one level per entry, so a 35,000-entry conversation is one
// flat list, not 35,000 levels. Nesting happens only at branch points:
// - the top level is the run from the root (or, with several roots, one collapsible "head" per root);
// - a branch point (two or more children) is collapsible and shows one head per child;
// - a head with a single child is collapsible and shows its run (from that child to the next branch point
//   or tip) flat.
// Children lists are cached per display node and invalidated only where an append changed them.
import type { SessionEntry } from '../../session/entries';
import { pinChangeOf } from '../../session/pins';

/** The store reads this model needs (SessionStore satisfies it). */
export interface TreeSource {
  getEntry(id: string): SessionEntry | undefined;
  getChildren(id: string): SessionEntry[];
  getEntries(): SessionEntry[];
  isRoot(entry: SessionEntry): boolean;
  getLeafId(): string | null;
  readonly entryCount: number;
}

const TOP = '';

export class TreeModel {
  private readonly childCache = new Map<string, string[]>();
  private roots: string[] | undefined;
  private activeLeaf: string | null | undefined;
  private active = new Set<string>();
  /** messages pinned on the active path (the newest pin entry of a target on it wins) */
  private pinned = new Set<string>();

  constructor(readonly source: TreeSource) {}

  /** Display children of `id` (undefined: the top level). Cached. */
  children(id?: string): string[] {
    const key = id ?? TOP;
    let list = this.childCache.get(key);
    if (!list) {
      list = id === undefined ? this.topLevel() : this.computeChildren(id);
      this.childCache.set(key, list);
    }
    return list;
  }

  /** Whether `id` shows children (a branch point, or a head that starts a run). */
  hasChildren(id: string): boolean {
    const count = this.childCount(id);
    if (count >= 2) return true;
    return count === 1 && this.isHead(id);
  }

  /** The display parent (undefined: top level). Walks up a linear run at most once per call. */
  parent(id: string): string | undefined {
    const entry = this.source.getEntry(id);
    if (!entry || this.source.isRoot(entry)) return undefined;
    if (this.isHead(id)) return entry.parentId!;
    // Inside a run: the display parent is the head the run starts below, or the top level.
    let current = entry;
    for (let steps = 0; steps <= this.source.entryCount; steps++) {
      const parent = this.source.getEntry(current.parentId!);
      if (!parent) return undefined;
      if (this.isHead(parent.id)) return parent.id;
      if (this.source.isRoot(parent)) return undefined;
      current = parent;
    }
    return undefined; // a parent cycle: not displayed anyway
  }

  /** Heads start a nested run: children of a branch point, and roots when there are several. */
  isHead(id: string): boolean {
    const entry = this.source.getEntry(id);
    if (!entry) return false;
    if (this.source.isRoot(entry)) return this.rootIds().length > 1;
    return this.childCount(entry.parentId!) >= 2;
  }

  isOnActivePath(id: string): boolean {
    this.syncActivePath();
    return this.active.has(id);
  }

  isPinned(id: string): boolean {
    this.syncActivePath();
    return this.pinned.has(id);
  }

  isLeaf(id: string): boolean {
    return this.source.getLeafId() === id;
  }

  childCount(id: string): number {
    return this.source.getChildren(id).length;
  }

  /**
   * An entry was appended: drops the cached lists it changed and returns the display nodes to refresh
   * (undefined in the list means the top level).
   */
  onAppend(entry: SessionEntry): (string | undefined)[] {
    if (this.source.isRoot(entry)) {
      this.invalidateAll();
      return [undefined];
    }
    const parentId = entry.parentId!;
    const count = this.childCount(parentId);
    const affected = new Set<string | undefined>([parentId]);
    // The parent's run grew (count 1: a tip got a child) or was cut at a new branch point (count 2).
    if (count <= 2 && !this.isHead(parentId)) affected.add(this.parent(parentId));
    if (count === 2) {
      // The former only child became a head: its own run is a nested list now.
      for (const child of this.source.getChildren(parentId)) this.childCache.delete(child.id);
    }
    for (const node of affected) this.childCache.delete(node ?? TOP);
    this.childCache.delete(entry.id);
    // A label entry changes how its target looks (the description), wherever the target is shown.
    if (entry.type === 'label' && typeof entry.targetId === 'string' && this.source.getEntry(entry.targetId)) affected.add(entry.targetId);
    // So does a pin entry (its mark and menu).
    const pin = pinChangeOf(entry);
    if (pin && this.source.getEntry(pin.targetId)) affected.add(pin.targetId);
    return [...affected];
  }

  invalidateAll(): void {
    this.childCache.clear();
    this.roots = undefined;
    this.activeLeaf = undefined;
  }

  /** The newest tip below `id` (following the newest child), for "this branch" actions. */
  newestTipBelow(id: string): string {
    let current = id;
    for (let steps = 0; steps <= this.source.entryCount; steps++) {
      const children = this.source.getChildren(current);
      if (children.length === 0) return current;
      current = children[children.length - 1]!.id;
    }
    return current;
  }

  private rootIds(): string[] {
    if (!this.roots) this.roots = this.source.getEntries().filter((e) => this.source.isRoot(e)).map((e) => e.id);
    return this.roots;
  }

  private topLevel(): string[] {
    const roots = this.rootIds();
    if (roots.length === 1) return this.runFrom(roots[0]!);
    return roots.slice();
  }

  private computeChildren(id: string): string[] {
    const children = this.source.getChildren(id);
    if (children.length >= 2) return children.map((c) => c.id);
    if (children.length === 1 && this.isHead(id)) return this.runFrom(children[0]!.id);
    return [];
  }

  /** `start` and its single-child successors, up to and including the next branch point or tip. */
  private runFrom(start: string): string[] {
    const run = [start];
    let current = start;
    for (let steps = 0; steps <= this.source.entryCount; steps++) {
      const children = this.source.getChildren(current);
      if (children.length !== 1) break;
      current = children[0]!.id;
      run.push(current);
    }
    return run;
  }

  private syncActivePath(): void {
    const leaf = this.source.getLeafId();
    if (leaf === this.activeLeaf) return;
    this.activeLeaf = leaf;
    this.active = new Set();
    this.pinned = new Set();
    const decided = new Set<string>();
    let current = leaf === null ? undefined : this.source.getEntry(leaf);
    while (current && !this.active.has(current.id)) {
      this.active.add(current.id);
      // walking from the leaf, the first pin entry met for a target is its newest
      const pin = pinChangeOf(current);
      if (pin && !decided.has(pin.targetId)) {
        decided.add(pin.targetId);
        if (pin.pinned) this.pinned.add(pin.targetId);
      }
      if (this.source.isRoot(current)) break;
      current = this.source.getEntry(current.parentId!);
    }
  }
}
