// How each kind of session entry is shown in the conversation tree, as a list (tree.ts) and as a graph
// (tree-graph.ts): its name and its icon.
import type { TreeNode, TreeNodeKind } from '../../src/protocol';
import { el } from '../dom';
import { icon as svgIcon, type IconName } from '../icons';
import type { WebviewString } from '../../src/protocol/webview-strings';
import { t } from '../l10n';

// The two kinds the product is about get drawn icons: a glyph such as ⑂ is missing from many UI fonts
// and shows as an empty box.
const drawnIcon: Partial<Record<TreeNodeKind, IconName>> = { compaction: 'fold', branch_summary: 'branch' };

const icon: Partial<Record<TreeNodeKind, string>> = {
  user: '●',
  assistant: '◆',
  toolResult: '⚙',
  bash: '$',
  custom_message: '✉',
  model_change: '⇄',
  thinking_level_change: '∴',
  label: '⚑',
  session_info: 'ℹ',
};

export function kindIcon(kind: TreeNodeKind): Node | string {
  const drawn = drawnIcon[kind];
  return drawn ? svgIcon(drawn) : (icon[kind] ?? '·');
}

const kindNames: Record<TreeNodeKind, WebviewString> = {
  user: 'You',
  assistant: 'Arbor',
  toolResult: 'Tool result',
  compaction: 'Compaction',
  branch_summary: 'Branch summary',
  bash: 'Shell',
  custom_message: 'Message',
  model_change: 'Model',
  thinking_level_change: 'Thinking',
  label: 'Label',
  session_info: 'Session',
  custom: 'Data',
  other: 'Entry',
};

/** What the tree calls an entry of this kind, localized. */
export function kindName(kind: TreeNodeKind): string {
  return t(kindNames[kind]);
}


/** "3 files" on the reply whose turn changed them (its file manifest has no row: src/app/display-tree.ts). */
export function filesBadge(node: TreeNode | undefined, className: string): HTMLElement | '' {
  const files = node?.files;
  if (!files) return '';
  return el('span', { class: className, title: files.text }, files.count === 1 ? t('1 file') : t('{0} files', files.count));
}

/** "12 entries · 3 branch points": the tree's size, as the panel and the tree tab head show it. */
export function entryCount(entries: number, branchPoints: number): string {
  return branchPoints === 1 ? t('{0} entries · 1 branch point', entries) : t('{0} entries · {1} branch points', entries, branchPoints);
}
