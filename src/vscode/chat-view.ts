// Host side of the chat panel: resolves the `arbor.chat` webview view, validates every message the
// webview posts (invalid ones are logged and dropped), turns valid ones into ArborApp calls, and streams
// the app's changes back as small messages: agent events (deltas) while a reply streams, the tail of the
// conversation only on (re)load or when the path changes (older pages when the webview asks), the tree
// coalesced. API keys never pass through here.
import * as vscode from 'vscode';
import type { ArborApp, AppChange } from '../app/arbor-app';
import {
  CONVERSATION_PAGE,
  LIMITS,
  describeRaw,
  parseWebviewMessage,
  type ChatState,
  type HostToWebviewMessage,
  type NavigateFiles,
  type WebviewMessageOf,
  type WebviewToHostMessage,
} from '../protocol';
import { realId, wireId, wireIdOrNull } from '../app/wire-ids';
import { retryReply } from '../app/retry-reply';
import { matchingFiles, promptWithMentions } from './file-mentions';
import type { ChatApprovalPrompter } from './approval-prompter';
import { filesDecisionFor, filesPreviewFor, showSwitchChanges } from './checkpoints/chat-files';
import { toItem, toTreeNode, toUiEvent, toUsage } from './chat-items';
import type { Logger } from './log';
import { webviewLogLine } from './log-text';
import { selectModel } from './commands/select-model';
import { TreePatchBuilder } from './tree-patch';
import { renderChatHtml, webviewResourceRoots } from './webview-html';

export interface ChatViewDeps {
  extensionUri: vscode.Uri;
  log: Logger;
  getState: () => ChatState;
  showSessionTree: () => Thenable<unknown>;
  /** absent in tests of the bare view */
  app?: ArborApp;
  prompter?: ChatApprovalPrompter;
}

/** Counters tests and diagnostics read; they only ever grow. */
export interface ChatViewStats {
  accepted: number;
  rejected: number;
  handshakes: number;
  posted: number;
  /** handlers that threw (logged and reported to the webview as a notice) */
  failed: number;
  /** valid `loadEarlier` requests refused as stale or off the path (logged, not answered) */
  refusedPages: number;
}

