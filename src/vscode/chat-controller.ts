// Host side of one chat, whatever holds it (the side bar's webview view or an editor tab's webview
// panel): binds a webview to one ArborApp, validates every message the webview posts (invalid ones are
// logged and dropped) and hands valid ones to chat-requests.ts, and streams the app's changes back as small
// messages: agent events (deltas) while a reply streams, the tail of the conversation only on (re)load or
// when the path changes (older pages when the webview asks), the tree coalesced. API keys never pass here.
import { errorText } from '../core/error-text';
import * as vscode from 'vscode';
import type { AppChange, ArborApp } from '../app/arbor-app';
import { CONVERSATION_PAGE, LIMITS, describeRaw, parseWebviewMessage, type ChatState, type HostToWebviewMessage, type WebviewToHostMessage } from '../protocol';
import { wireId, wireIdOrNull } from '../present/wire-ids';
import type { ChatApprovalPrompter } from './approval-prompter';
import { toItem, toTreeNode, toUiEvent, toUsage } from './chat-items';
import { handleChatRequest } from './chat-requests';
import { markPromptSent } from './walkthrough';
import type { Logger } from './log';
import { TreePatchBuilder } from './tree-patch';
import { DraftImages } from './draft-images';
import { renderChatHtml, webviewResourceRoots } from './webview-html';
import type { ImageContent } from '../core/messages';
import { backToInput } from './chat-images';
import { Disposable } from './disposable';

export interface ChatControllerDeps {
  extensionUri: vscode.Uri;
  log: Logger;
  getState: () => ChatState;
  showSessionTree: () => Thenable<unknown>;
  /** absent in tests of the bare view */
  app?: ArborApp;
  prompter?: ChatApprovalPrompter;
  /** the user works in this chat (it posted, or its container became active): it becomes the focused one */
  onFocus?: () => void;
  /** shows the chat's container (an approval waits in it) */
  reveal?: () => Thenable<unknown> | void;
}

/** Counters tests and diagnostics read; they only ever grow. */
export interface ChatViewStats {
  accepted: number;
  rejected: number;
  handshakes: number;
  posted: number;
  /** handlers that threw (logged and reported to the webview as a notice) */
  failed: number;
  /** app actions refused with a reason (told as a warning notice: refusals.ts) */
  refused: number;
  /** valid `loadEarlier` requests refused as stale or off the path (logged, not answered) */
  refusedPages: number;
}

export type UiCommand = 'focusInput' | 'toggleTree' | 'showTree' | 'openModelPicker' | 'compactDialog';

const TREE_COALESCE_MS = 100;
const RECENT_POSTS = 500;

export class ChatController extends Disposable {
  readonly stats: ChatViewStats = { accepted: 0, rejected: 0, handshakes: 0, posted: 0, failed: 0, refused: 0, refusedPages: 0 };
  /** the newest messages the host tried to post (bounded), for tests and diagnostics */
  readonly recentPosts: HostToWebviewMessage[] = [];
  /** how many messages the host tried to post since activation: a mark for `postsSince` */
  postCount = 0;
  private webview: vscode.Webview | undefined;
  private webviewReady = false;
  private readonly handshakeEmitter = this.register(new vscode.EventEmitter<void>());
  private treeTimer: ReturnType<typeof setTimeout> | undefined;
  /** tree changes since the webview's last full tree, posted as a `treePatch` */
  private readonly treePatches = new TreePatchBuilder();
  private stateTimer: ReturnType<typeof setTimeout> | undefined;
  /** approvals this chat's agent asked for and that are not answered yet (replayed after a reload) */
  private readonly myApprovals = new Set<string>();
  /** the composer's unsent images: a re-created webview gets them back (draft-images.ts) */
  private readonly draft = new DraftImages();
  /** the live tool of a name, for the cards' "runs a command" / "writes files" / origin */
  private readonly describeTool = (name: string) => this.deps.app?.tools.get(name);
  /** Fires after the webview said `ready` and was sent the state. */
  readonly onDidHandshake = this.handshakeEmitter.event;

