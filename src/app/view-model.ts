// Serialisable view models of a session for the UIs (chat webview, Session Tree): the conversation on the
// active path and the nodes of the whole tree. Plain data only (no class instances, no functions), so a
// view model can be posted to a webview as is.
import { nativeContextNote, nativePayloadsOf } from '../core/native-compaction';
import { seenPayloads } from '../session/native-seen';
import { measureCompactions } from '../present/marker-figures';
import type { SessionEntry } from '../session/entries';
import { kindOf } from '../present/kinds/index';
import { filesChangedLine } from '../present/kinds/custom';
import { conversationEntry, isShownInConversation } from './conversation-entry';
import { firstLine } from '../present/summary-text';
import type { FilesBadge } from './display-tree';

export { conversationEntry, filesChangedLine, firstLine, isShownInConversation };

export type { AssistantView, BranchSummaryView, CompactionView, ConversationEntry, ConversationKind, ToolCallView, ToolResultView, ViewBlock } from '../present/view-types';
import type { ConversationEntry, ToolCallView } from '../present/view-types';
import type { TreeNodeKind } from '../protocol';

export interface TreeNodeView {
  id: string;
  parentId: string | null;
  kind: TreeNodeKind;
  /** first line of the entry's text (bounded), for lists and hovers */
  firstLine: string;
  label?: string;
  /** pinned on the active path: compactions keep it verbatim (src/session/pins.ts) */
  pinned?: boolean;
  isOnActivePath: boolean;
  isLeaf: boolean;
  childCount: number;
  timestamp: string;
  /** the files this reply's turn changed (its file manifests have no node of their own: display-tree.ts) */
  files?: FilesBadge;
}

/** The in-panel tree's node kind of an entry (its kind's). */
export function entryKind(entry: SessionEntry): TreeNodeKind {
  return kindOf(entry).treeKind(entry);
}

/** A one-line description of any entry (its kind's). */
export function entrySummaryLine(entry: SessionEntry): string {
  return kindOf(entry).summaryLine(entry);
}

/**
 * A compaction marker's native-context note, kept only when context building would send that context
 * (its messages are shown on the path before the compaction: src/session/native-seen.ts).
 */
function confirmNativeNote(view: ConversationEntry, entry: SessionEntry, path: readonly SessionEntry[], index: number): void {
  if (view.kind !== 'compaction' || !view.nativeContext || entry.type !== 'compaction') return;
  const first = seenPayloads(nativePayloadsOf(entry.preserveData), path.slice(0, index))[0];
  if (first) view.nativeContext = nativeContextNote(first);
  else delete view.nativeContext;
}

/** The conversation of a path (root → leaf), with tool calls paired to their results. */
export function conversationOfPath(path: readonly SessionEntry[], labelOf: (id: string) => string | undefined): ConversationEntry[] {
  const out: ConversationEntry[] = [];
  const calls = new Map<string, { entry: ConversationEntry; call: ToolCallView }>();
  path.forEach((entry, index) => {
    const view = conversationEntry(entry, labelOf(entry.id));
    if (!view) return;
    pairToolCalls(view, calls);
    if (view.kind === 'compaction') measureCompactions([view], path, () => index);
    confirmNativeNote(view, entry, path, index);
    out.push(view);
  });
  return out;
}

/** Links a tool result to its call (both views are updated). `calls` carries pending calls along a path. */
export function pairToolCalls(view: ConversationEntry, calls: Map<string, { entry: ConversationEntry; call: ToolCallView }>): void {
  if (view.kind === 'assistant') for (const call of view.toolCalls ?? []) calls.set(call.id, { entry: view, call });
  else if (view.kind === 'toolResult' && view.toolCallId) {
    const pending = calls.get(view.toolCallId);
    if (pending) {
      pending.call.resultEntryId = view.id;
      pending.call.isError = view.isError === true;
      view.callEntryId = pending.entry.id;
      calls.delete(view.toolCallId);
    }
  }
}

/** Some of a path's conversation: its views, and whether the path shows anything before them. */
export interface ConversationSlice {
  views: ConversationEntry[];
  hasEarlier: boolean;
}

/**
 * How far past either edge of a slice tool calls are paired (in entries). A call's result follows it within
 * the same turn, before the next user message, where the scan stops anyway; the bound only caps the cost
 * of a pathological path (a turn of thousands of entries, or a result that never comes).
 */
export const PAIRING_SCAN_LIMIT = 2_000;

/**
 * The last `count` shown entries of `path[0..end)`, as `conversationOfPath(path)` would show them, building
 * views only for those: the cost is O(count) views plus the scans at the edges, not O(path). Tool calls are
 * paired across the slice's edges: results of its calls are looked for after `end` (up to the next user
 * message) and calls of its results before its start (back to the turn's user message), both bounded by
 * PAIRING_SCAN_LIMIT. `hasEarlier` says whether `path[0..start)` has a shown entry.
 */
