// Chats in editor tabs ("Arbor: Open Chat in Editor"): each tab is a webview panel with its own ArborApp
// (src/app/chats.ts) and the same ChatController and webview bundle as the side bar; several can sit side
// by side. A tab that becomes active makes its chat the focused one (what commands act on). After a window
// reload VS Code hands the tabs back to the serializer with the state the webview saved, which names the
// session the tab showed; the tab reopens it (or starts a new one when the file is gone).
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ArborApp } from '../app/arbor-app';
import type { ArborChats } from '../app/chats';
import { sessionDisplayTitle } from '../core/text';
import { ChatController, type ChatControllerDeps } from './chat-controller';
import type { EditorChatMemory } from './editor-chat-memory';
import type { Logger } from './log';

export interface ChatPanelsDeps {
  chats: ArborChats;
  log: Logger;
  extensionUri: vscode.Uri;
  /** everything of a chat's controller but the app and its focus/reveal, which the panel owns */
  controllerDeps: (app: ArborApp) => Omit<ChatControllerDeps, 'app' | 'onFocus' | 'reveal'>;
  /** the side bar's chat (the primary one) and how to show it */
  sideBar: { chat: ChatController; reveal(): Thenable<unknown> };
  /** the sessions the editor chats show, for tabs restored without a saved state */
  memory: EditorChatMemory;
}

/** One editor tab's chat: the shared controller in a webview panel. */
export class ChatPanel extends ChatController {
  constructor(
    readonly panel: vscode.WebviewPanel,
    deps: ChatControllerDeps,
  ) {
    super(deps);
    this.attach(panel.webview);
  }
}

/** Whose session "Open Chat in Editor" shows: the focused chat's, or the side bar's (its title bar). */
export type ShowInEditorSource = 'focused' | 'sideBar';

/** What "Open Chat in Editor" did with the focused chat: shown in a tab, or left alone while it works. */
export type ShowInEditorResult = { kind: 'shown'; chat: ChatController } | { kind: 'busy' };

/** A turn, a compaction or a branch switch runs in `app`: its session cannot move to another chat now. */
function isWorking(app: ArborApp): boolean {
  return app.busy || app.compacting || app.tree.navigating;
}

/** Whether `file` is an existing file (a session a tab names may have been deleted meanwhile). */
export async function isFile(file: string): Promise<boolean> {
  return stat(file).then((s) => s.isFile(), () => false);
}

/** The session file an editor tab's saved webview state names, if it is a usable one. */
export function sessionFileOf(state: unknown): string | undefined {
  const file = state && typeof state === 'object' ? (state as { sessionFile?: unknown }).sessionFile : undefined;
  return typeof file === 'string' && file !== '' ? file : undefined;
}

export class ChatPanels implements vscode.Disposable, vscode.WebviewPanelSerializer {
  static readonly viewType = 'arbor.chatPanel';
  private readonly open = new Map<ArborApp, ChatPanel>();
  /** sessions reopened in new tabs because their tabs were not restored (reopenLost) */
  private readonly reopened = new Set<string>();
  private readonly registration: vscode.Disposable;

  constructor(private readonly deps: ChatPanelsDeps) {
    this.registration = vscode.window.registerWebviewPanelSerializer(ChatPanels.viewType, this);
  }

  /** The open editor chats, oldest first. */
  get panels(): ChatPanel[] {
    return [...this.open.values()];
  }

  panelOf(app: ArborApp): ChatPanel | undefined {
    return this.open.get(app);
  }

  /**
   * Opens a chat in a new editor tab (`beside` the active editor, or beside the active chat tab): on `file`
   * (a chat that already shows it is revealed instead: a session is open in one chat at a time), else on a
   * new session. Resolves with the tab's chat.
   */
  async openChat(file?: string, beside = false): Promise<ChatController> {
    const holder = file ? this.deps.chats.holding(file) : undefined;
    if (holder) return this.reveal(holder);
    const app = this.deps.chats.open();
    try {
      if (file) await app.session.openSession(file);
      else await app.session.newSession();
    } catch (error) {
      this.deps.chats.close(app);
      throw error;
    }
    const column = beside || this.panels.some((chat) => chat.panel.active) ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(ChatPanels.viewType, vscode.l10n.t('Arbor Chat'), column, { retainContextWhenHidden: false });
    return this.bind(panel, app);
  }

