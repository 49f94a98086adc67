// Builds the conversation an LLM sees from a session tree (pi's `buildSessionContext`, docs/pi-compatibility.md "Building the context").
// Only the root→leaf path is walked, so the cost follows the path, never the whole file.
import type { AgentMessage } from '../core/messages';
import type { CompactionEntry, ModelChangeEntry, SessionEntry, ThinkingLevelChangeEntry } from './entries';
import { applyContextEdit, contextEditsOf } from './context-edits';
import { compactionSummaryMessage, contextMessageOf, entryTypeOf } from './entry-types';
import { withSeenNative } from './native-seen';

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

/** A node of the parent chain (an entry, or the entry index's record of one). */
interface Linked {
  id: string;
  parentId: string | null;
}

/**
 * Root→leaf path, stopping at a missing parent, a self-parent or a cycle. A walk longer than the index
 * has a cycle; only then is it walked again with a visited set (cut at the first repeat), so the usual
 * path costs no set of every id on it.
 */
export function pathToRoot<T extends Linked>(leaf: T, byId: ReadonlyMap<string, T>): T[] {
  // Without a cycle a path has at most byId.size entries; only a longer walk needs the visited set.
  const path: T[] = [];
  let current: T | undefined = leaf;
  while (current && path.length <= byId.size) {
    path.push(current);
    current = parentOf(current, byId);
  }
  return current ? pathWithoutCycle(leaf, byId) : path.reverse();
}

function parentOf<T extends Linked>(entry: T, byId: ReadonlyMap<string, T>): T | undefined {
  const parentId: string | null = entry.parentId;
  return parentId === null || parentId === entry.id ? undefined : byId.get(parentId);
}

function pathWithoutCycle<T extends Linked>(leaf: T, byId: ReadonlyMap<string, T>): T[] {
  const path: T[] = [];
  const seen = new Set<string>();
  for (let current: T | undefined = leaf; current && !seen.has(current.id); current = parentOf(current, byId)) {
    seen.add(current.id);
    path.push(current);
  }
  return path.reverse();
}

/**
 * A root→leaf path whose entries may not be read yet (the entry index defers most bodies): each entry's
 * type and id are known; `entry`/`entries` read bodies. Context building reads only the entries it uses.
 */
export interface PathView {
  readonly length: number;
  /** the entry's type as far as context building cares (a deferred kind never shapes the context) */
  type(i: number): string;
  id(i: number): string;
  entry(i: number): SessionEntry;
  /** entries [from, to), read in one batch */
  entries(from: number, to: number): SessionEntry[];
}

function arrayPath(path: readonly SessionEntry[]): PathView {
  return {
    length: path.length,
    type: (i) => path[i]!.type,
    id: (i) => path[i]!.id,
    entry: (i) => path[i]!,
    entries: (from, to) => path.slice(from, to),
  };
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
  return contextFromView(arrayPath(path));
}

/** contextFromPath over a path view: only the entries the context uses are read (entry-index.ts). */
export function contextFromView(path: PathView): SessionContext {
  let compactionIndex = -1;
  let resetIndex = -1;
  let thinkingIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const type = path.type(i);
    if (type === 'compaction') compactionIndex = i;
    else if (type === 'reset_boundary') resetIndex = i;
    else if (type === 'thinking_level_change') thinkingIndex = i;
  }
  const sources = contextEntriesOf(path, compactionIndex, resetIndex);
  const edits = contextEditsOf(sources);
  const messages: AgentMessage[] = [];
  const beforeCompaction = () => path.entries(0, Math.max(compactionIndex, 0));
  sources.forEach((entry, index) => {
    const edit = edits.get(entry.id);
    for (const message of entryContextMessages(entry, index === 0 && entry.type === 'compaction', beforeCompaction)) {
      const projected = applyContextEdit(message, edit);
      if (projected) messages.push(projected);
    }
  });
  return { messages, thinkingLevel: thinkingLevelAt(path, thinkingIndex), model: modelAtEnd(path) };
}

/** The latest thinking_level_change's level (applySettings' rule: the last one on the path wins). */
function thinkingLevelAt(path: PathView, index: number): string {
  if (index < 0) return DEFAULT_THINKING_LEVEL;
  return (path.entry(index) as ThinkingLevelChangeEntry).thinkingLevel ?? DEFAULT_THINKING_LEVEL;
}

/** applySettings' model as of the path's end: the last model change that names one, or assistant reply. */
function modelAtEnd(path: PathView): SessionContext['model'] {
  for (let i = path.length - 1; i >= 0; i--) {
    const type = path.type(i);
    if (type !== 'model_change' && type !== 'message') continue;
    const settings = { thinkingLevel: DEFAULT_THINKING_LEVEL, model: null as SessionContext['model'] };
    applySettings(path.entry(i), settings);
    if (settings.model) return settings.model;
  }
  return null;
}

/** The entries whose messages make up the context, in order (a compaction first when it opens it). */
export function contextEntries(path: readonly SessionEntry[], compactionIndex: number, resetIndex: number): SessionEntry[] {
  return contextEntriesOf(arrayPath(path), compactionIndex, resetIndex);
}

function contextEntriesOf(path: PathView, compactionIndex: number, resetIndex: number): SessionEntry[] {
  if (resetIndex > compactionIndex) return path.entries(resetIndex + 1, path.length);
  if (compactionIndex < 0) return path.entries(0, path.length);
  const compaction = path.entry(compactionIndex) as CompactionEntry;
  const keptFrom = findKeptStartOf(path, compactionIndex, compaction.firstKeptEntryId);
  const kept = keptFrom < 0 ? [] : path.entries(keptFrom, compactionIndex).filter((entry) => !isSystemMessageEntry(entry));
  return [compaction, ...kept, ...path.entries(compactionIndex + 1, path.length)];
}

/**
 * What one entry contributes; only the compaction that opens the context yields its summary, with the
 * native payloads whose messages the chat shows before it (native-seen.ts).
 */
function entryContextMessages(entry: SessionEntry, opensContext: boolean, before: () => readonly SessionEntry[]): AgentMessage[] {
  if (entry.type !== 'compaction') {
    const message = contextMessageFromEntry(entry);
    return message ? [message] : [];
  }
  if (!opensContext) return [];
  const made = compactionSummaryMessage(entry);
  const summary = made.native ? withSeenNative(made, before()) : made;
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
  return findKeptStartOf(arrayPath(path), compactionIndex, firstKeptId);
}

function findKeptStartOf(path: PathView, compactionIndex: number, firstKeptId: unknown): number {
  for (let i = 0; i < compactionIndex; i++) if (path.id(i) === firstKeptId) return i;
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
