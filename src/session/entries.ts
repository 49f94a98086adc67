// Session file entries, pi version 3. Line 1 of a session file is the header; every other line is
// one entry. Field names and meanings are pi's so that files interoperate both ways. Unknown fields
// and unknown entry types are preserved (the store keeps the raw line for byte-exact write-back).
import type { AgentMessage, ImageContent, SystemMessage, TextContent, Usage } from '../core/messages';

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
  /** omp writes null (or leaves it out) for "off" */
  thinkingLevel: string | null;
}

/** pi's shape `{provider, modelId}`; omp writes `{model: "provider/id", role}` instead. */
export interface ModelChangeEntry extends EntryBase {
  type: 'model_change';
  provider?: string;
  modelId?: string;
  /** omp: "provider/modelId" */
  model?: string;
  /** omp: "default", "smol", "slow", …; only the default role changes the conversation's model */
  role?: string;
}

/** pi 1.5: from then on (on this branch) the target's content is replaced, or the target omitted (null). */
export interface ContextEditEntry extends EntryBase {
  type: 'context_edit';
  targetId: string;
  replacement: { content: string | (TextContent | ImageContent)[] } | null;
}

/** pi 1.5: usage not tied to a message (summaries, titles); counted in the session cost. */
export interface UsageEntry extends EntryBase {
  type: 'usage';
  kind?: string;
  provider?: string;
  model?: string;
  usage: Usage;
  note?: string;
}

/** omp's /clear: the context starts after it (unless a later compaction supersedes it). */
export interface ResetBoundaryEntry extends EntryBase {
  type: 'reset_boundary';
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
  /** pi 1.5: the system message in force, placed before the summary in the context */
  systemMessage?: SystemMessage;
  /** pi 1.5: the summarizer call's usage (counted in the session cost) */
  usage?: Usage;
  /** why it ran (Arbor: manual, threshold, overflow, …), kept so markers survive a reload */
  reason?: string;
  /** omp and Arbor: estimated context tokens right after the compaction */
  tokensAfter?: number;
  /** omp's name for an extension-provided summary */
  fromExtension?: boolean;
}

export interface BranchSummaryEntry extends EntryBase {
  type: 'branch_summary';
  /** pi stores the *target* position id here, or the literal "root" */
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
  /** pi 1.5: the summarizer call's usage (counted in the session cost) */
  usage?: Usage;
  /** omp's name for fromHook */
  fromExtension?: boolean;
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
  | SessionInfoEntry
  | ContextEditEntry
  | UsageEntry
  | ResetBoundaryEntry;

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
  'context_edit',
  'usage',
  'reset_boundary',
] as const;

/**
 * Types pi 1.5 and omp 18 write that carry nothing Arbor needs (they are kept and written back unchanged,
 * and not reported as unknown). `title` is omp's slot line; `title_change` is read for the session name.
 */
export const RECOGNISED_FOREIGN_TYPES = [
  'title',
  'title_change',
  'service_tier_change',
  'model_usage',
  'ttsr_injection',
  'credential_pin',
  'session_init',
  'mode_change',
] as const;
