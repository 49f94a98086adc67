// The registry of entry kinds: one line per type. Every consumer (context, chat, trees, search, CLI,
// export) asks `kindOf(entry)`; a type without a line here gets `unknownKind` and is reported once per
// type when the session is opened (store.ts), its line kept byte for byte.
import { KNOWN_ENTRY_TYPES, RECOGNISED_FOREIGN_TYPES, type SessionEntry } from '../entries';
import type { AnyEntryKind, EntryKind } from './kind';
import { branchSummaryKind } from './branch-summary';
import { compactionKind } from './compaction';
import { contextEditKind } from './context-edit';
import { customKind } from './custom';
import { customMessageKind } from './custom-message';
import { foreignKind } from './foreign';
import { invalidEntryKind } from './invalid-entry';
import { labelKind } from './label';
import { messageKind } from './message';
import { modelChangeKind } from './model-change';
import { resetBoundaryKind } from './reset-boundary';
import { sessionInfoKind } from './session-info';
import { thinkingLevelChangeKind } from './thinking-level-change';
import { unknownKind } from './unknown';
import { usageKind } from './usage';

const KNOWN_KINDS: Record<(typeof KNOWN_ENTRY_TYPES)[number], AnyEntryKind> = {
  message: messageKind,
  compaction: compactionKind,
  branch_summary: branchSummaryKind,
  custom_message: customMessageKind,
  custom: customKind,
  model_change: modelChangeKind,
  thinking_level_change: thinkingLevelChangeKind,
  label: labelKind,
  session_info: sessionInfoKind,
  context_edit: contextEditKind,
  usage: usageKind,
  reset_boundary: resetBoundaryKind,
};

const KINDS = new Map<string, AnyEntryKind>(Object.entries(KNOWN_KINDS));
for (const type of RECOGNISED_FOREIGN_TYPES) KINDS.set(type, foreignKind);
KINDS.set('invalid_entry', invalidEntryKind);

/** The kind of an entry (any object with a `type`; search passes raw parsed lines). */
export function kindOf(entry: { type?: unknown }): EntryKind {
  const kind = typeof entry.type === 'string' ? KINDS.get(entry.type) : undefined;
  return (kind ?? unknownKind) as EntryKind;
}

/** Whether Arbor knows what the type means (others are reported once as ignored). */
export function isUnderstoodType(type: string): boolean {
  return KINDS.has(type);
}

/** Whether a line of this type is indexed from its head alone, its body parsed on first use (kind.ts). */
export function defersBody(type: string): boolean {
  return KINDS.get(type)?.defersBody === true;
}

/** What the entry adds while building context (before the path rules of context.ts). */
export function contextMessageOf(entry: SessionEntry) {
  const kind = kindOf(entry);
  return kind.contextMessage ? kind.contextMessage(entry) : kind.message(entry);
}

export type { EntryKind, EntryLook, ExportSection, Localize } from './kind';
