// The "Sessions" view: the workspace's sessions, newest first — name (or first message), relative time,
// entries and branches. Listing reads each file with the catalog's fast summarizer; unreadable files are
// logged and left out. Refreshes when the current session changes and (debounced) as it grows. The listing
// starts when the provider is made, not when the view is first expanded, so expanding it shows rows at once;
// the "no sessions" welcome waits for a listing (context key `arbor.sessions.listed`) instead of flashing.
import * as vscode from 'vscode';
import type { SessionSummary } from '../../session/catalog';
import type { Logger } from '../log';
import type { SurfacesApp } from '../surfaces-types';
import { firstLine } from '../tree/entry-presentation';
import { sessionDisplayTitle } from '../../core/text';
import { Disposable } from '../disposable';

export const SESSIONS_VIEW_ID = 'arbor.sessions';
export const OPEN_SESSION_COMMAND = 'arbor.sessions.open';
const REFRESH_DELAY_MS = 1500;

export function relativeTime(date: Date, now = Date.now()): string {
  const seconds = Math.round((now - date.getTime()) / 1000);
  if (seconds < 45) return vscode.l10n.t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes === 1 ? vscode.l10n.t('1 minute ago') : vscode.l10n.t('{0} minutes ago', minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 24) return hours === 1 ? vscode.l10n.t('1 hour ago') : vscode.l10n.t('{0} hours ago', hours);
  const days = Math.round(hours / 24);
  if (days < 30) return days === 1 ? vscode.l10n.t('yesterday') : vscode.l10n.t('{0} days ago', days);
  return date.toLocaleDateString();
}

export function sessionTitle(session: SessionSummary): string {
  return sessionDisplayTitle(session.name, session.firstUserMessage) ?? vscode.l10n.t('(empty session)');
}

export class SessionsProvider extends Disposable implements vscode.TreeDataProvider<SessionSummary> {
  static readonly viewId = SESSIONS_VIEW_ID;
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private unsubscribeStore: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private listing: Promise<SessionSummary[]> | undefined;
  /** the last listing (tests and commands read it) */
  sessions: SessionSummary[] = [];

  constructor(
    private readonly app: Pick<SurfacesApp, 'store' | 'session' | 'onDidChangeSession'>,
    private readonly log?: Logger,
  ) {
    super();
    this.register(app.onDidChangeSession(() => this.watchStore()));
    this.watchStore();
  }

  refresh(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.listing = this.list();
    this.changeEmitter.fire();
  }

  private watchStore(): void {
    this.unsubscribeStore?.();
    this.unsubscribeStore = this.app.store?.onDidAppend(() => {
      if (!this.timer) this.timer = setTimeout(() => this.refresh(), REFRESH_DELAY_MS);
    });
    this.refresh();
  }

  getChildren(element?: SessionSummary): Promise<SessionSummary[]> {
    if (element) return Promise.resolve([]);
    // the key is set once the view has its rows: VS Code shows the welcome only when the listing is empty
    return (this.listing ??= this.list()).then((sessions) => {
      void vscode.commands.executeCommand('setContext', 'arbor.sessions.listed', true);
      return sessions;
    });
  }

  private async list(): Promise<SessionSummary[]> {
    try {
      this.sessions = await this.app.session.listSessions();
    } catch (error) {
      this.log?.error(`Sessions: could not list the sessions: ${(error as Error).message}`);
      this.sessions = [];
    }
    return this.sessions;
  }

  getTreeItem(session: SessionSummary): vscode.TreeItem {
    const item = new vscode.TreeItem(sessionTitle(session), vscode.TreeItemCollapsibleState.None);
    const current = this.app.store?.file === session.file;
    item.id = session.file;
    const entries = session.entryCount === 1 ? vscode.l10n.t('1 entry') : vscode.l10n.t('{0} entries', session.entryCount);
    const branches = session.branchCount === 1 ? vscode.l10n.t('1 branch') : vscode.l10n.t('{0} branches', session.branchCount);
    item.description = `${current ? vscode.l10n.t('● current') + ' · ' : ''}${relativeTime(session.modified)} · ${entries} · ${branches}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${sessionTitle(session).replace(/[\\`*_[\]<>]/g, '\\$&')}**\n\n`);
    if (session.name && session.firstUserMessage) tooltip.appendText(firstLine(session.firstUserMessage, 200)).appendMarkdown('\n\n');
    tooltip.appendText(`${session.modified.toLocaleString()} · ${entries} · ${branches}\n${session.file}`);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(current ? 'comment-discussion' : 'comment');
    item.contextValue = current ? 'arbor.session current' : 'arbor.session';
    item.command = { command: OPEN_SESSION_COMMAND, title: vscode.l10n.t('Open Session'), arguments: [session] };
    return item;
  }

  override dispose(): void {
    clearTimeout(this.timer);
    this.unsubscribeStore?.();
    super.dispose();
  }
}
