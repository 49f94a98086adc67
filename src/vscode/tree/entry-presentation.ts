// How one session entry looks in the Session Tree and in pickers: a one-line title, a codicon name and
// the full text (tooltip, Copy). No vscode import, so it can be reused by QuickPicks and tests alike.
import type { SessionEntry } from '../../session/entries';
import { kindOf, type Localize } from '../../present/kinds/index';
import { firstLine as firstLineOf } from '../../core/text';

export interface EntryPresentation {
  /** short kind shown when there is no text, and in tooltips: "You", "Assistant", … */
  kind: string;
  /** first line of the entry's text (trimmed, at most 100 characters) */
  title: string;
  /** codicon id */
  icon: string;
  /** the entry's whole text, for Copy and tooltips */
  text: string;
}

const MAX_TITLE = 100;

export type { Localize };

const formatEnglish: Localize = (message, ...args) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)] ?? ''));
let t: Localize = formatEnglish;

/**
 * This module stays free of `vscode` so pickers and tests can reuse it; the extension plugs in
 * `vscode.l10n.t` at activation so the kinds read in the user's language.
 */
export function useLocalizer(localize: Localize): void {
  t = localize;
}

export function firstLine(text: string, max = MAX_TITLE): string {
  return firstLineOf(text, max);
}

export function presentEntry(entry: SessionEntry): EntryPresentation {
  const base = kindOf(entry).look(entry, t);
  const line = firstLine(base.text);
  const title = entry.type === 'compaction' || entry.type === 'branch_summary' ? base.kind : line || base.kind;
  return { ...base, title };
}
