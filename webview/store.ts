// The webview's model of what the host told it: chrome state, the active path, the tree, live tool and
// approval status, the streaming draft, navigation progress. Render modules read it; main.ts writes it
// from validated host messages. Listeners are told which part changed so only that part re-renders.
import type {
  ApprovalDiffView,
  ApprovalWarningView,
  AgentUiEvent,
  AssistantBlock,
  AssistantItem,
  ChatState,
  ConversationItem,
  ErrorAction,
  ToolResultItem,
  ToolStatus,
  TreeNode,
} from '../src/protocol';
import {
  abandonRequest,
  applyLabels,
  applyPins,
  prependPage,
  requestEarlier,
  type LabelChange,
  type PinChange,
  type LoadedPath,
  type PageMessage,
  type PageRequest,
} from './conversation-pages';
import { eventNotice, NoticeBoard, type InlineNotice, type NoticeAction, type NoticeEvent } from './notices';
import { applyTreePatch, treeModelOf, type TreeModel, type TreePatch } from './tree-patch';

/** 'earlier': a page of older items was put in front, or the page request started or ended. */
export type Part = 'state' | 'conversation' | 'earlier' | 'tree' | 'draft' | 'tools' | 'navigation' | 'notices';

export interface ToolLive {
  status: ToolStatus;
  partialText?: string;
  canDiff?: boolean;
  reason?: string;
  /** why the call asks whatever the settings say (protected file, hard link) */
  warnings?: ApprovalWarningView[];
  /** a file-writing call with a preview: the compact diff shown on the approval card */
  diff?: ApprovalDiffView;
  /** a tool that runs a command: the whole command, as the host says the tool will run it */
  command?: string;
}

export interface NavigationStatus {
  targetId: string;
  state: 'summarizing' | 'done' | 'cancelled' | 'failed';
  message?: string;
}

/** The assistant reply being streamed (not yet persisted). */
export interface Draft {
  blocks: AssistantBlock[];
  /** raw JSON text of tool call arguments still streaming, by content index */
  partialArgs: Map<number, string>;
}

export class Store implements LoadedPath {
  state: ChatState | undefined;
  /** the loaded part of the active path: its tail, and the earlier pages the user scrolled to */
  items: ConversationItem[] = [];
  leafId: string | null = null;
  /** tool results by toolCallId (rendered inside the assistant's tool card) */
  results = new Map<string, ToolResultItem>();
  /** the host has items on the path before the loaded ones */
  hasEarlier = false;
  earliestId: string | null = null;
  loadingEarlier: LoadedPath['loadingEarlier'];
  /**
   * Page requests are numbered from a random start, so a late answer to a request of an earlier instance of
   * this webview (VS Code re-creates it when the view is shown again) is all but certain to carry another
   * number than the request in flight (and its leaf and page are checked as well).
   */
  lastSeq = Math.floor(Math.random() * 2 ** 30);
  private treeModel: TreeModel = treeModelOf(null, []);
  tools = new Map<string, ToolLive>();
  draft: Draft | undefined;
  navigation: NavigationStatus | undefined;
  private board = new NoticeBoard();
  /** what a failed reply's error offers, by its entry id (known from the error event of this session) */
  errorActions = new Map<string, readonly ErrorAction[]>();
  /** set once the host sent anything beyond state: decides between welcome text and conversation */
  hasConversation = false;
  /** counts conversation snapshots (a snapshot replaces the path; an append extends it) */
  snapshots = 0;
  private listeners = new Set<(parts: ReadonlySet<Part>) => void>();
  private pending = new Set<Part>();
  private scheduled = false;

  subscribe(listener: (parts: ReadonlySet<Part>) => void): void {
    this.listeners.add(listener);
  }

