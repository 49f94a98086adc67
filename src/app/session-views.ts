// What one open session looks like to the UIs: its tree nodes (kept incremental), the conversation on the
// active path (a tail, or a page before an entry), the branch totals and the first user message, all kept
// in step with appends and reloads without walking the session per turn. One per session the app has
// open; it turns store changes into `AppChange`s and hands them to the app's emitter. The UIs read them as
// the member `app.views` (SessionViewsApi; NO_SESSION_VIEWS while none is open): nothing forwards them.
import { stageStartIds } from '../branch/stage';
import { pinChangeOf } from '../session/pins';
import { userContentText } from '../core/messages';
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import { done, mapDone, refused, type AppOutcome } from './app-outcome';
import { type AppChange, type ConversationOption, type ConversationWindow, type EarlierPageRequest, type EarlierPageResult, type SessionView } from './app-types';
import { usageView } from '../present/normalize-view';
import { TreeIndex } from './tree-index';
import { measuresCompaction } from '../present/marker-figures';
import {
  conversationEntry,
  conversationOfPath,
  conversationSlice,
  PAIRING_SCAN_LIMIT,
  pairToolCalls,
  pathTail,
  type ConversationEntry,
  type ConversationSlice,
  type ToolCallView,
  type TreeNodeView,
} from './view-model';

/** The active path and each entry's position on it (no views: cheap to build, O(path)). */
interface PathIndex {
  leafId: string | null;
  /** the store's indexRevision it was built from: a rewrite (pruning) replaces the entry objects */
  revision: number;
  path: SessionEntry[];
  position: Map<string, number>;
}

export interface SessionViewsDeps {
  emit(change: AppChange): void;
  sessionView(): SessionView | null;
  /** compaction reasons seen in this process, by compaction entry id (the file does not store them) */
  compactionReasons: ReadonlyMap<string, string>;
}

/** What one entry adds to the branch totals (assistant replies with usage; as `branchTotals` in chat-items). */
function replyUsage(entry: SessionEntry): { cost: number; tokens: number } {
  if (entry.type !== 'message' || entry.message.role !== 'assistant' || !entry.message.usage) return { cost: 0, tokens: 0 };
  const usage = usageView(entry.message.usage, []);
  return usage ? { cost: usage.cost, tokens: usage.input + usage.output } : { cost: 0, tokens: 0 };
}

