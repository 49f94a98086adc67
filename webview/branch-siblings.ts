// The branch switcher's rules ("‹ 2/3 ›" on a message whose parent has several children): which entries
// are alternatives to a message, and where switching to one of them goes (the newest entry of that branch,
// as ChatGPT-style switchers show an alternative's latest state). Entries the chat never shows as a row
// (labels, session info, tool results shown inside their call's card) are looked through: the
// alternatives of a message are the shown entries reached from its nearest shown ancestor. Pure (no DOM);
// built once per tree change, O(session), then O(siblings) per row (see docs/architecture.md, webview).
import type { TreeNode } from '../src/protocol';
import { NEVER_SHOWN } from './scroll-anchor';

/** Kinds that never have a row of their own in the conversation (tool results live in their call's card). */
const LOOKED_THROUGH: ReadonlySet<TreeNode['kind']> = new Set<TreeNode['kind']>([...NEVER_SHOWN, 'toolResult']);

export interface Siblings {
  /** 0-based position of the message among its alternatives, oldest first */
  index: number;
  count: number;
  /** the alternatives' entry ids, oldest first (the message itself at `index`) */
  ids: readonly string[];
}

export class SiblingIndex {
  private readonly byId = new Map<string, TreeNode>();
  private readonly order = new Map<string, number>();
  private readonly children = new Map<string | null, TreeNode[]>();

  constructor(nodes: readonly TreeNode[]) {
    nodes.forEach((node, at) => {
      this.byId.set(node.id, node);
      this.order.set(node.id, at);
    });
    for (const node of nodes) {
      const parent = node.parentId !== null && this.byId.has(node.parentId) ? node.parentId : null;
      const list = this.children.get(parent);
      if (list) list.push(node);
      else this.children.set(parent, [node]);
    }
  }

  /** The alternatives of `id`; undefined when it has none (or is not in the tree). */
  siblingsOf(id: string): Siblings | undefined {
    const node = this.byId.get(id);
    if (!node) return undefined;
    const shown = this.shownChildren(this.shownParentOf(node));
    if (shown.length < 2) return undefined;
    const ids = shown.sort((a, b) => this.older(a, b)).map((n) => n.id);
    const index = ids.indexOf(id);
    return index < 0 ? undefined : { index, count: ids.length, ids };
  }

  /** Where switching to the branch that starts at `id` goes: its newest entry. */
  tipOf(id: string): string {
    let newest = this.byId.get(id);
    if (!newest) return id;
    const stack = [newest];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (this.older(newest, node) < 0) newest = node;
      stack.push(...(this.children.get(node.id) ?? []));
    }
    return newest.id;
  }

  kindOf(id: string): TreeNode['kind'] | undefined {
    return this.byId.get(id)?.kind;
  }

  /** The nearest ancestor the chat shows (null: the roots). */
  private shownParentOf(node: TreeNode): string | null {
    let parent = node.parentId === null ? undefined : this.byId.get(node.parentId);
    while (parent && LOOKED_THROUGH.has(parent.kind)) parent = parent.parentId === null ? undefined : this.byId.get(parent.parentId);
    return parent?.id ?? null;
  }

  /** The shown entries right below `parent`, looking through entries without a row. */
  private shownChildren(parent: string | null): TreeNode[] {
    const out: TreeNode[] = [];
    const stack = [...(this.children.get(parent) ?? [])];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (LOOKED_THROUGH.has(node.kind)) stack.push(...(this.children.get(node.id) ?? []));
      else out.push(node);
    }
    return out;
  }

  /** Negative when `a` is older than `b` (timestamp, then file order). */
  private older(a: TreeNode, b: TreeNode): number {
    return a.timestamp - b.timestamp || (this.order.get(a.id) ?? 0) - (this.order.get(b.id) ?? 0);
  }
}