  /** Coalesces change notifications to one per animation frame (streaming deltas arrive faster). */
  changed(part: Part): void {
    this.pending.add(part);
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.flush());
  }

  /** Delivers pending notifications now (tests, and before measuring). */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const parts = this.pending;
    this.pending = new Set();
    for (const listener of this.listeners) listener(parts);
  }

  get busy(): boolean {
    return this.state?.busy ?? false;
  }

  setState(state: ChatState): void {
    this.state = state;
    if (this.board.enterSession(state.sessionFile ?? null)) {
      this.errorActions.clear();
      this.changed('notices');
    }
    this.changed('state');
  }

  /** A snapshot: the tail of the (new) active path replaces everything loaded; a page in flight is stale. */
  setConversation(leafId: string | null, items: ConversationItem[], hasEarlier: boolean): void {
    this.snapshots++;
    this.leafId = leafId;
    this.hasEarlier = hasEarlier;
    this.earliestId = items[0]?.entryId ?? null;
    this.loadingEarlier = undefined;
    this.results.clear();
    const shown: ConversationItem[] = [];
    for (const item of items) {
      if (item.kind === 'toolResult') this.results.set(item.toolCallId, item);
      else shown.push(item);
    }
    this.items = shown;
    this.hasConversation = true;
    // A snapshot is the truth: statuses of calls that have results now come from the results.
    for (const id of [...this.tools.keys()]) if (this.results.has(id)) this.tools.delete(id);
    this.changed('conversation');
  }

  /** The `loadEarlier` to post for the page before the loaded items; undefined when none is due. */
  requestEarlier(count: number): PageRequest | undefined {
    const request = requestEarlier(this, count);
    if (request) this.changed('earlier');
    return request;
  }

  /** Puts an answered page in front; returns why it was ignored when it is stale. */
  applyPage(page: PageMessage): string | undefined {
    const ignored = prependPage(this, page);
    if (!ignored) this.changed('earlier');
    return ignored;
  }

  /** The answer to `request` did not come: the next scroll may ask again. */
  abandonEarlier(request: PageRequest): boolean {
    const abandoned = abandonRequest(this, request);
    if (abandoned) this.changed('earlier');
    return abandoned;
  }

  /** Label changes patch the loaded items in place (a snapshot would drop the earlier pages). */
  setLabels(leafId: string | null, labels: readonly LabelChange[]): void {
    this.leafId = leafId;
    applyLabels(this, labels);
    this.changed('conversation');
  }

  /** Pin changes patch the loaded items in place, like labels. */
  setPins(leafId: string | null, pins: readonly PinChange[]): void {
    this.leafId = leafId;
    applyPins(this, pins);
    this.changed('conversation');
  }

  /** every node of the session tree, file order (a full `tree` message plus the patches since) */
  get tree(): readonly TreeNode[] {
    return this.treeModel.nodes;
  }

  get treeLeafId(): string | null {
    return this.treeModel.leafId;
  }

  /** whether a full `tree` has arrived (before it, `tree` is empty and says nothing about the path) */
  treeReceived = false;

  setTree(leafId: string | null, nodes: TreeNode[]): void {
    this.treeReceived = true;
    this.treeModel = treeModelOf(leafId, nodes);
    this.changed('tree');
  }

  /** Appends, label changes and leaf moves arrive as patches: O(patch), not O(session). */
  patchTree(patch: TreePatch): void {
    applyTreePatch(this.treeModel, patch);
    this.changed('tree');
  }

  setNavigation(status: NavigationStatus | undefined): void {
    this.navigation = status;
    this.changed('navigation');
  }

  /** the inline notices of the session shown, oldest first */
  get notices(): readonly InlineNotice[] {
    return this.board.notices;
  }

  addNotice(level: InlineNotice['level'], text: string, actions?: readonly NoticeAction[]): void {
    if (this.board.add({ level, text, ...(actions?.length ? { actions } : {}) })) this.changed('notices');
  }

  dismissNotice(id: number): void {
    this.board.dismiss(id);
    this.changed('notices');
  }

  applyEvent(event: AgentUiEvent): void {
    switch (event.type) {
      case 'busy':
      case 'idle':
        if (event.type === 'busy') this.noticeOf(event);
        if (this.state) this.state = { ...this.state, busy: event.type === 'busy' };
        if (event.type === 'idle') {
          this.draft = undefined;
          this.noticeOf(event);
        }
        this.changed('state');
        this.changed('draft');
        return;
      case 'message_start':
        if (event.role === 'assistant') {
          this.draft = { blocks: [], partialArgs: new Map() };
          this.changed('draft');
        }
        return;
      case 'message_delta':
        this.applyDelta(event.delta);
        return;
      case 'message_end':
        this.appendItem(event.item);
        return;
      case 'tool_start':
        this.setTool(event.toolCallId, { status: 'running' });
        return;
      case 'tool_update':
        this.setTool(event.toolCallId, { status: 'running', partialText: event.partialText });
        return;
      case 'tool_end':
        this.setTool(event.toolCallId, { status: event.status === 'skipped' ? 'skipped' : event.status, partialText: event.resultText });
        return;
      case 'approval_request':
        this.setTool(event.toolCallId, { status: 'awaitingApproval', canDiff: event.canDiff, warnings: event.warnings, diff: event.diff, command: event.command });
        return;
      case 'approval_resolved':
        this.setTool(event.toolCallId, { status: event.approved ? 'running' : 'denied', reason: event.reason });
        return;
      case 'usage':
        if (this.state) this.state = { ...this.state, usage: event.usage };
        this.changed('state');
        return;
      case 'queued':
        if (this.state) this.state = { ...this.state, queued: event.messages };
        this.changed('state');
        return;
      case 'error':
        if (this.attachToFailedReply(event)) return;
        this.noticeOf(event);
        return;
      case 'retry':
      case 'compaction_start':
      case 'compaction_end':
      case 'notice':
        this.noticeOf(event);
        return;
      case 'cut_off':
        this.addNotice('warning', 'The reply was cut off at the output limit.', [{ kind: 'continueReply' }]);
        return;
    }
  }

  /**
   * The error of a reply that failed is shown on the reply itself (it is persisted there), not a second time
   * as a notice; what it offers (Set API Key, Open Settings) goes with it. False when the error is not the last reply's.
   */
  private attachToFailedReply(event: Extract<AgentUiEvent, { type: 'error' }>): boolean {
    const last = this.items.length - 1;
    const item = this.items[last];
    if (item?.kind !== 'assistant' || item.errorMessage !== event.message) return false;
    eventNotice(this.board, { type: 'idle' });
    if (event.actions?.length) this.errorActions.set(item.entryId, event.actions);
    // a new object, so the list renders the row again
    this.items = [...this.items.slice(0, last), { ...item }];
    this.changed('conversation');
    this.changed('notices');
    return true;
  }

  private noticeOf(event: NoticeEvent): void {
    eventNotice(this.board, event);
    this.changed('notices');
  }

  private setTool(id: string, live: ToolLive): void {
    const previous = this.tools.get(id);
    this.tools.set(id, { ...previous, ...live });
    this.changed('tools');
  }

  private appendItem(item: ConversationItem): void {
    if (item.kind === 'toolResult') {
      this.results.set(item.toolCallId, item);
      this.changed('tools');
      return;
    }
    if (item.kind === 'assistant') this.draft = undefined;
    this.items = [...this.items, item];
    this.earliestId ??= item.entryId;
    this.leafId = item.entryId;
    this.hasConversation = true;
    this.changed('conversation');
    this.changed('draft');
  }

  private applyDelta(delta: Extract<AgentUiEvent, { type: 'message_delta' }>['delta']): void {
    const draft = (this.draft ??= { blocks: [], partialArgs: new Map() });
    const index = delta.contentIndex;
    switch (delta.kind) {
      case 'text':
      case 'thinking': {
        const block = draft.blocks[index];
        if (delta.kind === 'text') {
          if (block?.type === 'text') block.text += delta.delta;
          else draft.blocks[index] = { type: 'text', text: delta.delta };
        } else if (block?.type === 'thinking') block.thinking += delta.delta;
        else draft.blocks[index] = { type: 'thinking', thinking: delta.delta };
        break;
      }
      case 'toolcall_start':
        draft.blocks[index] = { type: 'toolCall', id: delta.id, name: delta.name, arguments: {} };
        draft.partialArgs.set(index, '');
        break;
      case 'toolcall':
        draft.partialArgs.set(index, (draft.partialArgs.get(index) ?? '') + delta.delta);
        break;
      case 'toolcall_end':
        draft.blocks[index] = delta.toolCall;
        draft.partialArgs.delete(index);
        break;
    }
    // Sparse indexes (a provider skipping one) must not leave holes the renderer trips over.
    for (let i = 0; i < draft.blocks.length; i++) draft.blocks[i] ??= { type: 'text', text: '' };
    this.changed('draft');
  }
}

/** Status of a tool call for its card: live status first, then the persisted result. */
export function toolStatus(store: Store, id: string): ToolStatus {
  const live = store.tools.get(id);
  const result = store.results.get(id);
  if (result) return result.status ?? (result.isError ? (live?.status === 'denied' ? 'denied' : 'error') : 'done');
  return live?.status ?? (store.busy ? 'pending' : 'aborted');
}

export function isAssistant(item: ConversationItem): item is AssistantItem {
  return item.kind === 'assistant';
}
