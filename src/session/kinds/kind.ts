// What Arbor does with one kind of session entry, everywhere it uses one (docs/architecture.md "Entry
// kinds"): the message it adds to the LLM context, its chat view, its line in the trees, its search text,
// its CLI description and its exported sections. Each kind is one module implementing EntryKind,
// registered in ./index.ts; consumers ask `kindOf(entry)` instead of switching on `entry.type`, so a new
// kind cannot be forgotten by one of them, and an unknown type meets the explicit `unknownKind`.
import type { AgentMessage } from '../../core/messages';
import type { ConversationEntry, TreeNodeKind } from '../../app/view-model';
import type { ViewProblems } from '../../app/normalize-view';
import type { SessionEntry } from '../entries';
import type { Searchable } from '../search-text';

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
  /**
   * true when opening a session and indexing it need only the entry's type, id, parent and timestamp: its
   * line's body is parsed when the entry is first asked for (entry-index.ts). Never true for a kind that
   * shapes the context from anywhere on the path (compactions, settings, resets, edits: context.ts).
   */
  defersBody?: true;
  /** the message the entry stands for (pi's entry → message mapping), or undefined */
  message(entry: E): AgentMessage | undefined;
  /** what it adds while building context when that differs from `message` (context.ts applies the path rules) */
  contextMessage?(entry: E): AgentMessage | undefined;
  /** whether the chat shows it (cheap: nothing is built) */
  isShown(entry: E): boolean;
  /** the chat's view of it (only called when `isShown`); repairs go to `problems` */
  view(entry: E, label: string | undefined, problems: ViewProblems): ConversationEntry | undefined;
  /** the in-panel tree's node kind and one-line text */
  treeKind(entry: E): TreeNodeKind;
  summaryLine(entry: E): string;
  /** how the Session Tree and pickers show it */
  look(entry: E, t: Localize): EntryLook;
  /** what session search matches, from the raw parsed line (search does not validate) */
  searchable(entry: Record<string, unknown>): Searchable | undefined;
  /** the CLI's kind word (`tree`, `stats`) and text before flattening (`tree` preview) */
  cliKind(entry: E): string;
  cliText(entry: E): string;
  /** its sections in an exported document */
  sections(entry: E, problems: ViewProblems): ExportSection[];
}

/** Any entry as the registry hands it to its kind (each module narrows its own type). */
export type AnyEntryKind = EntryKind<never>;
