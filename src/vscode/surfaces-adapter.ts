// Maps the open chats (src/app/chats.ts) onto the small SurfacesApp interface the VS Code surfaces are
// written against: everything acts on the focused chat's session, and when the focus moves to another
// chat the surfaces hear a session change. The host passes what only the chat containers can do (scroll
// to an entry, prefill the input); without it, revealing just focuses the side bar's chat.
import * as vscode from 'vscode';
import type { AppChange, ArborApp } from '../app';
import type { ArborChats } from '../app/chats';
import { modelKey } from '../llm/models';
import { renameSession as renameSessionFile } from '../session/catalog';
import type { SurfaceActivity, SurfaceCheckpoints, SurfacesApp } from './surfaces-types';
import { withFilesOf } from '../app/display-tree';
import type { ImageContent } from '../core/messages';
import { done, mapDone } from '../app/app-outcome';

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

  return {
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
    listSessions: () => app().listSessions(),
    checkpoints: checkpointsOf(app),
    get tree() {
      return app().tree;
    },
    compact: async (instructions, options) => {
      await app().compact(instructions, options.review, {
        ...(options.keepFrom !== undefined ? { keepFrom: options.keepFrom } : {}),
        ...(options.handoff ? { handoff: true } : {}),
      });
    },
    cancelCompaction: () => app().cancelCompaction(),
    previewCompaction: () => app().previewCompaction(),
    previewCompactionOf: (preparation) => app().previewCompactionOf(preparation),
    openSession: async (file) => {
      // a session is open in one chat at a time: the one that has it comes forward instead
      const holder = chats.holding(file);
      if (holder && chat.showChat) await chat.showChat(holder);
      else await app().openSession(file);
    },
    isOpen: (file) => chats.holding(file) !== undefined,
    renameSession: async (file, name) => {
      const holder = chats.holding(file);
      if (holder) return holder.renameSession(name);
      await renameSessionFile(file, name);
      return done();
    },
    newSession: async () => {
      const focused = app();
      const session = await focused.newSession();
      await chat.showChat?.(focused);
      return session.file;
    },
    models: () => app().availableModels(),
    currentModelKey: () => modelKey(app().currentModel),
    setModel: (key) => app().setModel(key),
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
    forkSession: async (entryId) => mapDone(await app().forkBranch(entryId), () => undefined),
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
}

/** The focused chat's file checkpoints as the surfaces see them (one service for every chat). */
function checkpointsOf(app: () => ArborApp): SurfaceCheckpoints {
  const service = app().checkpoints;
  const store = () => {
    const current = app().currentStore;
    if (!current) throw new Error('No session is open.');
    return current;
  };
  return {
    restoreMode: () => service.settings.restore,
    previewSwitch: (targetId) => app().tree.previewSwitchFiles(targetId),
    previewRestore: (entryId) => service.preview(store(), store().getLeafId(), withFilesOf(store(), entryId)),
    // a reply's row stands for the reply with its files (src/app/display-tree.ts)
    diff: (fromId, toId) => service.diff(store(), fromId && withFilesOf(store(), fromId), toId && withFilesOf(store(), toId)),
    blobPath: (hash) => service.blobPath(hash),
    pathOf: (key) => service.pathOf(key),
    restoreFilesOnly: (entryId, overwrite) => app().tree.restoreFilesOnly(entryId, overwrite),
    storeSize: () => service.storeSize(),
    collect: (live) => service.collect(live),
  };
}