const TREE_COALESCE_MS = 100;
const RECENT_POSTS = 500;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'arbor.chat';

  readonly stats: ChatViewStats = { accepted: 0, rejected: 0, handshakes: 0, posted: 0, failed: 0, refusedPages: 0 };
  /** the newest messages the host tried to post (bounded), for tests and diagnostics */
  readonly recentPosts: HostToWebviewMessage[] = [];
  /** how many messages the host tried to post since activation: a mark for `postsSince` */
  postCount = 0;
  private view: vscode.WebviewView | undefined;
  private webviewReady = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly resolvedEmitter = new vscode.EventEmitter<void>();
  private readonly handshakeEmitter = new vscode.EventEmitter<void>();
  private treeTimer: ReturnType<typeof setTimeout> | undefined;
  /** tree changes since the webview's last full tree, posted as a `treePatch` */
  private readonly treePatches = new TreePatchBuilder();
  private stateTimer: ReturnType<typeof setTimeout> | undefined;
  /** Fires when VS Code resolves the view (it is shown for the first time, or again after disposal). */
  readonly onDidResolve = this.resolvedEmitter.event;
  /** Fires after the webview said `ready` and was sent the state. */
  readonly onDidHandshake = this.handshakeEmitter.event;

  constructor(private readonly deps: ChatViewDeps) {
    if (deps.app) {
      const subscription = deps.app.onDidChange((change) => this.onAppChange(change));
      this.disposables.push({ dispose: () => subscription.dispose() });
    }
  }

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  get isReady(): boolean {
    return this.webviewReady;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.webviewReady = false;
    view.webview.options = { enableScripts: true, localResourceRoots: webviewResourceRoots(this.deps.extensionUri) };
    view.webview.html = renderChatHtml(view.webview, this.deps.extensionUri);
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.webviewReady = false;
        }
        vscode.Disposable.from(...subscriptions).dispose();
      }),
    ];
    this.resolvedEmitter.fire();
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
      await this.post({ type: 'notice', level: 'error', message: errorText(error).slice(0, 20_000) });
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
    const items = snapshot.conversation.flatMap((entry) => toItem(entry) ?? []);
    return this.post({ type: 'conversation', leafId: wireIdOrNull(snapshot.leafId), items, hasEarlier: snapshot.conversationHasEarlier });
  }

  /** Sends every node of the session (after ready and session switches; O(session), so not per turn). */
  async postTree(): Promise<boolean> {
    const app = this.deps.app;
    if (!this.webviewReady || !app) return false;
    const snapshot = app.snapshot({ conversation: false });
    this.treePatches.fullSent(snapshot.leafId);
    return this.post({ type: 'tree', leafId: wireIdOrNull(snapshot.leafId), nodes: (snapshot.tree ?? []).map((node) => toTreeNode(node, snapshot.leafId)) });
  }

  /** Prefills the chat input (edit and resend after switching to a user message). */
  async setEditorText(text: string): Promise<boolean> {
    return this.post({ type: 'editorText', text: text.slice(0, 200_000) });
  }

  /** Scrolls the chat to an entry and highlights it (Session Tree selection → Reveal in Chat). */
  async revealEntry(entryId: string): Promise<boolean> {
    // A view that is being (re)loaded drops messages until its `ready`: wait for the handshake (bounded).
    if (!this.webviewReady) {
      const ready = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          subscription.dispose();
          resolve(false);
        }, 15_000);
        const subscription = this.onDidHandshake(() => {
          clearTimeout(timer);
          subscription.dispose();
          resolve(true);
        });
      });
      if (!ready) return false;
    }
    return this.post({ type: 'revealEntry', entryId: wireId(entryId) });
  }

  /** Host-initiated UI action (commands, keybindings). */
  async uiCommand(command: 'focusInput' | 'toggleTree' | 'showTree' | 'openModelPicker' | 'compactDialog'): Promise<boolean> {
    return this.post({ type: 'uiCommand', command });
  }

  dispose(): void {
    if (this.treeTimer) clearTimeout(this.treeTimer);
    if (this.stateTimer) clearTimeout(this.stateTimer);
    this.resolvedEmitter.dispose();
    this.handshakeEmitter.dispose();
    vscode.Disposable.from(...this.disposables).dispose();
  }

  // ---- app → webview ----------------------------------------------------------------------------------

  private onAppChange(change: AppChange): void {
    if (!this.webviewReady) return;
    switch (change.kind) {
      case 'agent': {
        const event = toUiEvent(change.event);
        if (event) void this.post({ type: 'agentEvent', event });
        const type = change.event.type;
        if (type === 'busy' || type === 'idle' || type === 'queued' || type === 'model_changed' || type === 'thinking_level_changed') this.scheduleState();
        return;
      }
      case 'usage':
        void this.postUsage();
        return;
      case 'conversation':
        if (change.reset) void this.postConversation();
        else {
          for (const entry of change.appended) {
            const item = toItem(entry);
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

  /** Label changes patch the items the webview has (a conversation re-post would drop its earlier pages). */
  private async postLabels(labels: readonly { id: string; label?: string }[]): Promise<void> {
    const leafId = this.deps.app?.currentStore?.getLeafId() ?? null;
    await this.post({
      type: 'labels',
      leafId: wireIdOrNull(leafId),
      labels: labels.slice(0, LIMITS.list).map(({ id, label }) => ({ entryId: wireId(id), ...(label ? { label: label.slice(0, LIMITS.label) } : {}) })),
    });
  }

  /** Pin changes patch the items the webview has, like labels. */
  private async postPins(pins: readonly { targetId: string; pinned: boolean }[]): Promise<void> {
    const leafId = this.deps.app?.currentStore?.getLeafId() ?? null;
    await this.post({ type: 'pins', leafId: wireIdOrNull(leafId), pins: pins.slice(0, LIMITS.list).map((p) => ({ entryId: wireId(p.targetId), pinned: p.pinned })) });
  }

  private async postUsage(): Promise<void> {
    const app = this.deps.app;
    const usage = app?.usage();
    if (!app || !usage) return;
    // branch totals are kept by the app: a usage post per reply must not rebuild the conversation (O(path))
    await this.post({ type: 'agentEvent', event: { type: 'usage', usage: toUsage(usage, app.branchTotals()) } });
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
    const patch = this.treePatches.take(app.currentStore?.getLeafId() ?? null, (id) => app.treeNode(id));
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

  private requireApp(): ArborApp {
    if (!this.deps.app) throw new Error('The chat is not connected to a session yet.');
    return this.deps.app;
  }

  private async handle(message: WebviewToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.webviewReady = true;
        // A (re)loaded webview has no tree: patches wait for the full one posted below.
        this.treePatches.invalidate();
        await this.postState();
        if (this.deps.app) {
          await this.postConversation();
          await this.postTree();
          for (const request of this.deps.prompter?.pendingRequests() ?? []) {
            const event = toUiEvent({ type: 'approval_request', request });
            if (event) await this.post({ type: 'agentEvent', event });
          }
        }
        this.stats.handshakes++;
        this.handshakeEmitter.fire();
        return;
      case 'showSessionTree':
      case 'openTree':
        await this.deps.showSessionTree();
        return;
      case 'log':
        this.deps.log[message.level](webviewLogLine(message.message));
        return;
      case 'prompt':
        return this.prompt(message.text);
      case 'stop': {
        const dropped = await this.requireApp().stop();
        if (dropped.length > 0) await this.post({ type: 'editorText', text: dropped.join('\n\n') });
        return;
      }
      case 'approve':
        if (!this.deps.prompter?.answer(realId(message.toolCallId), message.always ? { kind: 'approveAlways' } : { kind: 'approve' })) {
          this.deps.log.warn(`chat view: no pending approval for ${message.toolCallId}`);
        }
        return;
      case 'deny':
        if (!this.deps.prompter?.answer(realId(message.toolCallId), { kind: 'deny', ...(message.feedback ? { feedback: message.feedback } : {}) })) {
          this.deps.log.warn(`chat view: no pending approval for ${message.toolCallId}`);
        }
        return;
      case 'openDiff':
        if (!(await this.deps.prompter?.openDiff(realId(message.toolCallId)))) {
          await this.post({ type: 'notice', level: 'warning', message: 'There is no proposed change to review for this tool call.' });
        }
        return;
      case 'navigate':
        await this.navigate(message.targetId, message.mode, message.instructions, message.files);
        return;
      case 'previewFiles':
        await this.post(await filesPreviewFor(this.requireApp(), realId(message.targetId), message.targetId));
        return;
      case 'showFileChanges':
        return showSwitchChanges(this.requireApp(), realId(message.targetId));
      case 'cancelNavigation':
        this.requireApp().cancelNavigation();
        return;
      case 'branchHere':
        return this.branchHere(realId(message.entryId));
      case 'compact':
        await this.requireApp().compact(message.instructions?.trim() || undefined);
        return;
      case 'label':
        await this.requireApp().label(realId(message.entryId), message.label);
        return;
      case 'pin':
        return this.pin(realId(message.entryId), message.pinned);
      case 'summarizeFromHere':
        await vscode.commands.executeCommand('arbor.summarizeFromHere', realId(message.entryId));
        return;
      case 'fork':
        await this.requireApp().forkBranch(realId(message.entryId));
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        return;
      case 'insertAtCursor':
        return this.insertAtCursor(message.code);
      case 'selectModel':
        await selectModel(this.requireApp(), message.key);
        return;
      case 'setThinkingLevel':
        await this.requireApp().setThinkingLevel(message.level);
        return;
      case 'showOriginal':
        return this.showOriginal(realId(message.compactionId));
      case 'continueBeforeCompaction':
        return this.continueBeforeCompaction(realId(message.compactionId));
      case 'dequeue': {
        const text = this.requireApp().dequeue(message.index);
        if (text !== undefined) await this.post({ type: 'editorText', text });
        return;
      }
      case 'newSession':
        await this.requireApp().newSession();
        return;
      case 'setApiKey':
        await vscode.commands.executeCommand('arbor.setApiKey', { provider: this.deps.app?.snapshot({ tree: false, conversation: false }).model.provider });
        return;
      case 'userTyping':
        this.deps.app?.currentAgent?.notifyUserTyping();
        return;
      case 'continueReply':
        await this.deps.app?.currentAgent?.continueReply();
        return;
      case 'editMessage':
        // no dialog: an edit is a new branch without a summary (the Session Tree's default)
        if (await this.navigate(message.entryId, 'none', undefined, undefined, { editorText: false })) await this.prompt(message.text);
        return;
      case 'retryReply':
        return this.retry(realId(message.entryId));
      case 'findFiles':
        await this.post({ type: 'fileMatches', seq: message.seq, files: await matchingFiles(message.query) });
        return;
      case 'loadEarlier':
        await this.loadEarlier(message);
        return;
    }
  }

  /**
   * Answers a page request with the items before `beforeId`. A stale request (the path changed since; the
   * webview gets the new tail anyway) or one naming an entry off the path is refused and logged, no reply.
   */
  private async loadEarlier(request: WebviewMessageOf<'loadEarlier'>): Promise<void> {
    const page = this.requireApp().conversationBefore({ ...request, leafId: realId(request.leafId), beforeId: realId(request.beforeId) });
    if (!page.ok) {
      this.stats.refusedPages++;
      this.deps.log.warn(`chat view: refused loadEarlier before ${request.beforeId}: ${page.reason}`);
      return;
    }
    const items = page.views.flatMap((entry) => toItem(entry) ?? []);
    await this.post({ type: 'conversationPage', seq: request.seq, leafId: request.leafId, beforeId: request.beforeId, items, hasEarlier: page.hasEarlier });
  }

  private async prompt(text: string): Promise<void> {
    const outcome = await this.requireApp().prompt(await promptWithMentions(text));
    switch (outcome.kind) {
      case 'intent':
        if (outcome.intent === 'showTree') await this.deps.showSessionTree();
        else await this.uiCommand('openModelPicker');
        return;
      case 'error':
        await this.post({ type: 'notice', level: 'error', message: outcome.message });
        return;
      case 'compacted':
        await this.post({ type: 'notice', level: 'info', message: 'Session compacted.' });
        return;
      default:
        return;
    }
  }

  /** Moves the leaf; true when it moved. `editorText: false`: a user message's text is not put in the input. */
  private async navigate(targetId: string, mode: 'none' | 'summarize' | 'custom', instructions: string | undefined, files?: NavigateFiles, { editorText = true } = {}): Promise<boolean> {
    const app = this.requireApp();
    const decision = await filesDecisionFor(app, realId(targetId), files);
    if (!decision) {
      await this.post({ type: 'navigationProgress', targetId, state: 'cancelled', message: 'The files choice was dismissed.' });
      return false;
    }
    const summarize = mode !== 'none';
    if (summarize) await this.post({ type: 'navigationProgress', targetId, state: 'summarizing' });
    try {
      const result = await app.navigate(realId(targetId), {
        summarize,
        ...(mode === 'custom' && instructions?.trim() ? { customInstructions: instructions.trim() } : {}),
        ...(decision.files ? { files: decision.files } : {}),
      });
      if (result.cancelled) {
        await this.post({ type: 'navigationProgress', targetId, state: 'cancelled', ...(result.message ? { message: result.message } : {}) });
        return false;
      }
      await this.post({ type: 'navigationProgress', targetId, state: 'done' });
      if (editorText && result.editorText !== undefined) await this.post({ type: 'editorText', text: result.editorText.slice(0, 200_000) });
      return true;
    } catch (error) {
      await this.post({ type: 'navigationProgress', targetId, state: 'failed', message: errorText(error).slice(0, 20_000) });
      throw error;
    }
  }

  /** Retry on a failed turn (src/app/retry-reply.ts); a refusal is told in the chat. */
  private async retry(entryId: string): Promise<void> {
    const outcome = await retryReply(this.requireApp(), entryId);
    if (outcome.kind === 'refused') await this.post({ type: 'notice', level: 'warning', message: outcome.message });
  }

  /** "Branch from here": the leaf moves to the entry itself; the webview's snapshot follows (reset). */
  private async branchHere(entryId: string): Promise<void> {
    await this.requireApp().branchAt(entryId);
    await this.post({ type: 'notice', level: 'info', message: 'Branched here: your next message continues from this point. The rest stays in the tree.' });
  }

  /** Pin / Unpin from the message toolbar; a refusal is told in the chat. */
  private async pin(entryId: string, pinned: boolean): Promise<void> {
    const outcome = await this.requireApp().pin(entryId, pinned);
    if (outcome.kind === 'refused' && outcome.why !== 'unchanged') await this.post({ type: 'notice', level: 'warning', message: outcome.message });
  }

  private async insertAtCursor(code: string): Promise<void> {
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor) {
      await this.post({ type: 'notice', level: 'warning', message: 'Open a file in an editor to insert the code there.' });
      return;
    }
    await editor.edit((edit) => {
      for (const selection of editor.selections) edit.replace(selection, code);
    });
  }

  /** Opens the messages a compaction summarised (its path before the first kept entry) as Markdown. */
  private async showOriginal(compactionId: string): Promise<void> {
    const store = this.requireApp().currentStore;
    const compaction = store?.getEntry(compactionId);
    if (!store || !compaction || compaction.type !== 'compaction') throw new Error(`Unknown compaction "${compactionId}".`);
    const path = store.getBranch(compaction.id);
    const keptAt = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
    const original = path.slice(0, keptAt === -1 ? path.length - 1 : keptAt);
    const app = this.requireApp();
    const lines: string[] = [`# Messages before compaction ${compactionId}`, ''];
    for (const entry of original) {
      const view = app.entryView(entry.id);
      if (!view) continue;
      lines.push(`## ${view.kind}${view.toolName ? ` (${view.toolName})` : ''}`, '', view.text || view.blocks.map((b) => (b.type === 'toolCall' ? `→ ${b.name} ${JSON.stringify(b.args)}` : '')).join('\n'), '');
    }
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: lines.join('\n') });
    await vscode.window.showTextDocument(document, { preview: true });
  }

  /** "Continue from before this compaction": the leaf goes to the entry before the first kept one. */
  private async continueBeforeCompaction(compactionId: string): Promise<void> {
    const app = this.requireApp();
    const store = app.currentStore;
    const compaction = store?.getEntry(compactionId);
    if (!store || !compaction || compaction.type !== 'compaction') throw new Error(`Unknown compaction "${compactionId}".`);
    const firstKept = store.getEntry(compaction.firstKeptEntryId);
    const target = firstKept?.parentId ?? compaction.parentId;
    if (!target) throw new Error('There is nothing before this compaction to continue from.');
    await this.navigate(wireId(target), 'none', undefined);
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

  private async post(message: HostToWebviewMessage): Promise<boolean> {
    this.postCount++;
    this.recentPosts.push(message);
    if (this.recentPosts.length > RECENT_POSTS) this.recentPosts.splice(0, this.recentPosts.length - RECENT_POSTS);
    if (!this.view) return false;
    const delivered = await this.view.webview.postMessage(message);
    if (delivered) this.stats.posted++;
    return delivered;
  }
}
