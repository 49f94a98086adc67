// How Arbor shows one kind of session entry, everywhere it shows one (docs/architecture.md "Entry kinds"):
// its chat view, its line in the trees, its Session Tree look, its CLI description and its exported
// sections. What the session itself needs of a type (its context message, its search text) is
// src/session/entry-types.ts, keyed by the same types. Each kind is one module implementing EntryKind,
// registered in ./index.ts; consumers ask `kindOf(entry)` instead of switching on `entry.type`, so a new
// kind cannot be forgotten by one of them, and an unknown type meets the explicit `unknownKind`.
import type { ConversationEntry } from '../view-types';
import type { TreeNodeKind } from '../../protocol';
import type { ViewProblems } from '../normalize-view';
import type { SessionEntry } from '../../session/entries';

/** A part of an exported document (`arbor-session export --format md|html`). */
export interface ExportSection {
  title: string;
  /** plain text paragraphs */
  text?: string;
  /** preformatted blocks */
  code?: string;
}

/** `vscode.l10n.t`-shaped: a message with {0}-style placeholders and its arguments. */
export type Localize = (message: string, ...args: (string | number)[]) => string;

/** How the Session Tree and pickers show an entry (the title is derived from `text` by the caller). */
export interface EntryLook {
  /** short kind shown when there is no text, and in tooltips: "You", "Assistant", … */
  kind: string;
  /** codicon id */
  icon: string;
  /** the entry's whole text, for Copy and tooltips */
  text: string;
}

export interface EntryKind<E extends SessionEntry = SessionEntry> {
  /** whether the chat shows it (cheap: nothing is built) */
  isShown(entry: E): boolean;
  /** the chat's view of it (only called when `isShown`); repairs go to `problems` */
  view(entry: E, label: string | undefined, problems: ViewProblems): ConversationEntry | undefined;
  /** the in-panel tree's node kind and one-line text */
  treeKind(entry: E): TreeNodeKind;
  summaryLine(entry: E): string;
  /** how the Session Tree and pickers show it */
  look(entry: E, t: Localize): EntryLook;
  /** the CLI's kind word (`tree`, `stats`) and text before flattening (`tree` preview) */
  cliKind(entry: E): string;
  cliText(entry: E): string;
  /** its sections in an exported document */
  sections(entry: E, problems: ViewProblems): ExportSection[];
}

/** Any entry as the registry hands it to its kind (each module narrows its own type). */
export type AnyEntryKind = EntryKind<never>;
