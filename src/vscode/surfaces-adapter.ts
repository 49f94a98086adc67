// Maps the open chats (src/app/chats.ts) onto the small SurfacesApp interface the VS Code surfaces are
// written against: everything acts on the focused chat's session, and when the focus moves to another
// chat the surfaces hear a session change. The focused chat's parts are passed as they are (ArborChats'
// focusedParts: nothing forwarded here); what is here spans the chats or is the chat containers'. The host passes what only the chat containers can do (scroll
// to an entry, prefill the input); without it, revealing just focuses the side bar's chat.
import * as vscode from 'vscode';
import type { AppChange, ArborApp } from '../app';
import type { ArborChats } from '../app/chats';
import { withChatParts, type ChatParts } from '../app/chat-parts';
import { renameSession as renameSessionFile } from '../session/catalog';
import type { SurfaceActivity, SurfacesApp } from './surfaces-types';
import type { ImageContent } from '../core/messages';
import { done } from '../app/app-outcome';

export interface ChatHooks {
  /** scrolls the chat to an entry */
  revealInChat?(entryId: string): Promise<void> | void;
  /** prefills the chat input (after switching to a user message: edit and resend) */
  setChatInput?(text: string, images?: readonly ImageContent[]): Promise<void> | void;
  /** adds text after the focused chat's draft and shows that chat (the editor's Add to Chat); true when delivered */
  addToChatInput?(text: string): Promise<boolean>;
  /** sends a prompt in the focused chat as if typed there, and shows that chat (Fix with Arbor) */
  promptInChat?(text: string): Promise<boolean>;
  /** shows (and focuses) the chat of `app`: a session asked for is already open there */
  showChat?(app: ArborApp): Thenable<unknown> | Promise<unknown>;
}

export function adaptChats(chats: ArborChats, chat: ChatHooks = {}): SurfacesApp & vscode.Disposable {
  const session = new vscode.EventEmitter<void>();
  const leaf = new vscode.EventEmitter<void>();
  const usage = new vscode.EventEmitter<void>();
  let summarizing = false;
  let compacting = false;
  const app = () => chats.focused;
  const onChange = (change: AppChange) => {
    switch (change.kind) {
      case 'session':
        compacting = false;
        session.fire();
        usage.fire();
        break;
      case 'conversation':
        if (change.reset) leaf.fire();
        break;
      case 'navigation':
        summarizing = change.state === 'start' && change.summarizing;
        usage.fire();
        break;
      case 'usage':
        usage.fire();
        break;
      case 'agent':
        if (change.event.type === 'compaction_start') compacting = true;
        if (change.event.type === 'compaction_end') compacting = false;
        if (change.event.type === 'compaction_start' || change.event.type === 'compaction_end' || change.event.type === 'busy' || change.event.type === 'idle') usage.fire();
        break;
      default:
        break;
    }
  };
  let subscription = app().onDidChange(onChange);
  const focus = chats.onDidChangeFocus((focused) => {
    subscription.dispose();
    subscription = focused.onDidChange(onChange);
    summarizing = false;
    compacting = false;
    session.fire();
    usage.fire();
  });

  const parts = chats.focusedParts;
  const own: Omit<SurfacesApp, keyof ChatParts> & vscode.Disposable = {
    get store() {
      return app().currentStore;
    },
    onDidChangeSession: session.event,
    onDidChangeLeaf: leaf.event,
    onDidChangeUsage: usage.event,
    usage: () => app().usage() ?? undefined,
    activity(): SurfaceActivity {
      if (compacting || app().compacting) return 'compacting';
      if (summarizing) return 'summarizing';
      return app().busy ? 'busy' : 'idle';
    },
    openSession: async (file) => {
      // a session is open in one chat at a time: the one that has it comes forward instead
      const holder = chats.holding(file);
      if (holder && chat.showChat) await chat.showChat(holder);
      else await app().session.openSession(file);
    },
    isOpen: (file) => chats.holding(file) !== undefined,
    renameSession: async (file, name) => {
      const holder = chats.holding(file);
      if (holder) return holder.session.renameSession(name);
      await renameSessionFile(file, name);
      return done();
    },
    newSession: async () => {
      const focused = app();
      const session = await focused.session.newSession();
      await chat.showChat?.(focused);
      return session.file;
    },
    approvalMode: () => app().approvalMode,
    setApprovalMode: async (mode) => {
      const focused = app();
      await focused.setApprovalMode(mode);
      await chat.showChat?.(focused);
    },
    runPlan: async (mode) => {
      const focused = app();
      await chat.showChat?.(focused);
      return focused.runPlan(mode);
    },
    applySettings: () => chats.applySettings(),
    revealInChat: async (entryId) => {
      if (chat.revealInChat) await chat.revealInChat(entryId);
      else await vscode.commands.executeCommand('arbor.chat.focus');
    },
    setChatInput: async (text, images) => {
      await chat.setChatInput?.(text, images);
    },
    addToChatInput: async (text) => (await chat.addToChatInput?.(text)) ?? false,
    promptInChat: async (text) => (await chat.promptInChat?.(text)) ?? false,
    dispose() {
      focus.dispose();
      subscription.dispose();
      session.dispose();
      leaf.dispose();
      usage.dispose();
    },
  };
  return withChatParts(own, () => parts);
}
