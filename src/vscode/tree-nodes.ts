// Maps the app's tree nodes onto the webview protocol's TreeNode, truncated to the protocol's bounds.
// No `vscode` import, so the patch builder and its unit tests can use it outside the editor.
import type { TreeNodeView } from '../app/view-model';
import { wireId, wireIdOrNull } from '../present/wire-ids';
import { LIMITS, type TreeNode } from '../protocol';

/** ms since epoch from an ISO string or number; 0 when unknown or invalid */
export function epochMs(iso: string | number | undefined): number {
  const value = typeof iso === 'number' ? iso : iso ? Date.parse(iso) : 0;
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

export function toTreeNode(node: TreeNodeView, leafId: string | null): TreeNode {
  return {
    id: wireId(node.id),
    parentId: wireIdOrNull(node.parentId),
    kind: node.kind,
    preview: node.firstLine.slice(0, LIMITS.short),
    ...(node.label ? { label: node.label.slice(0, LIMITS.label) } : {}),
    ...(node.pinned ? { pinned: true } : {}),
    onActivePath: node.isOnActivePath,
    isLeaf: node.id === leafId,
    childCount: node.childCount,
    timestamp: epochMs(node.timestamp),
    ...(node.files ? { files: { count: node.files.count, text: node.files.text.slice(0, LIMITS.short) } } : {}),
  };
}
