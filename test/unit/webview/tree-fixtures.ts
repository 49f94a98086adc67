// Session trees as the host sends them to the webview, for the tree-patch and tree-rows tests.
import type { TreeNode, TreeNodeKind } from '../../../src/protocol';

/** A session as the host knows it: entry i is `n<i>`; the webview's nodes are derived from it. */
export interface Session {
  parents: (string | null)[];
  /** per entry; defaults to 1,000 + i */
  timestamps?: number[];
  /** per entry; defaults to user and assistant alternating */
  kinds?: TreeNodeKind[];
  labels: Map<string, string>;
  /** per entry id, how many files the step changed (a file manifest follows it) */
  files?: Map<string, number>;
  /** index of the leaf, -1 for none */
  leaf: number;
}

/** The nodes the host would send for a session: file order, flags from the leaf (like toTreeNode). */
export function nodesOf(session: Session): TreeNode[] {
  const { parents, timestamps, kinds, labels, files, leaf } = session;
  const parentOf = new Map(parents.map((p, i) => [`n${i}`, p]));
  const onPath = new Set<string>();
  for (let id: string | null = leaf < 0 ? null : `n${leaf}`; id !== null && !onPath.has(id); id = parentOf.get(id) ?? null) onPath.add(id);
  const childCount = new Map<string, number>();
  for (const p of parents) if (p !== null) childCount.set(p, (childCount.get(p) ?? 0) + 1);
  return parents.map((parentId, i): TreeNode => {
    const id = `n${i}`;
    const label = labels.get(id);
    const changed = files?.get(id);
    return {
      id,
      parentId,
      kind: kinds?.[i] ?? (i % 2 === 0 ? 'user' : 'assistant'),
      preview: `entry ${i}`,
      ...(label ? { label } : {}),
      ...(changed ? { files: { count: changed, text: `${changed} files changed` } } : {}),
      onActivePath: onPath.has(id),
      isLeaf: i === leaf,
      childCount: childCount.get(id) ?? 0,
      timestamp: timestamps ? timestamps[i]! : 1_000 + i,
    };
  });
}