  /**
   * "Open Chat in Editor" without a session named: the focused chat's session in an editor tab. A chat that
   * already is a tab comes forward; the side bar's session moves to a new tab (a session is open in one
   * chat at a time) and the side bar goes on with a new session; a session with nothing written yet gives
   * a tab on a new session. Not while the side bar works (a turn, a compaction, a switch): moving would stop it.
   */
  async showInEditor(source: ShowInEditorSource): Promise<ShowInEditorResult> {
    const from = source === 'sideBar' ? this.deps.chats.primary : this.deps.chats.focused;
    if (this.open.has(from)) return { kind: 'shown', chat: await this.reveal(from) };
    const session = from.session.sessionView();
    if (!session?.persisted || !(await isFile(session.file))) return { kind: 'shown', chat: await this.openChat() };
    if (isWorking(from)) return { kind: 'busy' };
    await from.session.newSession();
    try {
      return { kind: 'shown', chat: await this.openChat(session.file) };
    } catch (error) {
      await from.session.openSession(session.file).catch(() => undefined);
      throw error;
    }
  }

  /**
   * After a reload: the last window's chats whose tabs the workbench did not restore (the editor layout it
   * saved was older than them) open again in new tabs, beside the restored ones as "Open Chat in Editor" does.
   */
  reopenLost(): void {
    const restored = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(ChatPanels.viewType)).length;
    this.reopen(this.deps.memory.lost(restored), restored > 0);
  }

  /** Opens each of `files` in a new tab for a tab that was not restored (`beside` the restored ones). */
  reopen(files: readonly string[], beside: boolean): void {
    for (const file of files) {
      this.deps.log.info(`editor chat: reopening ${file} (its tab was not restored)`);
      this.reopened.add(file);
      this.openChat(file, beside).catch((error) => this.deps.log.warn(`editor chat: could not reopen ${file}: ${(error as Error).message}`));
    }
  }

  /**
   * After a reload: the tab comes back on the session it showed (a new one when that file is gone). A tab
   * restored after its session was reopened for it (the tab list was not complete yet at activation) closes.
   */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = sessionFileOf(state);
    if (saved && this.reopened.has(saved)) {
      this.deps.log.info(`editor chat: ${saved} is already reopened in a tab`);
      panel.dispose();
      return;
    }
    if (saved) this.deps.memory.claim(saved);
    const app = this.deps.chats.open();
    this.bind(panel, app);
    const file = saved ?? (await this.deps.memory.unclaimed((candidate) => this.deps.chats.holding(candidate) !== undefined));
    this.deps.log.info(`editor chat: restoring ${file ?? 'a new session'}${saved ? '' : ' (the tab saved no state)'}`);
    try {
      if (file && !this.deps.chats.holding(file) && (await isFile(file))) await app.session.openSession(file);
      else await app.session.newSession();
    } catch (error) {
      this.deps.log.warn(`editor chat: could not reopen ${file}: ${(error as Error).message}`);
      await app.session.newSession();
    }
  }

  /** Shows the chat of `app` (its tab, or the side bar for the primary chat) and focuses it. */
  async reveal(app: ArborApp): Promise<ChatController> {
    this.deps.chats.focus(app);
    const chat = this.open.get(app);
    if (chat) {
      chat.panel.reveal();
      return chat;
    }
    await this.deps.sideBar.reveal();
    return this.deps.sideBar.chat;
  }

  private bind(panel: vscode.WebviewPanel, app: ArborApp): ChatPanel {
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'arbor.svg');
    const chat = new ChatPanel(panel, {
      ...this.deps.controllerDeps(app),
      app,
      onFocus: () => this.deps.chats.focus(app),
      reveal: () => panel.reveal(undefined, true),
    });
    this.open.set(app, chat);
    const retitle = () => {
      const title = this.titleOf(app);
      if (panel.title !== title) panel.title = title;
    };
    retitle();
    const subscriptions = [
      app.onDidChange((change) => {
        if (change.kind === 'session' || change.kind === 'conversation') retitle();
        if (change.kind === 'session') this.remember();
      }),
      panel.onDidChangeViewState(() => {
        if (panel.active) this.deps.chats.focus(app);
        if (!panel.visible) chat.contentHidden();
      }),
    ];
    panel.onDidDispose(() => {
      for (const subscription of subscriptions) subscription.dispose();
      this.open.delete(app);
      chat.dispose();
      this.deps.chats.close(app);
      this.remember();
    });
    this.deps.chats.focus(app);
    this.remember();
    return chat;
  }

  /** The tab is called what the session is called (its name, else its first message). */
  private titleOf(app: ArborApp): string {
    const session = app.session.sessionView();
    const title = sessionDisplayTitle(session?.name, session ? app.views.firstUserMessage() : undefined);
    return title ? (title.length > 40 ? `${title.slice(0, 39)}…` : title) : vscode.l10n.t('New Arbor Chat');
  }

  /** The sessions the open tabs show, for tabs that come back without a state. */
  private remember(): void {
    this.deps.memory.save(this.panels.flatMap((chat) => chat.app?.session.sessionView()?.file ?? []));
  }

  dispose(): void {
    this.deps.memory.shutdown();
    this.registration.dispose();
    for (const chat of this.open.values()) chat.panel.dispose();
  }
}
