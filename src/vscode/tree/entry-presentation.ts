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

/**
 * The title is plain text: the kind's own one-line summary (Markdown marks off, a tool call as "write
 * README.md", never its JSON). A summary is named by its kind and its first line, so two summaries differ.
 */
export function presentEntry(entry: SessionEntry): EntryPresentation {
  const kind = kindOf(entry);
  const base = kind.look(entry, t);
  const line = firstLine(kind.summaryLine(entry) || firstLine(base.text));
  const summary = entry.type === 'compaction' || entry.type === 'branch_summary';
  const title = summary ? (line ? t('{0}: {1}', base.kind, line) : base.kind) : line || base.kind;
  return { ...base, title };
}

/** At most this many characters of a point's first words when it names a point in a title. */
const POINT_NAME_MAX = 32;

/**
 * How a title names a point of the conversation: the user's label, else the first words of its title (cut
 * at a word), never its id ("Files: 06c0d65b ↔ 3a884279" told the user nothing).
 */
export function pointName(entry: SessionEntry, label: string | undefined): string {
  if (label?.trim()) return label.trim();
  const title = presentEntry(entry).title;
  if (title.length <= POINT_NAME_MAX) return title;
  const cut = title.slice(0, POINT_NAME_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > POINT_NAME_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
