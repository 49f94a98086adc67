// What every command shares (each is `register(deps)`, listed in surfaces.ts): the app façade, the log,
// settings, the views they refresh or reveal in, the keys and the editor chats, and small helpers
// (argument → entry id, "no session" guard, cancellable progress). Not a command itself.
import * as vscode from 'vscode';
import type { SessionEntry } from '../../session/entries';
import { unknownEntry } from '../../app/app-outcome';
import { errorText } from '../../core/error-text';
import type { SessionReader } from '../surfaces-types';
import type { Logger } from '../log';
import type { ArborSettings } from '../../app/settings';
import type { StatusBar } from '../status-bar';
import type { SecretKeys } from '../secrets';
import type { ChatPanels } from '../chat-panels';
import type { SurfacesApp } from '../surfaces-types';
import type { SessionTreeProvider } from '../tree/session-tree-provider';
import type { SessionsProvider } from '../sessions/sessions-provider';
import type { McpHost } from '../mcp/mcp-host';

/**
 * What the commands use of the views: the Session Tree's model (a cache some commands reuse), its view (to
 * reveal a row), the Sessions list (to refresh) and the status bar (to show an activity). Always given:
 * surfaces.ts passes the real views; the extension-host tests, which run commands without them, pass
 * inert ones (test/exthost/surfaces-fixtures.ts).
 */
export interface ViewServices {
  tree: Pick<SessionTreeProvider, 'treeModel'>;
  treeView: Pick<vscode.TreeView<string>, 'visible' | 'reveal'>;
  sessions: Pick<SessionsProvider, 'refresh'>;
  status: Pick<StatusBar, 'beginActivity'>;
}

/** What only the real host has and the commands that need it require: the keys, the editor chats, the tree tabs. */
export interface HostServices {
  /** the API keys in SecretStorage (Set / Clear API Key) */
  keys: Pick<SecretKeys, 'hasKey' | 'setKey' | 'clearKey'>;
  /** the chats in editor tabs (Open Chat in Editor) */
  chatPanels: Pick<ChatPanels, 'openChat' | 'showInEditor'>;
  /** the focused chat's session as a graph in an editor tab (Open Conversation Tree) */
  conversationTree: { show(): unknown };
  /** the MCP servers of this window (Arbor: MCP Servers…) */
  mcp: Pick<McpHost, 'servers' | 'heldServers' | 'setEnabled' | 'askAgain' | 'showLog'>;
}

export interface SurfaceDeps extends ViewServices, HostServices {
  app: SurfacesApp;
  log: Logger & { show?(preserveFocus?: boolean): void };
  /** the current settings, from the one reader (settings/arbor-settings.ts) */
  settings: () => ArborSettings;
}

/** Entry id from a command argument: a tree element (the id itself), `{ id }`, or `{ entryId }`. */
export function entryIdFrom(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg.trim() !== '') return arg;
  if (arg && typeof arg === 'object') {
    const record = arg as Record<string, unknown>;
    if (typeof record.entryId === 'string') return record.entryId;
    if (typeof record.id === 'string') return record.id;
  }
  return undefined;
}

/** The current store, or undefined after telling the user there is no session. */
export function requireStore(deps: SurfaceDeps): SessionReader | undefined {
  const store = deps.app.store;
  if (!store) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No Arbor session is open. Start one in the chat or open a session file.'));
  }
  return store;
}

/** The entry for `id` in the current session, or undefined after a clear message. */
export function requireEntry(deps: SurfaceDeps, store: SessionReader, id: string | undefined): SessionEntry | undefined {
  if (id === undefined) {
    void vscode.window.showErrorMessage(vscode.l10n.t('No entry was given.'));
    return undefined;
  }
  const entry = store.getEntry(id);
  if (!entry) {
    deps.log.warn(`command for unknown entry ${id}`);
    void vscode.window.showErrorMessage(unknownEntry(id).message);
  }
  return entry;
}

/** Runs `task` under a notification with a Cancel button; the signal aborts when Cancel is pressed. */
export function withCancellableProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (_progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        return await task(controller.signal);
      } finally {
        subscription.dispose();
      }
    },
  );
}

/**
 * Opens or shows a chat (Open / New Chat in Editor): what `open` answers, or false after an exception was
 * shown as "Could not open the chat: …" and logged. The one home of that message.
 */
export async function openingChat(deps: Pick<SurfaceDeps, 'log'>, open: () => Promise<boolean>): Promise<boolean> {
  try {
    return await open();
  } catch (error) {
    deps.log.error(`opening a chat: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the chat: {0}', errorText(error)));
    return false;
  }
}
