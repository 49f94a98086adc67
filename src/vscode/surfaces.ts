// Registers Arbor's native VS Code surfaces: the Session Tree and Sessions views, the status bar context
// meter and every command (one file each under commands/, all registered the same way). Called once from
// src/extension.ts with the open chats; everything acts on the focused one.
import * as vscode from 'vscode';
import type { ArborChats } from '../app/chats';
import * as cancelCompaction from './commands/cancel-compaction';
import * as cancelSummaryReview from './commands/cancel-summary-review';
import * as saveSummaryReview from './commands/save-summary-review';
import * as clearApiKey from './commands/clear-api-key';
import * as newSession from './commands/new-session';
import * as openChat from './commands/open-chat';
import * as addSelectionToChat from './commands/add-selection-to-chat';
import * as addFileToChat from './commands/add-file-to-chat';
import * as fixWithArbor from './commands/fix-with-arbor';
import * as openChatInEditor from './commands/open-chat-in-editor';
import * as newChatInEditor from './commands/new-chat-in-editor';
import * as openSideBarChatInEditor from './commands/open-side-bar-chat-in-editor';
import * as openConversationTree from './commands/open-conversation-tree';
import * as selectModel from './commands/select-model';
import * as setApiKey from './commands/set-api-key';
import * as compactSession from './commands/compact-session';
import * as handoffSession from './commands/handoff-session';
import * as compactUpToHere from './commands/compact-up-to-here';
import * as summarizeFromHere from './commands/summarize-from-here';
import * as pinEntry from './commands/pin-entry';
import * as unpinEntry from './commands/unpin-entry';
import * as copyEntry from './commands/copy-entry';
import * as exportSession from './commands/export-session';
import * as forkSession from './commands/fork-session';
import * as insertBranchSummary from './commands/insert-branch-summary';
import * as labelEntry from './commands/label-entry';
import * as openSessionFile from './commands/open-session-file';
import * as revealInChat from './commands/reveal-in-chat';
import * as searchSessions from './commands/search-sessions';
import * as sessionsDelete from './commands/sessions-delete';
import * as sessionsOpen from './commands/sessions-open';
import * as sessionsRefresh from './commands/sessions-refresh';
import * as sessionsRename from './commands/sessions-rename';
import * as showLogs from './commands/show-logs';
import type { SurfaceDeps } from './commands/surface-deps';
import * as switchBranch from './commands/switch-branch';
import * as switchHere from './commands/switch-here';
import * as compareFilesWith from './commands/compare-files-with';
import * as restoreFilesOnly from './commands/restore-files-only';
import { registerCheckpointContent } from './checkpoints/file-diff';
import { showStoreSize } from './checkpoints/store-size';
import * as switchHereWithSummary from './commands/switch-here-with-summary';
import * as toggleAutoCompaction from './commands/toggle-auto-compaction';
import type { Logger } from './log';
import { SessionsProvider } from './sessions/sessions-provider';
import type { ArborSettings } from '../app/settings';
import { StatusBar } from './status-bar';
import { adaptChats, type ChatHooks } from './surfaces-adapter';
import type { SurfacesApp } from './surfaces-types';
import { SessionTreeProvider } from './tree/session-tree-provider';
import { useLocalizer } from './tree/entry-presentation';

/** Every command module, each `register(deps)` (tests check each id is registered and contributed). */
export const SURFACE_COMMANDS = [
  openChat,
  openChatInEditor,
  newChatInEditor,
  openSideBarChatInEditor,
  openConversationTree,
  newSession,
  selectModel,
  setApiKey,
  clearApiKey,
  switchHere,
  switchHereWithSummary,
  switchBranch,
  labelEntry,
  forkSession,
  insertBranchSummary,
  copyEntry,
  revealInChat,
  compactSession,
  compactUpToHere,
  summarizeFromHere,
  pinEntry,
  unpinEntry,
  handoffSession,
  cancelCompaction,
  saveSummaryReview,
  cancelSummaryReview,
  exportSession,
  toggleAutoCompaction,
  showLogs,
  openSessionFile,
  sessionsOpen,
  sessionsRename,
  sessionsDelete,
  sessionsRefresh,
  searchSessions,
  compareFilesWith,
  restoreFilesOnly,
  addSelectionToChat,
  addFileToChat,
  fixWithArbor,
] as const;

export interface Surfaces {
  readonly app: SurfacesApp;
  readonly sessionTree: SessionTreeProvider;
  readonly sessionTreeView: vscode.TreeView<string>;
  readonly sessions: SessionsProvider;
  readonly statusBar: StatusBar;
  readonly settings: () => ArborSettings;
  readonly deps: SurfaceDeps;
}

type Log = Logger & { show?(preserveFocus?: boolean): void };

/** What only the real host has: the keys, the editor chats and tree tabs (absent in tests with a fake app). */
export type HostServices = Pick<SurfaceDeps, 'keys' | 'chatPanels' | 'conversationTree'>;

/** With the real chats (src/extension.ts): the surfaces act on the focused one. */
export function registerSurfaces(context: vscode.ExtensionContext, chats: ArborChats, log: Log, settings: () => ArborSettings, chat?: ChatHooks, host: HostServices = {}): Surfaces {
  useLocalizer((message, ...args) => vscode.l10n.t(message, ...args));
  const adapted = adaptChats(chats, chat);
  context.subscriptions.push(adapted);
  return registerSurfacesFor(context.subscriptions, adapted, log, settings, host);
}

/** With any SurfacesApp (tests use a fake); everything is disposed through `subscriptions`. */
export function registerSurfacesFor(subscriptions: vscode.Disposable[], app: SurfacesApp, log: Log, settings: () => ArborSettings, host: HostServices = {}): Surfaces {
  const sessionTree = new SessionTreeProvider(app, log);
  const sessionTreeView = vscode.window.createTreeView(SessionTreeProvider.viewId, { treeDataProvider: sessionTree, showCollapseAll: true });
  const sessions = new SessionsProvider(app, log);
  const sessionsView = vscode.window.createTreeView(SessionsProvider.viewId, { treeDataProvider: sessions });
  const statusBar = new StatusBar(app);
  const deps: SurfaceDeps = { app, log, settings, tree: sessionTree, treeView: sessionTreeView, sessions, status: statusBar, ...host };
  subscriptions.push(sessionTree, sessionTreeView, sessions, sessionsView, statusBar);
  for (const command of SURFACE_COMMANDS) subscriptions.push(command.register(deps));
  subscriptions.push(registerCheckpointContent(() => app.checkpoints), showStoreSize(sessionsView, app.checkpoints, sessions.onDidChangeTreeData, log));
  return { app, sessionTree, sessionTreeView, sessions, statusBar, settings, deps };
}