export function conversationSlice(
  path: readonly SessionEntry[],
  end: number,
  count: number,
  labelOf: (id: string) => string | undefined,
): ConversationSlice {
  const stop = Math.max(0, Math.min(end, path.length));
  const views: ConversationEntry[] = [];
  let start = stop;
  while (start > 0 && views.length < count) {
    const entry = path[--start]!;
    const view = conversationEntry(entry, labelOf(entry.id));
    if (view?.kind === 'compaction') measureCompactions([view], path, () => start);
    if (view) confirmNativeNote(view, entry, path, start);
    if (view) views.push(view);
  }
  views.reverse();
  const calls = callsPendingAt(path, start);
  for (const view of views) pairToolCalls(view, calls);
  pairWithLaterResults(path, stop, calls);
  return { views, hasEarlier: hasShownEntryBefore(path, start) };
}

/** Whether anything in `path[0..index)` is shown. */
function hasShownEntryBefore(path: readonly SessionEntry[], index: number): boolean {
  for (let i = index - 1; i >= 0; i--) if (isShownInConversation(path[i]!)) return true;
  return false;
}

/**
 * The end of the path to `leaf` that `conversationSlice(tail, tail.length, count)` needs to give the same
 * result as on the whole path: back from the leaf past `count` shown entries, then on to one more shown
 * entry (for `hasEarlier`) and to the turn's user message (or PAIRING_SCAN_LIMIT entries, for pairing), or
 * to the root. O(count + turn) entries, whatever the length of the path. `parentOf` gives an entry's parent
 * (undefined at the root); a parent cycle ends the walk as the root would.
 */
export function pathTail(leaf: SessionEntry | undefined, parentOf: (entry: SessionEntry) => SessionEntry | undefined, count: number): SessionEntry[] {
  const reversed: SessionEntry[] = [];
  const seen = new Set<string>();
  let shown = 0;
  let beforeSlice = 0;
  let earlierShown = false;
  let turnStart = false;
  for (let entry = leaf; entry && !seen.has(entry.id); entry = parentOf(entry)) {
    seen.add(entry.id);
    reversed.push(entry);
    if (shown < count) {
      if (isShownInConversation(entry)) shown++;
      continue;
    }
    beforeSlice++;
    earlierShown ||= isShownInConversation(entry);
    turnStart ||= isUserMessage(entry);
    if (earlierShown && (turnStart || beforeSlice >= PAIRING_SCAN_LIMIT)) break;
  }
  return reversed.reverse();
}

function isUserMessage(entry: SessionEntry): boolean {
  return entry.type === 'message' && entry.message.role === 'user';
}

/**
 * Only what pairToolCalls reads of an entry (kind, id, call ids, result's call id and error flag), without
 * the texts: entries outside a slice are looked at for pairing, never shown.
 */
function pairingView(entry: SessionEntry): ConversationEntry | undefined {
  if (entry.type !== 'message') return undefined;
  const message = entry.message;
  const base = { id: entry.id, parentId: entry.parentId, timestamp: entry.timestamp };
  if (message.role === 'assistant') {
    const toolCalls: ToolCallView[] = [];
    for (const block of message.content) if (block.type === 'toolCall') toolCalls.push({ id: block.id, name: block.name, args: block.arguments });
    return { ...base, kind: 'assistant', blocks: [], toolCalls, stopReason: 'stop' };
  }
  if (message.role === 'toolResult') return { ...base, kind: 'toolResult', toolCallId: message.toolCallId, toolName: '', text: '', isError: message.isError === true };
  return undefined;
}

/**
 * The calls still waiting for a result at `path[index]`, as conversationOfPath's pairing would hold them
 * there: replayed from the turn's user message (nothing is pending across one), or from
 * PAIRING_SCAN_LIMIT entries back.
 */
function callsPendingAt(path: readonly SessionEntry[], index: number): Map<string, { entry: ConversationEntry; call: ToolCallView }> {
  const calls = new Map<string, { entry: ConversationEntry; call: ToolCallView }>();
  const floor = Math.max(0, index - PAIRING_SCAN_LIMIT);
  let from = index;
  while (from > floor && !isUserMessage(path[from - 1]!)) from--;
  for (let i = from; i < index; i++) {
    const view = pairingView(path[i]!);
    if (view) pairToolCalls(view, calls);
  }
  return calls;
}

/** Pairs the pending calls with results in `path[index..]`, up to the next user message (bounded). */
function pairWithLaterResults(path: readonly SessionEntry[], index: number, calls: Map<string, { entry: ConversationEntry; call: ToolCallView }>): void {
  const limit = Math.min(path.length, index + PAIRING_SCAN_LIMIT);
  for (let i = index; i < limit && calls.size > 0; i++) {
    const entry = path[i]!;
    if (isUserMessage(entry)) return;
    const view = pairingView(entry);
    if (view) pairToolCalls(view, calls);
  }
}
