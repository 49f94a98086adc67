// The whole session as a tree of nodes (for the Session Tree, the CLI and exports), built from the store's
// entry index. Its own module because it is the one place that handles orphans and parent cycles.
import { compareTimestamps, type EntryIndex } from './entry-index';
import type { SessionTreeNode } from './store-types';

/**
 * Roots: parentId null, self-parented, or unknown parent (orphans). Entries caught in a parent cycle become
 * roots too (the first in file order), so every entry appears exactly once. Built without recursion:
 * sessions can be tens of thousands of entries deep.
 */
export function buildEntryTree(index: EntryIndex): SessionTreeNode[] {
  const nodes = labelledNodes(index);
  const roots: SessionTreeNode[] = [];
  for (const entry of index.entries) {
    const node = nodes.get(entry.id)!;
    if (index.isRoot(entry)) roots.push(node);
    else nodes.get(entry.parentId!)!.children.push(node);
  }
  const reached = new Set<string>();
  for (const root of roots) markReached(root, reached);
  if (reached.size < index.count) {
    for (const entry of index.entries) {
      if (reached.has(entry.id)) continue;
      const node = nodes.get(entry.id)!;
      const parent = nodes.get(entry.parentId!)!;
      parent.children.splice(parent.children.indexOf(node), 1); // break the cycle here
      roots.push(node);
      markReached(node, reached);
    }
  }
  for (const node of nodes.values()) if (node.children.length > 1) node.children.sort((a, b) => compareTimestamps(a.entry, b.entry));
  return roots;
}

function labelledNodes(index: EntryIndex): Map<string, SessionTreeNode> {
  const nodes = new Map<string, SessionTreeNode>();
  for (const entry of index.entries) {
    const node: SessionTreeNode = { entry, children: [] };
    const label = index.label(entry.id);
    if (label) {
      node.label = label.label;
      node.labelTimestamp = label.timestamp;
    }
    nodes.set(entry.id, node);
  }
  return nodes;
}

function markReached(start: SessionTreeNode, reached: Set<string>): void {
  const stack = [start];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (reached.has(node.entry.id)) continue;
    reached.add(node.entry.id);
    for (const child of node.children) stack.push(child);
  }
}
