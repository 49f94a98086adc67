// Builds the conversation an LLM sees from a session tree (pi's `buildSessionContext`, pi-behaviour §2.1).
// Only the root→leaf path is walked, so the cost follows the path, never the whole file.
import type { AgentMessage, BranchSummaryMessage, CompactionSummaryMessage, CustomMessage } from '../core/messages';
import type { CompactionEntry, SessionEntry } from './entries';

export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

export const DEFAULT_THINKING_LEVEL = 'off';

export function emptyContext(): SessionContext {
  return { messages: [], thinkingLevel: DEFAULT_THINKING_LEVEL, model: null };
}

/**
 * The message an entry contributes to the context, or undefined. `branch_summary` always yields a
 * message here (even with an empty summary); the context builder skips empty ones like pi does.
 */
export function messageFromEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case 'message': {
      const message = (entry as { message?: unknown }).message;
      return isObject(message) ? (message as AgentMessage) : undefined;
    }
    case 'custom_message': {
      const custom: CustomMessage = {
        role: 'custom',
        customType: entry.customType,
        content: entry.content,
        display: entry.display,
        details: entry.details,
        timestamp: Date.parse(entry.timestamp),
      };
      return custom;
    }
    case 'branch_summary': {
      const summary: BranchSummaryMessage = {
        role: 'branchSummary',
        summary: entry.summary,
        fromId: entry.fromId,
        timestamp: Date.parse(entry.timestamp),
      };
      return summary;
    }
    default:
      return undefined;
  }
}

/** What an entry contributes while building context: pi skips branch summaries with empty text. */
export function contextMessageFromEntry(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === 'branch_summary' && !entry.summary) return undefined;
  return messageFromEntry(entry);
}

export function compactionSummaryMessage(entry: CompactionEntry): CompactionSummaryMessage {
  return {
    role: 'compactionSummary',
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: Date.parse(entry.timestamp),
  };
}

/**
 * Root→leaf path, stopping at a missing parent, a self-parent or a cycle (a visited set guarantees
 * termination on corrupted files).
 */
export function pathToRoot(leaf: SessionEntry, byId: ReadonlyMap<string, SessionEntry>): SessionEntry[] {
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  let current: SessionEntry | undefined = leaf;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current);
    const parentId: string | null = current.parentId;
    current = parentId === null || parentId === current.id ? undefined : byId.get(parentId);
  }
  return path.reverse();
}

/** pi's leaf resolution: null → none; known id → it; undefined or unknown id → last entry. */
function resolveLeaf(
  entries: readonly SessionEntry[],
  leafId: string | null | undefined,
  byId: ReadonlyMap<string, SessionEntry>,
): SessionEntry | undefined {
  if (leafId === null) return undefined;
  if (leafId !== undefined) {
    const found = byId.get(leafId);
    if (found) return found;
  }
  return entries[entries.length - 1];
}

export function buildSessionContext(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionContext {
  if (leafId === null || entries.length === 0) return emptyContext();
  const index = byId ?? indexById(entries);
  const leaf = resolveLeaf(entries, leafId, index);
  if (!leaf) return emptyContext();
  return contextFromPath(pathToRoot(leaf, index));
}

/** pi's context rules applied to an already-resolved root→leaf path. */
export function contextFromPath(path: readonly SessionEntry[]): SessionContext {
  let thinkingLevel = DEFAULT_THINKING_LEVEL;
  let model: SessionContext['model'] = null;
  let compactionIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    if (entry.type === 'thinking_level_change') thinkingLevel = entry.thinkingLevel;
    else if (entry.type === 'model_change') model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === 'message' && isAssistant(entry.message)) {
      model = { provider: entry.message.provider, modelId: entry.message.model };
    } else if (entry.type === 'compaction') compactionIndex = i;
  }
  const messages: AgentMessage[] = [];
  let start = 0;
  if (compactionIndex >= 0) {
    const compaction = path[compactionIndex] as CompactionEntry;
    messages.push(compactionSummaryMessage(compaction));
    const keptFrom = findKeptStart(path, compactionIndex, compaction.firstKeptEntryId);
    if (keptFrom >= 0) pushMessages(path, keptFrom, compactionIndex, messages);
    start = compactionIndex + 1;
  }
  pushMessages(path, start, path.length, messages);
  return { messages, thinkingLevel, model };
}

/** Index of `firstKeptEntryId` among the entries before the compaction, or -1 (then nothing is kept). */
export function findKeptStart(path: readonly SessionEntry[], compactionIndex: number, firstKeptId: unknown): number {
  for (let i = 0; i < compactionIndex; i++) if (path[i]!.id === firstKeptId) return i;
  return -1;
}

function pushMessages(path: readonly SessionEntry[], from: number, to: number, out: AgentMessage[]): void {
  for (let i = from; i < to; i++) {
    const message = contextMessageFromEntry(path[i]!);
    if (message) out.push(message);
  }
}

function isAssistant(message: unknown): message is { role: 'assistant'; provider: string; model: string } {
  return isObject(message) && (message as { role?: unknown }).role === 'assistant';
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

export function indexById(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const map = new Map<string, SessionEntry>();
  for (const entry of entries) map.set(entry.id, entry);
  return map;
}