export class SessionViews {
  private stageCache: { key: string; ids: Set<string> } | undefined;
  private tree: TreeIndex;
  /** the conversation's leaf as the UI last heard it; appends onto it are "appended", others "reset" */
  private conversationLeaf: string | null;
  private readonly pendingCalls = new Map<string, { entry: ConversationEntry; call: ToolCallView }>();
  /** first user message text: null = not looked up yet for this session */
  private firstUserText: string | undefined | null = null;
  private totals: { leafId: string | null; cost: number; tokens: number } | undefined;
  /** built when a UI first asks for an earlier page of the conversation; follows appends to the leaf */
  private pathIndex: PathIndex | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly deps: SessionViewsDeps,
  ) {
    this.tree = new TreeIndex(store);
    this.conversationLeaf = store.getLeafId();
  }

  /**
   * The text of the session's first user message (file order), what the Sessions view shows for a session
   * without a name; undefined when there is none yet. Found once per session, then kept.
   */
  firstUserMessage(): string | undefined {
    if (this.firstUserText === null) {
      this.firstUserText = undefined;
      for (const entry of this.store.getEntries()) {
        if (entry.type === 'message' && entry.message.role === 'user') {
          this.firstUserText = userContentText(entry.message.content);
          break;
        }
      }
    }
    return this.firstUserText;
  }

  /**
   * Cost and tokens of the replies on the active path. Kept up to date on appends; recomputed (O(path))
   * only after the path changed otherwise, so state and usage posts during a turn do not walk the session.
   */
  branchTotals(): { cost: number; tokens: number } {
    const leafId = this.store.getLeafId();
    if (this.totals?.leafId !== leafId) {
      let cost = 0;
      let tokens = 0;
      for (const entry of this.store.getBranch()) {
        const reply = replyUsage(entry);
        cost += reply.cost;
        tokens += reply.tokens;
      }
      this.totals = { leafId, cost, tokens };
    }
    return { cost: this.totals.cost, tokens: this.totals.tokens };
  }

  /** The conversation `snapshot()` shows: the whole path, none, or its newest `last` views. */
  conversation(wanted: ConversationOption): { views: ConversationEntry[]; hasEarlier: boolean } {
    if (wanted === false) return { views: [], hasEarlier: false };
    if (wanted === true) return { views: this.conversationFromStore(), hasEarlier: false };
    return this.conversationTail(wanted.last);
  }

  treeNodes(): TreeNodeView[] {
    return this.tree.all();
  }

  /**
   * The newest `count` views of the active path's conversation (what a chat shows first), tool calls paired
   * as on the whole path. Only the end of the path the slice needs is walked (O(count + turn), not O(path)).
   */
  conversationTail(count: number): ConversationWindow {
    const store = this.store;
    const leafId = store.getLeafId();
    const wanted = Math.max(1, Math.floor(count));
    const path = this.isCurrentPathIndex() ? this.pathIndex!.path : pathTail(store.getLeafEntry(), (entry) => this.parentOf(entry), wanted);
    return { leafId, ...this.decorated(conversationSlice(path, path.length, wanted, (id) => store.getLabel(id))) };
  }

  /** An entry's parent as the store's paths see it: none for a root or a self-parented entry. */
  private parentOf(entry: SessionEntry): SessionEntry | undefined {
    return entry.parentId === null || entry.parentId === entry.id ? undefined : this.store.getEntry(entry.parentId);
  }

  /**
   * The (at most) `count` views right before `beforeId`, for a UI showing the path that ends at `leafId`
   * from `beforeId` on. Refused with a reason, never thrown, when that is not (a part of) the active path
   * any more or `beforeId` is not on it: a UI's request may be stale or come from a hostile webview.
   */
  conversationBefore(request: EarlierPageRequest): EarlierPageResult {
    const count = Math.floor(request.count);
    if (!(count >= 1)) return { ok: false, reason: `count ${request.count} is not a positive number` };
    const { path, position } = this.activePathIndex();
    const shownLeaf = position.get(request.leafId);
    if (shownLeaf === undefined) return { ok: false, reason: `${request.leafId} is not on the active path (it changed since)` };
    const before = position.get(request.beforeId);
    if (before === undefined || before > shownLeaf) return { ok: false, reason: `${request.beforeId} is not on the path ending at ${request.leafId}` };
    const slice = conversationSlice(path, before, count, (id) => this.store.getLabel(id));
    return { ok: true, leafId: request.leafId, ...this.decorated(slice) };
  }

  private isCurrentPathIndex(): boolean {
    return this.pathIndex?.leafId === this.store.getLeafId() && this.pathIndex.revision === this.store.indexRevision;
  }

  private activePathIndex(): PathIndex {
    if (!this.isCurrentPathIndex()) {
      const path = this.store.getBranch();
      const position = new Map<string, number>();
      for (let i = 0; i < path.length; i++) position.set(path[i]!.id, i);
      this.pathIndex = { leafId: this.store.getLeafId(), revision: this.store.indexRevision, path, position };
    }
    return this.pathIndex!;
  }

  /** Keeps the path index in step with an append that extends the active path (O(1)). */
  private extendPathIndex(entry: SessionEntry): void {
    const index = this.pathIndex;
    if (!index || entry.parentId !== index.leafId || index.position.has(entry.id)) return;
    index.position.set(entry.id, index.path.length);
    index.path.push(entry);
    index.leafId = entry.id;
  }

  private decorated(slice: ConversationSlice): ConversationSlice {
    for (const view of slice.views) this.decorate(view);
    return slice;
  }

  /** One entry's conversation view (e.g. to reveal it); undefined for unknown or hidden entries. */
  entryView(entryId: string): ConversationEntry | undefined {
    const entry = this.store.getEntry(entryId);
    return entry ? this.viewOf(entry) : undefined;
  }

  treeNode(entryId: string): TreeNodeView | undefined {
    return this.tree.get(entryId);
  }

  /** The tree row of the leaf (a leaf on a file manifest shows on the reply above it). */
  get treeLeafId(): string | null {
    return this.tree.shownLeafId;
  }

  /** The views of the messages a compaction summarised: its path before the first kept entry. */
  summarizedBy(compactionId: string): AppOutcome<ConversationEntry[]> {
    return mapDone(this.compaction(compactionId), (compaction) => {
      const path = this.store.getBranch(compaction.id);
      const keptAt = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
      return path.slice(0, keptAt === -1 ? path.length - 1 : keptAt).flatMap((entry) => this.viewOf(entry) ?? []);
    });
  }

  /** "Continue from before this compaction": the entry before its first kept one. */
  entryBeforeCompaction(compactionId: string): AppOutcome<string> {
    const compaction = this.compaction(compactionId);
    if (compaction.kind === 'refused') return compaction;
    const target = this.store.getEntry(compaction.value.firstKeptEntryId)?.parentId ?? compaction.value.parentId;
    return target ? done(target) : refused('nothing-before-compaction');
  }

  private compaction(compactionId: string): AppOutcome<Extract<SessionEntry, { type: 'compaction' }>> {
    const entry = this.store.getEntry(compactionId);
    return entry?.type === 'compaction' ? done(entry) : refused('unknown-compaction', `Unknown compaction "${compactionId}".`);
  }

  private conversationFromStore(): ConversationEntry[] {
    const conversation = conversationOfPath(this.store.getBranch(), (id) => this.store.getLabel(id));
    for (const view of conversation) this.decorate(view);
    return conversation;
  }

  private viewOf(entry: SessionEntry): ConversationEntry | undefined {
    const view = conversationEntry(entry, this.store.getLabel(entry.id));
    if (view) this.decorate(view);
    return view;
  }

  /** Where "Summarize from Here" can start on the active path (the command's predicate), once per leaf. */
  private stageStarts(): Set<string> {
    const key = `${this.store.getLeafId() ?? ''}:${this.store.entryCount}`;
    if (this.stageCache?.key !== key) this.stageCache = { key, ids: stageStartIds(this.store.getBranch()) };
    return this.stageCache.ids;
  }

  private decorate(view: ConversationEntry): void {
    if (view.problems) this.store.notePartlyShown(view.id, view.problems);
    if (this.tree.isPinned(view.id)) view.pinned = true;
    if (this.stageStarts().has(view.id)) view.stageStart = true;
    if (view.kind === 'compaction' && view.reason === undefined) {
      const reason = this.deps.compactionReasons.get(view.id);
      if (reason) view.reason = reason;
    }
  }

  /**
   * The path changed under the conversation: forget the calls seen on the old one. Calls made before this
   * point are found on demand (`pairWithEarlierCall`), so opening a session builds no view per entry.
   */
  private forgetPendingCalls(): void {
    this.pendingCalls.clear();
  }

  /**
   * A tool result whose call was not appended in this process: walk back along its path to the call, as
   * pairing the whole path would. Stops at the call, or at an earlier result for the same call (then this
   * one is unpaired). Like the windowed pairing (view-model), the walk ends at the turn's user message
   * and after PAIRING_SCAN_LIMIT entries, so an orphan result never costs a walk to the root per append.
   */
  private pairWithEarlierCall(view: ConversationEntry): void {
    const callId = view.toolCallId;
    if (view.kind !== 'toolResult' || !callId || this.pendingCalls.has(callId)) return;
    const seen = new Set<string>();
    for (let id = view.parentId; id !== null && !seen.has(id) && seen.size < PAIRING_SCAN_LIMIT; ) {
      seen.add(id);
      const entry = this.store.getEntry(id);
      if (!entry) return;
      if (entry.type === 'message') {
        const message = entry.message;
        if (message.role === 'user') return;
        if (message.role === 'toolResult' && message.toolCallId === callId) return;
        if (message.role === 'assistant' && message.content.some((block) => block.type === 'toolCall' && block.id === callId)) {
          view.callEntryId = entry.id;
          return;
        }
      }
      id = entry.parentId === entry.id ? null : entry.parentId;
    }
  }

  /** The store appended `entry`: tree delta, label changes, a rename, and the conversation (append or reset). */
  onAppend(entry: SessionEntry): void {
    const store = this.store;
    if (this.firstUserText === undefined && entry.type === 'message' && entry.message.role === 'user') this.firstUserText = userContentText(entry.message.content);
    if (this.totals && entry.parentId === this.totals.leafId && store.getLeafId() === entry.id) {
      const reply = replyUsage(entry);
      this.totals = { leafId: entry.id, cost: this.totals.cost + reply.cost, tokens: this.totals.tokens + reply.tokens };
    }
    const delta = this.tree.append(entry);
    this.deps.emit({ kind: 'tree', ...delta });
    const extendsPath = entry.parentId === this.conversationLeaf && store.getLeafId() === entry.id;
    if (store.getLeafId() === entry.id) this.extendPathIndex(entry);
    this.conversationLeaf = store.getLeafId();
    const labels = entry.type === 'label' ? [{ id: entry.targetId, ...(store.getLabel(entry.targetId) ? { label: store.getLabel(entry.targetId)! } : {}) }] : [];
    // a rename changes what the session is called everywhere it is shown (chat header, views)
    if (entry.type === 'session_info') this.deps.emit({ kind: 'session', session: this.deps.sessionView() });
    // The first reply after a compaction makes its marker's "tokens after" real: the marker is re-sent.
    if (!extendsPath || measuresCompaction(entry, (id) => store.getEntry(id))) {
      this.forgetPendingCalls();
      this.deps.emit({ kind: 'conversation', appended: [], reset: true, labels });
      return;
    }
    const view = this.viewOf(entry);
    if (view) {
      this.pairWithEarlierCall(view);
      pairToolCalls(view, this.pendingCalls);
    }
    const pin = pinChangeOf(entry);
    this.deps.emit({ kind: 'conversation', appended: view ? [view] : [], reset: false, labels, ...(pin ? { pins: [pin] } : {}) });
  }

  /** The file was read again (another process rewrote it): everything is rebuilt and the UIs reset. */
  onReload(): void {
    this.tree = new TreeIndex(this.store);
    this.firstUserText = null;
    this.totals = undefined;
    this.pathIndex = undefined;
    this.conversationLeaf = this.store.getLeafId();
    this.forgetPendingCalls();
    this.deps.emit({ kind: 'session', session: this.deps.sessionView() });
    this.deps.emit({ kind: 'conversation', appended: [], reset: true, labels: [] });
  }

  /** The leaf moved without an append (navigation without a summary). */
  syncLeaf(): void {
    const delta = this.tree.syncLeaf();
    if (delta.changed.length > 0 || delta.added.length > 0) this.deps.emit({ kind: 'tree', ...delta });
    if (this.store.getLeafId() !== this.conversationLeaf) {
      this.conversationLeaf = this.store.getLeafId();
      this.forgetPendingCalls();
      this.deps.emit({ kind: 'conversation', appended: [], reset: true, labels: [] });
    }
  }
}

/** What the UIs read of the open session's views (`app.views`); the rest feeds them from the store. */
export type SessionViewsApi = Pick<
  SessionViews,
  'firstUserMessage' | 'branchTotals' | 'conversation' | 'treeNodes' | 'conversationTail' | 'conversationBefore' | 'entryView' | 'treeNode' | 'treeLeafId' | 'summarizedBy' | 'entryBeforeCompaction'
>;

/** The views while no session is open: nothing to show, and what names an entry is refused. */
export const NO_SESSION_VIEWS: SessionViewsApi = {
  firstUserMessage: () => undefined,
  branchTotals: () => ({ cost: 0, tokens: 0 }),
  conversation: () => ({ views: [], hasEarlier: false }),
  treeNodes: () => [],
  conversationTail: () => ({ leafId: null, views: [], hasEarlier: false }),
  conversationBefore: () => ({ ok: false, reason: 'no session is open' }),
  entryView: () => undefined,
  treeNode: () => undefined,
  treeLeafId: null,
  summarizedBy: () => refused('no-session'),
  entryBeforeCompaction: () => refused('no-session'),
};