  constructor(protected readonly deps: ChatControllerDeps) {
    super();
    if (deps.app) this.register(deps.app.onDidChange((change) => this.onAppChange(change)));
  }

  /** The app this chat shows (undefined only in tests of the bare view). */
  get app(): ArborApp | undefined {
    return this.deps.app;
  }

  get isResolved(): boolean {
    return this.webview !== undefined;
  }

  get isReady(): boolean {
    return this.webviewReady;
  }

  /** Shows the chat in `webview` (a view or panel VS Code just created); until `detach`, posts go there. */
  protected attach(webview: vscode.Webview): vscode.Disposable {
    this.webview = webview;
    this.webviewReady = false;
    webview.options = { enableScripts: true, localResourceRoots: webviewResourceRoots(this.deps.extensionUri) };
    webview.html = renderChatHtml(webview, this.deps.extensionUri);
    const subscription = webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw));
    return {
      dispose: () => {
        subscription.dispose();
        if (this.webview !== webview) return;
        this.webview = undefined;
        this.webviewReady = false;
      },
    };
  }

  /**
   * Entry point for everything the webview posts. Returns whether the message was accepted; an invalid
   * message is logged and dropped without side effects.
   */
  async receive(raw: unknown): Promise<boolean> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.stats.rejected++;
      this.deps.log.warn(`chat view: dropped invalid message from webview (${parsed.reason}): ${describeRaw(raw)}`);
      return false;
    }
    this.stats.accepted++;
    try {
      await this.handle(parsed.message);
    } catch (error) {
      this.stats.failed++;
      this.deps.log.error(`chat view: handling "${parsed.message.type}" failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      // not a refusal (those come back as outcomes and are told as warnings: refusals.ts) but an exception
      const message = vscode.l10n.t('Arbor could not do that: {0}. The details are in the Arbor log.', errorText(error).replace(/\.$/, ''));
      await this.post({ type: 'notice', level: 'error', message: message.slice(0, 20_000) });
    }
    return true;
  }

  /** Sends the current state if the webview is listening; later state changes call this too. */
  async postState(): Promise<boolean> {
    if (!this.webviewReady) return false;
    return this.post({ type: 'state', state: this.deps.getState() });
  }

  /**
   * Sends the tail of the active path (after ready, navigation, session switch): its newest
   * CONVERSATION_PAGE items, whatever the length of the path; the webview asks for older ones (loadEarlier).
   */
  async postConversation(): Promise<boolean> {
    const app = this.deps.app;
    if (!this.webviewReady || !app) return false;
    const snapshot = app.snapshot({ tree: false, conversation: { last: CONVERSATION_PAGE } });
    const items = snapshot.conversation.flatMap((entry) => toItem(entry, this.describeTool) ?? []);
    return this.post({ type: 'conversation', leafId: wireIdOrNull(snapshot.leafId), items, hasEarlier: snapshot.conversationHasEarlier });
  }

  /** Sends every node of the session (after ready and session switches; O(session), so not per turn). */
  async postTree(): Promise<boolean> {
    const app = this.deps.app;
    if (!this.webviewReady || !app) return false;
    const snapshot = app.snapshot({ conversation: false });
    const leafId = app.views.treeLeafId;
    this.treePatches.fullSent(leafId);
    return this.post({ type: 'tree', leafId: wireIdOrNull(leafId), nodes: (snapshot.tree ?? []).map((node) => toTreeNode(node, leafId)) });
  }

  /** Prefills the chat input and its chips (edit and resend after switching to a user message). */
  async setEditorText(text: string, images: readonly ImageContent[] = []): Promise<boolean> {
    let delivered = true;
    for (const message of backToInput(text, images, this.draft)) delivered = (await this.post(message)) && delivered;
    return delivered;
  }

  /** Adds text after the composer's draft (the editor's Add to Chat); true when the webview got it. */
  async addToInput(text: string): Promise<boolean> {
    // a chat just brought forward reloads first (its hidden content was dropped): wait for its `ready`
    if (!this.webviewReady && !(await this.handshake(15_000))) return false;
    return this.post({ type: 'editorText', text: text.slice(0, LIMITS.prompt), append: true });
  }

  /**
   * The container hid the webview and dropped its content (no retained context): what is posted now is lost
   * until it is shown again and says `ready`.
   */
  contentHidden(): void {
    this.webviewReady = false;
  }

  /** Scrolls the chat to an entry and highlights it (Session Tree selection → Reveal in Chat). */
  async revealEntry(entryId: string): Promise<boolean> {
    // A view that is being (re)loaded drops messages until its `ready`: wait for the handshake (bounded).
    if (!this.webviewReady && !(await this.handshake(15_000))) return false;
    return this.post({ type: 'revealEntry', entryId: wireId(entryId) });
  }

  /** Resolves true once the webview said `ready` (at once when it has), false after `timeoutMs`. */
  handshake(timeoutMs: number): Promise<boolean> {
    if (this.webviewReady) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        subscription.dispose();
        resolve(false);
      }, timeoutMs);
      const subscription = this.onDidHandshake(() => {
        clearTimeout(timer);
        subscription.dispose();
        resolve(true);
      });
    });
  }

  /** Host-initiated UI action (commands, keybindings). */
  async uiCommand(command: UiCommand): Promise<boolean> {
    return this.post({ type: 'uiCommand', command });
  }

  override dispose(): void {
    if (this.treeTimer) clearTimeout(this.treeTimer);
    if (this.stateTimer) clearTimeout(this.stateTimer);
    super.dispose();
  }

  // ---- app → webview ----------------------------------------------------------------------------------

  private onAppChange(change: AppChange): void {
    if (change.kind === 'agent') this.trackApproval(change);
    if (!this.webviewReady) return;
    switch (change.kind) {
      case 'agent': {
        const event = toUiEvent(change.event, this.describeTool);
        if (event) void this.post({ type: 'agentEvent', event });
        const type = change.event.type;
        if (type === 'busy' || type === 'idle' || type === 'queued' || type === 'model_changed' || type === 'thinking_level_changed' || type === 'approval_mode_changed') this.scheduleState();
        return;
      }
      case 'usage':
        void this.postUsage();
        return;
      case 'conversation':
        // an unnamed session is called by its first user message: the header follows it, as the tab does
        if (change.reset || change.appended.some((entry) => entry.kind === 'user')) this.scheduleState();
        if (change.reset) void this.postConversation();
        else {
          for (const entry of change.appended) {
            const item = toItem(entry, this.describeTool);
            if (item) void this.post({ type: 'agentEvent', event: { type: 'message_end', item } });
          }
          if (change.labels.length > 0) void this.postLabels(change.labels);
          if (change.pins?.length) void this.postPins(change.pins);
        }
        return;
      case 'tree':
        this.treePatches.record(change);
        this.scheduleTree();
        return;
      case 'session':
        // the app follows every 'session' with a conversation reset, which posts the new conversation
        this.scheduleState();
        this.treePatches.invalidate();
        this.scheduleTree();
        return;
      case 'settings':
        this.scheduleState();
        return;
      case 'navigation':
        return;
    }
  }

  /** Approvals wait in this chat: it shows itself when one is asked for, and replays them after a reload. */
  private trackApproval(change: Extract<AppChange, { kind: 'agent' }>): void {
    const event = change.event;
    if (event.type === 'approval_request') {
      this.myApprovals.add(event.request.toolCallId);
      if (!this.webview) void this.deps.reveal?.();
    }
    if (event.type === 'approval_resolved') this.myApprovals.delete(event.toolCallId);
  }

  /** Label changes patch the items the webview has (a conversation re-post would drop its earlier pages). */
  private async postLabels(labels: readonly { id: string; label?: string }[]): Promise<void> {
    await this.post({
      type: 'labels',
      leafId: wireIdOrNull(this.deps.app?.leafId ?? null),
      labels: labels.slice(0, LIMITS.list).map(({ id, label }) => ({ entryId: wireId(id), ...(label ? { label: label.slice(0, LIMITS.label) } : {}) })),
    });
  }

  /** Pin changes patch the items the webview has, like labels. */
  private async postPins(pins: readonly { targetId: string; pinned: boolean }[]): Promise<void> {
    await this.post({ type: 'pins', leafId: wireIdOrNull(this.deps.app?.leafId ?? null), pins: pins.slice(0, LIMITS.list).map((p) => ({ entryId: wireId(p.targetId), pinned: p.pinned })) });
  }

  private async postUsage(): Promise<void> {
    const app = this.deps.app;
    const usage = app?.usage();
    if (!app || !usage) return;
    // branch totals are kept by the app: a usage post per reply must not rebuild the conversation (O(path))
    await this.post({ type: 'agentEvent', event: { type: 'usage', usage: toUsage(usage, app.views.branchTotals()) } });
  }

  private scheduleTree(): void {
    if (this.treeTimer) return;
    this.treeTimer = setTimeout(() => {
      this.treeTimer = undefined;
      void this.flushTree();
    }, TREE_COALESCE_MS);
  }

  /** Posts what changed in the tree since the last post: a patch, or the full tree when one is due. */
  private async flushTree(): Promise<boolean> {
    const app = this.deps.app;
    if (!this.webviewReady || !app) return false;
    const patch = this.treePatches.take(app.views.treeLeafId, (id) => app.views.treeNode(id));
    if (patch === 'full') return this.postTree();
    return patch ? this.post(patch) : false;
  }

  private scheduleState(): void {
    if (this.stateTimer) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined;
      void this.postState();
    }, 0);
  }

  // ---- webview → app ----------------------------------------------------------------------------------

  private async handle(message: WebviewToHostMessage): Promise<void> {
    // the user works in this chat: its window got the focus, or they sent something from it
    if (message.type === 'focused' || message.type === 'prompt') this.deps.onFocus?.();
    if (message.type === 'prompt') markPromptSent();
    if (message.type === 'ready') return this.ready();
    if (message.type === 'focused') return;
    return handleChatRequest(
      {
        app: this.deps.app,
        prompter: this.deps.prompter,
        log: this.deps.log,
        stats: this.stats,
        post: (posted) => this.post(posted),
        draft: this.draft,
        uiCommand: (command) => this.uiCommand(command),
        showSessionTree: this.deps.showSessionTree,
      },
      message,
    );
  }

  /** The webview (re)loaded: it gets the state, the conversation's tail, the tree and waiting approvals. */
  private async ready(): Promise<void> {
    this.webviewReady = true;
    // A (re)loaded webview has no tree: patches wait for the full one posted below.
    this.treePatches.invalidate();
    await this.postState();
    // Always, even empty: the composer then shows exactly the host's draft (a webview that was not
    // re-created, only asked to load again, drops chips the host no longer keeps).
    await this.post({ type: 'restoreDraftImages', images: this.draft.list() });
    if (this.deps.app) {
      await this.postConversation();
      await this.postTree();
      for (const request of this.deps.prompter?.pendingRequests() ?? []) {
        if (!this.myApprovals.has(request.toolCallId)) continue;
        const event = toUiEvent({ type: 'approval_request', request });
        if (event) await this.post({ type: 'agentEvent', event });
      }
    }
    this.stats.handshakes++;
    this.handshakeEmitter.fire();
  }

  /**
   * The messages posted after `mark` (an earlier `postCount`). Throws if some of them already left the
   * bounded buffer, so a caller never mistakes a partial list for the whole.
   */
  postsSince(mark: number): HostToWebviewMessage[] {
    const wanted = this.postCount - mark;
    if (wanted > this.recentPosts.length) throw new Error(`postsSince(${mark}): ${wanted - this.recentPosts.length} of the ${wanted} posts since then were dropped from the buffer of ${RECENT_POSTS}`);
    return wanted <= 0 ? [] : this.recentPosts.slice(this.recentPosts.length - wanted);
  }

  protected async post(message: HostToWebviewMessage): Promise<boolean> {
    this.postCount++;
    this.recentPosts.push(message);
    if (this.recentPosts.length > RECENT_POSTS) this.recentPosts.splice(0, this.recentPosts.length - RECENT_POSTS);
    if (!this.webview) return false;
    const delivered = await this.webview.postMessage(message);
    if (delivered) this.stats.posted++;
    return delivered;
  }
}
