// Session file entries, pi version 3. Line 1 of a session file is the header; every other line is
// one entry. Field names and meanings are pi's so that files interoperate both ways. Unknown fields
// and unknown entry types are preserved (the store keeps the raw line for byte-exact write-back).
import type { AgentMessage, ImageContent, TextContent } from '../core/messages';

export const CURRENT_SESSION_VERSION = 3;

export interface SessionHeader {
  type: 'session';
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  /** path (or id) of the session this one was forked from */
  parentSession?: string;
  [extra: string]: unknown;
}

export interface EntryBase {
  type: string;
  id: string;
  parentId: string | null;
  /** ISO-8601 wall clock at append */
  timestamp: string;
  [extra: string]: unknown;
}

export interface MessageEntry extends EntryBase {
  type: 'message';
  message: AgentMessage;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: 'thinking_level_change';
  thinkingLevel: string;
}

export interface ModelChangeEntry extends EntryBase {
  type: 'model_change';
  provider: string;
  modelId: string;
}

/** pi-generated summaries carry these details; file tracking reads them cumulatively. */
export interface FileTrackingDetails {
  readFiles: string[];
  modifiedFiles: string[];
  [extra: string]: unknown;
}

export interface CompactionEntry extends EntryBase {
  type: 'compaction';
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  /** extension-provided summary (pi name); omp calls it fromExtension */
  fromHook?: boolean;
  /** omp: short UI recap */
  shortSummary?: string;
  /** omp: opaque provider data, e.g. openaiRemoteCompaction */
  preserveData?: Record<string, unknown>;
}

export interface BranchSummaryEntry extends EntryBase {
  type: 'branch_summary';
  /** pi stores the *target* position id here, or the literal "root" */
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
}

export interface CustomEntry extends EntryBase {
  type: 'custom';
  customType: string;
  data?: unknown;
}

export interface CustomMessageEntry extends EntryBase {
  type: 'custom_message';
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
}

export interface LabelEntry extends EntryBase {
  type: 'label';
  targetId: string;
  label: string | undefined;
}

export interface SessionInfoEntry extends EntryBase {
  type: 'session_info';
  name?: string;
}

/** An entry whose type Arbor does not know; kept and written back unchanged. */
export interface UnknownEntry extends EntryBase {
  type: string;
}

export type KnownEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry;

export type SessionEntry = KnownEntry;

export const KNOWN_ENTRY_TYPES = [
  'message',
  'thinking_level_change',
  'model_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
] as const;
