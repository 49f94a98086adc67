// What a turn of the graph says: its title (the user's message, or what kind of turn it is), the first
// line of the reply, its label, and the lines of its hover preview. Reads at most a bounded number of
// the turn's entries, so a turn with a long tool loop costs the same as a short one.
import type { TreeNode } from '../../src/protocol';
import type { Turn } from './graph-layout';
import type { WebviewString } from '../../src/protocol/webview-strings';
import { t } from '../l10n';

/** Entries read for a turn's text and shown in its preview. */
export const PREVIEW_ENTRIES = 8;

export interface TurnText {
  /** the turn's first entry */
  first: TreeNode;
  title: string;
  reply: string;
  label?: string;
  /** the turn contains the leaf */
  hasLeaf: boolean;
}

const TITLES: Partial<Record<TreeNode['kind'], WebviewString>> = {
  compaction: 'Compaction',
  branch_summary: 'Branch summary',
  session_info: 'Session',
  model_change: 'Session start',
  thinking_level_change: 'Session start',
};

export function turnText(turn: Turn, nodeOf: (id: string) => TreeNode | undefined, leafRow: number): TurnText | undefined {
  const first = nodeOf(turn.entries[0]!);
  if (!first) return undefined;
  const titleKey = TITLES[first.kind];
  const special = titleKey ? t(titleKey) : undefined;
  const title = first.kind === 'user' ? first.preview || t('(empty message)') : special ? (first.preview ? t('{0}: {1}', special, first.preview) : special) : first.preview || first.kind;
  let reply = '';
  let label = first.label;
  for (const id of turn.entries.slice(1, PREVIEW_ENTRIES)) {
    const node = nodeOf(id);
    if (!reply && node?.kind === 'assistant' && node.preview) reply = node.preview;
    label ??= node?.label;
  }
  return { first, title, reply, ...(label ? { label } : {}), hasLeaf: turn.row === leafRow };
}
