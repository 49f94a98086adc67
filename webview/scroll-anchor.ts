// Where the conversation was scrolled to, in terms that survive the webview being re-created. VS Code drops a
// hidden view's DOM, and the new one receives only the tail of the path, so a pixel offset of the old loaded
// range means nothing to it. What is saved instead is the entry at the top of the viewport and how far into
// it the viewport starts; on restore that entry is scrolled to exactly, after loading the earlier pages it
// is in when it is on the active path but not in the tail. These are the pure rules (no DOM), unit-tested.
import type { TreeNode } from '../src/protocol';

export interface ScrollAnchor {
  /** the entry whose row is the first one reaching into the viewport */
  entryId: string;
  /** px of that row above the viewport's top edge (negative: the row starts that far below the edge) */
  offset: number;
}

/** Bounds for a saved anchor read back from `getState` (which holds whatever an older webview saved). */
const MAX_ID = 256;
const MAX_OFFSET = 10_000_000;

/** The anchor in persisted state, or undefined when it is missing or not a valid one. */
export function parseAnchor(raw: unknown): ScrollAnchor | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { entryId, offset } = raw as Record<string, unknown>;
  if (typeof entryId !== 'string' || entryId.length === 0 || entryId.length > MAX_ID) return undefined;
  if (typeof offset !== 'number' || !Number.isFinite(offset) || Math.abs(offset) > MAX_OFFSET) return undefined;
  return { entryId, offset };
}

/** Tree node kinds the chat never shows as a row: no page load can bring one into the conversation. */
export const NEVER_SHOWN: ReadonlySet<TreeNode['kind']> = new Set<TreeNode['kind']>(['label', 'session_info', 'custom', 'other']);

/** What the webview knows when it restores an anchor. */
export interface RestoreContext {
  /** the entry is a row of the loaded items */
  isLoaded(entryId: string): boolean;
  /** the host has items before the loaded ones */
  hasEarlier: boolean;
  /** the session tree has arrived (it tells whether an entry not loaded is on the active path) */
  treeReceived: boolean;
  node(entryId: string): Pick<TreeNode, 'kind' | 'onActivePath'> | undefined;
}

/**
 * The next step of restoring `anchor`:
 * - `restore`: its row is loaded: scroll to it;
 * - `load`: it is on the active path, before the loaded items: load the page before them, then ask again;
 * - `wait`: it is not loaded and the tree that tells whether it is on the path has not arrived yet;
 * - `bottom`: it is not on the active path any more (another branch or session): show the end of the path.
 */
export type RestoreStep = 'restore' | 'load' | 'wait' | 'bottom';

export function restoreStep(anchor: ScrollAnchor, context: RestoreContext): RestoreStep {
  if (context.isLoaded(anchor.entryId)) return 'restore';
  // Everything from the start of the path is loaded and the entry is not among it.
  if (!context.hasEarlier) return 'bottom';
  if (!context.treeReceived) return 'wait';
  const node = context.node(anchor.entryId);
  return node && node.onActivePath && !NEVER_SHOWN.has(node.kind) ? 'load' : 'bottom';
}

/**
 * How many items a scroll near the top asks for: none while a restore or a reveal is loading its way to an
 * entry (it asks for the large pages it needs, one after another; a small page slipped in between would load
 * more than the entry needs and shift the pages after it), else the usual page.
 */
export function nearTopPage(movingToEntry: boolean, page: number): number | undefined {
  return movingToEntry ? undefined : page;
}
