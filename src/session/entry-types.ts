// What the session itself needs of each entry type, one line per type (docs/architecture.md, "Entry kinds"):
// the message it stands for in the context, and what session search matches. How an entry is shown (chat,
// trees, CLI, export) is the presentation's table, src/present/kinds/, keyed by the same types; the compiler
// checks both cover every known type. Types without a line are kept byte for byte and reported once.
import type { AgentMessage, BranchSummaryMessage, CompactionSummaryMessage, CustomMessage } from '../core/messages';
import { nativePayloadsOf } from '../core/native-compaction';
import {
  KNOWN_ENTRY_TYPES, RECOGNISED_FOREIGN_TYPES,
  type BranchSummaryEntry, type CompactionEntry, type CustomMessageEntry, type SessionEntry,
} from './entries';
import { messageSearchable } from './message-search';
import { plainMarkdown } from '../core/plain-line';
import { join, searchContentText, str, type Searchable } from './search-text';

export interface EntryType {
  /** the message the entry stands for (pi's entry → message mapping), or undefined */
  message(entry: SessionEntry): AgentMessage | undefined;
  /** what it adds while building context when that differs from `message` (context.ts applies the path rules) */
  contextMessage?(entry: SessionEntry): AgentMessage | undefined;
  /** what session search matches, from the raw parsed line (search does not validate) */
  searchable(entry: Record<string, unknown>): Searchable | undefined;
}

export function compactionSummaryMessage(entry: CompactionEntry): CompactionSummaryMessage {
  const native = nativePayloadsOf(entry.preserveData);
  return {
    role: 'compactionSummary',
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: Date.parse(entry.timestamp),
    ...(native.length > 0 ? { native } : {}),
  };
}

function branchSummaryMessage(entry: BranchSummaryEntry): BranchSummaryMessage {
  return { role: 'branchSummary', summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) };
}

function customMessage(entry: CustomMessageEntry): CustomMessage {
  return {
    role: 'custom',
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    details: entry.details,
    timestamp: Date.parse(entry.timestamp),
  };
}

/** Data only: nothing in the context, nothing to search (usage, context edits, reset boundaries, …). */
const DATA: EntryType = { message: () => undefined, searchable: () => undefined };

const KNOWN_TYPES: Record<(typeof KNOWN_ENTRY_TYPES)[number], EntryType> = {
  message: {
    message: (entry) => {
      const message = (entry as { message?: unknown }).message;
      return typeof message === 'object' && message !== null ? (message as AgentMessage) : undefined;
    },
    searchable: messageSearchable,
  },
  // its summary enters the context only where the compaction opens it (context.ts's path rules)
  compaction: { message: () => undefined, searchable: (entry) => ({ kind: 'compaction', text: plainMarkdown(join([str(entry.summary), str(entry.shortSummary)])) }) },
  branch_summary: {
    message: (entry) => branchSummaryMessage(entry as BranchSummaryEntry),
    contextMessage: (entry) => ((entry as BranchSummaryEntry).summary ? branchSummaryMessage(entry as BranchSummaryEntry) : undefined),
    searchable: (entry) => ({ kind: 'branchSummary', text: plainMarkdown(str(entry.summary)) }),
  },
  custom_message: {
    message: (entry) => customMessage(entry as CustomMessageEntry),
    searchable: (entry) => (entry.display === false ? undefined : { kind: 'custom', text: plainMarkdown(searchContentText(entry.content)) }),
  },
  custom: DATA,
  model_change: DATA,
  thinking_level_change: DATA,
  label: {
    message: () => undefined,
    searchable: (entry) =>
      typeof entry.targetId === 'string' && typeof entry.label === 'string' ? { kind: 'label', text: entry.label, entryId: entry.targetId } : undefined,
  },
  session_info: { message: () => undefined, searchable: (entry) => ({ kind: 'sessionName', text: str(entry.name) }) },
  context_edit: DATA,
  usage: DATA,
  reset_boundary: DATA,
};

const TYPES = new Map<string, EntryType>(Object.entries(KNOWN_TYPES));
for (const type of RECOGNISED_FOREIGN_TYPES) TYPES.set(type, DATA);
TYPES.set('invalid_entry', DATA);

/** What the session does with an entry (any object with a `type`; search passes raw parsed lines). */
export function entryTypeOf(entry: { type?: unknown }): EntryType {
  return (typeof entry.type === 'string' ? TYPES.get(entry.type) : undefined) ?? DATA;
}

/** Whether Arbor knows what the type means (others are reported once as ignored). */
export function isUnderstoodType(type: string): boolean {
  return TYPES.has(type);
}

/** What the entry adds while building context (before the path rules of context.ts). */
export function contextMessageOf(entry: SessionEntry): AgentMessage | undefined {
  const type = entryTypeOf(entry);
  return type.contextMessage ? type.contextMessage(entry) : type.message(entry);
}
