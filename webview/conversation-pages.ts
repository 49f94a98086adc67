// The webview holds a window of the active path: the host sends its tail (`conversation`), older pages come
// on request (`loadEarlier` → `conversationPage`). These are the rules for that window, as pure functions
// over the store's conversation fields (no DOM), so they are unit-tested in Node: one request at a time,
// each numbered (`seq`), only the answer carrying the number of the request in flight is taken, a page
// never duplicates an item.
import { LIMITS, type ConversationItem, type HostMessageOf, type ToolResultItem } from '../src/protocol';

/** What a `loadEarlier` message asks for. */
export interface PageRequest {
  /** this request's number; its answer echoes it */
  seq: number;
  leafId: string;
  beforeId: string;
  count: number;
}

/** The parts of the store these rules read and write (the Store class has them as fields). */
export interface LoadedPath {
  leafId: string | null;
  /** shown items, root side first (tool results are kept in `results`, by tool call id) */
  items: ConversationItem[];
  results: Map<string, ToolResultItem>;
  /** the host has items before the earliest one received */
  hasEarlier: boolean;
  /** entry id of the earliest item received, shown or a tool result: what the next page must precede */
  earliestId: string | null;
  /** bumped by every `conversation` snapshot */
  snapshots: number;
  /** the request waiting for its answer, and the snapshot it was made in */
  loadingEarlier: (PageRequest & { snapshot: number }) | undefined;
  /** number of the last request made; the next one takes the following number (wrapping to 0) */
  lastSeq: number;
}

export type PageMessage = Omit<HostMessageOf<'conversationPage'>, 'type'>;
export type LabelChange = HostMessageOf<'labels'>['labels'][number];
export type PinChange = HostMessageOf<'pins'>['pins'][number];

/** Starts a page request, or returns undefined when none is due (nothing earlier, or one in flight). */
export function requestEarlier(path: LoadedPath, count: number): PageRequest | undefined {
  if (!path.hasEarlier || path.loadingEarlier || path.leafId === null || path.earliestId === null) return undefined;
  path.lastSeq = nextSeq(path.lastSeq);
  const request = { seq: path.lastSeq, leafId: path.leafId, beforeId: path.earliestId, count };
  path.loadingEarlier = { ...request, snapshot: path.snapshots };
  return request;
}

/** Why `page` does not answer the request in flight, or undefined when it does. */
export function stalePageReason(path: LoadedPath, page: PageMessage): string | undefined {
  const pending = path.loadingEarlier;
  if (!pending) return 'no page was asked for';
  if (page.seq !== pending.seq) return `it answers request #${page.seq}, not #${pending.seq}`;
  if (pending.snapshot !== path.snapshots) return 'the conversation was reloaded since it was asked for';
  if (page.leafId !== pending.leafId || page.beforeId !== pending.beforeId) return `it does not match request #${pending.seq} (before ${page.beforeId} on ${page.leafId})`;
  if (page.beforeId !== path.earliestId) return 'the earliest item changed since it was asked for';
  return undefined;
}

/**
 * Puts an answered page in front of the loaded items. Returns why it was ignored (nothing changed) when it
 * does not answer the request in flight. Items already loaded are skipped, so a buggy or hostile page
 * cannot duplicate a row; a tool result already known for its call keeps the later one, as a snapshot does.
 */
export function prependPage(path: LoadedPath, page: PageMessage): string | undefined {
  const stale = stalePageReason(path, page);
  if (stale) return stale;
  path.loadingEarlier = undefined;
  const known = new Set<string>();
  for (const item of path.items) known.add(item.entryId);
  for (const result of path.results.values()) known.add(result.entryId);
  const shown: ConversationItem[] = [];
  for (const item of page.items) {
    if (known.has(item.entryId)) continue;
    known.add(item.entryId);
    if (item.kind !== 'toolResult') shown.push(item);
    else if (!path.results.has(item.toolCallId)) path.results.set(item.toolCallId, item);
  }
  path.items = shown.concat(path.items);
  if (page.items.length > 0) path.earliestId = page.items[0]!.entryId;
  // An empty page cannot be followed by another: stop asking instead of asking again forever.
  path.hasEarlier = page.hasEarlier && page.items.length > 0;
  return undefined;
}

/** Gives up on `request` (its answer did not come); true when it was the one in flight. */
export function abandonRequest(path: LoadedPath, request: PageRequest): boolean {
  if (path.loadingEarlier?.seq !== request.seq) return false;
  path.loadingEarlier = undefined;
  return true;
}

/** The number after `seq`, within the protocol's bound. */
export function nextSeq(seq: number): number {
  return seq >= LIMITS.seq || seq < 0 || !Number.isInteger(seq) ? 0 : seq + 1;
}

/** Sets or removes labels on the loaded items (results included); returns whether any item changed. */
export function applyLabels(path: LoadedPath, labels: readonly LabelChange[]): boolean {
  const byId = new Map(labels.map((change) => [change.entryId, change.label]));
  return patchItems(path, <T extends ConversationItem>(item: T): T => {
    if (!byId.has(item.entryId) || byId.get(item.entryId) === item.label) return item;
    const { label: _old, ...rest } = item;
    const label = byId.get(item.entryId);
    return (label ? { ...rest, label } : rest) as T;
  });
}

/** Sets or clears the pin mark on the loaded items; returns whether any item changed. */
export function applyPins(path: LoadedPath, pins: readonly PinChange[]): boolean {
  const byId = new Map(pins.map((change) => [change.entryId, change.pinned]));
  return patchItems(path, <T extends ConversationItem>(item: T): T => {
    const pinned = byId.get(item.entryId);
    if (pinned === undefined || pinned === (item.pinned === true)) return item;
    const { pinned: _old, ...rest } = item;
    return (pinned ? { ...rest, pinned: true } : rest) as T;
  });
}

/** Replaces the loaded items (results included) that `patch` changes; returns whether any did. */
function patchItems(path: LoadedPath, patch: <T extends ConversationItem>(item: T) => T): boolean {
  let changed = false;
  path.items = path.items.map((item) => {
    const next = patch(item);
    changed ||= next !== item;
    return next;
  });
  for (const [callId, result] of path.results) {
    const next = patch(result);
    if (next !== result) path.results.set(callId, next);
  }
  return changed;
}
