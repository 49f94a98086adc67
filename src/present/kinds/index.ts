// The registry of entry kinds as shown: one line per type. Every consumer that shows entries (chat, trees,
// CLI, export) asks `kindOf(entry)`; a type without a line here gets `unknownKind` (the session reports it
// once, src/session/entry-types.ts, and keeps its line byte for byte).
import { KNOWN_ENTRY_TYPES, RECOGNISED_FOREIGN_TYPES } from '../../session/entries';
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

export type { EntryKind, EntryLook, ExportSection, Localize } from './kind';
