// Builds the conversation an LLM sees from a session tree (pi's `buildSessionContext`, pi-behaviour §2.1).
// Only the root→leaf path is walked, so the cost follows the path, never the whole file.
import type { AgentMessage } from '../core/messages';
import type { CompactionEntry, ModelChangeEntry, SessionEntry } from './entries';
import { applyContextEdit, contextEditsOf } from './context-edits';
import { compactionSummaryMessage, contextMessageOf, entryTypeOf } from './entry-types';

export { compactionSummaryMessage };

export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

export const DEFAULT_THINKING_LEVEL = 'off';

export function emptyContext(): SessionContext {
  return { messages: [], thinkingLevel: DEFAULT_THINKING_LEVEL, model: null };
}

/** The message an entry stands for (its kind's mapping), or undefined; compactions give none here. */
export function messageFromEntry(entry: SessionEntry): AgentMessage | undefined {
  return entryTypeOf(entry).message(entry);
}

/** What an entry contributes while building context: pi skips branch summaries with empty text. */
export function contextMessageFromEntry(entry: SessionEntry): AgentMessage | undefined {
  return contextMessageOf(entry);
}

/**
 * Root→leaf path, stopping at a missing parent, a self-parent or a cycle. A walk longer than the index
 * has a cycle; only then is it walked again with a visited set (cut at the first repeat), so the usual
 * path costs no set of every id on it.
 */
export function pathToRoot(leaf: SessionEntry, byId: ReadonlyMap<string, SessionEntry>): SessionEntry[] {
  // Without a cycle a path has at most byId.size entries; only a longer walk needs the visited set.
  const path: SessionEntry[] = [];
  let current: SessionEntry | undefined = leaf;
  while (current && path.length <= byId.size) {
    path.push(current);
    current = parentOf(current, byId);
  }
  return current ? pathWithoutCycle(leaf, byId) : path.reverse();
}

function parentOf(entry: SessionEntry, byId: ReadonlyMap<string, SessionEntry>): SessionEntry | undefined {
  const parentId: string | null = entry.parentId;
  return parentId === null || parentId === entry.id ? undefined : byId.get(parentId);
}

function pathWithoutCycle(leaf: SessionEntry, byId: ReadonlyMap<string, SessionEntry>): SessionEntry[] {
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  for (let current: SessionEntry | undefined = leaf; current && !seen.has(current.id); current = parentOf(current, byId)) {
    seen.add(current.id);
    path.push(current);
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

/**
 * pi 1.5's context rules applied to an already-resolved root→leaf path: the latest compaction (its system
 * message, its summary, the kept entries without their system messages, everything after it), omp's
 * `reset_boundary` when it comes after that compaction (the context starts after it), and the branch's
 * `context_edit` entries applied to whatever remains.
 */
export function contextFromPath(path: readonly SessionEntry[]): SessionContext {
  const settings = { thinkingLevel: DEFAULT_THINKING_LEVEL, model: null as SessionContext['model'] };
  let compactionIndex = -1;
  let resetIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    applySettings(entry, settings);
    if (entry.type === 'compaction') compactionIndex = i;
    else if (entry.type === 'reset_boundary') resetIndex = i;
  }
  const sources = contextEntries(path, compactionIndex, resetIndex);
  const edits = contextEditsOf(sources);
  const messages: AgentMessage[] = [];
  sources.forEach((entry, index) => {
    const edit = edits.get(entry.id);
    for (const message of entryContextMessages(entry, index === 0 && entry.type === 'compaction')) {
      const projected = applyContextEdit(message, edit);
      if (projected) messages.push(projected);
    }
  });
  return { messages, thinkingLevel: settings.thinkingLevel, model: settings.model };
}

/** The entries whose messages make up the context, in order (a compaction first when it opens it). */
export function contextEntries(path: readonly SessionEntry[], compactionIndex: number, resetIndex: number): SessionEntry[] {
  if (resetIndex > compactionIndex) return path.slice(resetIndex + 1);
  if (compactionIndex < 0) return path.slice();
  const compaction = path[compactionIndex] as CompactionEntry;
  const out: SessionEntry[] = [compaction];
  const keptFrom = findKeptStart(path, compactionIndex, compaction.firstKeptEntryId);
  for (let i = Math.max(keptFrom, 0); keptFrom >= 0 && i < compactionIndex; i++) {
    if (!isSystemMessageEntry(path[i]!)) out.push(path[i]!);
  }
  for (let i = compactionIndex + 1; i < path.length; i++) out.push(path[i]!);
  return out;
}

/** What one entry contributes; only the compaction that opens the context yields its summary. */
function entryContextMessages(entry: SessionEntry, opensContext: boolean): AgentMessage[] {
  if (entry.type !== 'compaction') {
    const message = contextMessageFromEntry(entry);
    return message ? [message] : [];
  }
  if (!opensContext) return [];
  const summary = compactionSummaryMessage(entry);
  return isObject(entry.systemMessage) ? [entry.systemMessage, summary] : [summary];
}

/** Thinking level and model as of `entry` (pi's and omp's entry shapes; an assistant reply names its model). */
export function applySettings(entry: SessionEntry, settings: { thinkingLevel: string; model: SessionContext['model'] }): void {
  if (entry.type === 'thinking_level_change') settings.thinkingLevel = entry.thinkingLevel ?? DEFAULT_THINKING_LEVEL;
  else if (entry.type === 'model_change') settings.model = modelOfChange(entry) ?? settings.model;
  else if (entry.type === 'message' && isAssistant(entry.message)) {
    settings.model = { provider: entry.message.provider, modelId: entry.message.model };
  }
}

/** pi's `{provider, modelId}`, or omp's `{model: "provider/id"}` for the default role (other roles: none). */
function modelOfChange(entry: ModelChangeEntry): SessionContext['model'] | undefined {
  if (typeof entry.provider === 'string' && typeof entry.modelId === 'string') return { provider: entry.provider, modelId: entry.modelId };
  if (typeof entry.model !== 'string' || (entry.role !== undefined && entry.role !== 'default')) return undefined;
  const slash = entry.model.indexOf('/');
  return slash > 0 ? { provider: entry.model.slice(0, slash), modelId: entry.model.slice(slash + 1) } : undefined;
}

function isSystemMessageEntry(entry: SessionEntry): boolean {
  return entry.type === 'message' && isObject(entry.message) && (entry.message as { role?: unknown }).role === 'system';
}

/** Index of `firstKeptEntryId` among the entries before the compaction, or -1 (then nothing is kept). */
export function findKeptStart(path: readonly SessionEntry[], compactionIndex: number, firstKeptId: unknown): number {
  for (let i = 0; i < compactionIndex; i++) if (path[i]!.id === firstKeptId) return i;
  return -1;
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
