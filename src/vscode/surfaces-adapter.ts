// Maps the application controller (src/app ArborApp) onto the small SurfacesApp interface the VS Code
// surfaces are written against. The chat view can pass what only it can do (scroll to an entry, prefill
// the input); without it, revealing just focuses the chat.
import * as vscode from 'vscode';
import type { ArborApp } from '../app';
import type { SurfaceActivity, SurfaceCheckpoints, SurfacesApp } from './surfaces-types';

export interface ChatHooks {
  /** scrolls the chat to an entry */
  revealInChat?(entryId: string): Promise<void> | void;
  /** prefills the chat input (after switching to a user message: edit and resend) */
  setChatInput?(text: string): Promise<void> | void;
}

export function adaptArborApp(app: ArborApp, chat: ChatHooks = {}): SurfacesApp & vscode.Disposable {
  const session = new vscode.EventEmitter<void>();
  const leaf = new vscode.EventEmitter<void>();
  const usage = new vscode.EventEmitter<void>();
  let summarizing = false;
  let compacting = false;
  const subscription = app.onDidChange((change) => {
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
  });

  return {
    get store() {
      return app.currentStore;
    },
    onDidChangeSession: session.event,
    onDidChangeLeaf: leaf.event,
    onDidChangeUsage: usage.event,
    usage: () => app.usage() ?? undefined,
    activity(): SurfaceActivity {
      if (compacting || app.currentAgent?.compacting) return 'compacting';
      if (summarizing) return 'summarizing';
      return app.busy ? 'busy' : 'idle';
    },
    listSessions: () => app.listSessions(),
    checkpoints: checkpointsOf(app),
    navigate: (targetId, options) => app.navigate(targetId, options),
    insertBranchSummary: async (sourceLeafId, options) => {
      await app.insertBranchSummary(sourceLeafId, options);
    },
    compact: async (instructions, options) => {
      await app.compact(instructions, options.review, {
        ...(options.keepFrom !== undefined ? { keepFrom: options.keepFrom } : {}),
        ...(options.handoff ? { handoff: true } : {}),
      });
    },
    cancelCompaction: () => app.cancelCompaction(),
    previewCompaction: () => app.previewCompaction(),
    label: (entryId, label) => app.label(entryId, label),
    pin: (entryId, pinned) => app.pin(entryId, pinned),
    summarizeFromHere: (entryId, options) => app.summarizeFromHere(entryId, options),
    openSession: async (file) => {
      await app.openSession(file);
    },
    forkSession: async (entryId) => {
      await app.forkBranch(entryId);
    },
    revealInChat: async (entryId) => {
      if (chat.revealInChat) await chat.revealInChat(entryId);
      else await vscode.commands.executeCommand('arbor.chat.focus');
    },
    setChatInput: async (text) => {
      await chat.setChatInput?.(text);
    },
    dispose() {
      subscription.dispose();
      session.dispose();
      leaf.dispose();
      usage.dispose();
    },
  };
}

/** The app's file checkpoints as the surfaces see them. */
function checkpointsOf(app: ArborApp): SurfaceCheckpoints {
  const service = app.checkpoints;
  const store = () => {
    if (!app.currentStore) throw new Error('No session is open.');
    return app.currentStore;
  };
  return {
    restoreMode: () => service.settings.restore,
    previewSwitch: (targetId) => app.previewSwitchFiles(targetId),
    previewRestore: (entryId) => service.preview(store(), store().getLeafId(), entryId),
    diff: (fromId, toId) => service.diff(store(), fromId, toId),
    blobPath: (hash) => service.blobPath(hash),
    pathOf: (key) => service.pathOf(key),
    restoreFilesOnly: (entryId, overwrite) => app.restoreFilesOnly(entryId, overwrite),
    storeSize: () => service.storeSize(),
    collect: (live) => service.collect(live),
  };
}
