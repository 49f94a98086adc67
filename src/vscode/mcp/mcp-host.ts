// The MCP servers of this window: the user's `arbor.mcp.servers` and, in a trusted workspace after the
// user agreed per server, each folder's `.vscode/mcp.json` (src/mcp/workspace-consent.ts). Starts them in
// the background through src/mcp (their tools go into the live tool list as `mcp:<name>`), writes their
// logs into the Arbor output channel, and shows their state in a status bar item whose click opens
// "Arbor: MCP Servers…" (commands/mcp-show-servers.ts).
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { launchLine, parseMcpJson, parseServers, type ServerConfig } from '../../mcp/config';
import { McpServers, type ServerEntry, type ServerStatus, type ToolSink } from '../../mcp/servers';
import { workspaceServers, type ConsentAnswer, type HeldServer, type WorkspaceServersFile } from '../../mcp/workspace-consent';
import { readMcpServersSetting, writeMcpServerEnabled } from '../settings/arbor-settings';
import type { Logger } from '../log';
import { McpInputs } from './inputs';

const CONSENT_STATE = 'arbor.mcp.consent';
export const SHOW_SERVERS_COMMAND = 'arbor.mcp.showServers';

export interface McpHostDeps {
  context: vscode.ExtensionContext;
  log: Logger & { show?(preserveFocus?: boolean): void };
  /** the live tool list the agent reads (src/agent/tools/tool-registry.ts) */
  tools: ToolSink;
  /** fires when `arbor.*` settings changed (ArborConfig.onDidChange) */
  onSettingsChanged: vscode.Event<unknown>;
}

export class McpHost implements vscode.Disposable {
  readonly servers: McpServers;
  private held: HeldServer[] = [];
  private readonly inputs: McpInputs;
  private readonly statusItem = vscode.window.createStatusBarItem('arbor.mcp', vscode.StatusBarAlignment.Right, 90);
  private readonly disposables: vscode.Disposable[] = [];
  private reloading: Promise<void> = Promise.resolve();

  constructor(private readonly deps: McpHostDeps) {
    this.inputs = new McpInputs(deps.context.secrets);
    this.servers = new McpServers({ tools: deps.tools, placeholders: this.inputs.placeholders(), log: (server, line) => this.logLine(server, line) });
    this.statusItem.name = vscode.l10n.t('Arbor MCP Servers');
    this.statusItem.command = SHOW_SERVERS_COMMAND;
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
    this.disposables.push(
      this.statusItem,
      watcher,
      // a settings change re-reads the user's servers; it does not ask again about a dismissed workspace one
      deps.onSettingsChanged(() => this.reload(false)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reload()),
      ...[watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete].map((event) => event(() => this.reload())),
    );
    const unsubscribe = this.servers.onDidChange(() => this.showStatus());
    this.disposables.push({ dispose: unsubscribe });
  }

  /** Re-reads every source; one reload at a time, in order. */
  reload(askNow = true): Promise<void> {
    this.reloading = this.reloading.then(() => this.load(askNow)).catch((error) => this.deps.log.error(`MCP: loading the servers failed: ${(error as Error).message}`));
    return this.reloading;
  }

  private async load(askNow: boolean): Promise<void> {
    const user = parseServers(readMcpServersSetting());
    for (const problem of user.problems) this.deps.log.warn(`MCP: arbor.mcp.servers: ${problem}`);
    const entries = new Map<string, ServerEntry>([...user.servers].map(([name, config]) => [name, { config, source: 'user', inputs: user.inputs }]));
    const workspace = await workspaceServers(await this.workspaceFiles(), new Set(entries.keys()), this.consentHost(), askNow);
    for (const [name, entry] of workspace.entries) entries.set(name, entry);
    for (const [name, entry] of entries) this.inputs.setScope(name, entry.scope ?? 'user');
    this.held = workspace.held;
    for (const held of this.held) this.deps.log.info(`MCP: workspace server "${held.name}" (${held.file}) is not started: ${held.reason}`);
    this.servers.configure(entries);
    this.showStatus();
  }

  private async workspaceFiles(): Promise<WorkspaceServersFile[]> {
    const files: WorkspaceServersFile[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json').fsPath;
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const parsed = parseMcpJson(text);
      for (const problem of parsed.problems) this.deps.log.warn(`MCP: ${file}: ${problem}`);
      files.push({ folder: folder.uri.fsPath, file, parsed });
    }
    return files;
  }

  private consentHost() {
    const state = this.deps.context.globalState;
    const read = () => state.get<Record<string, ConsentAnswer>>(CONSENT_STATE) ?? {};
    return {
      trusted: () => vscode.workspace.isTrusted,
      remembered: (key: string) => read()[key],
      remember: async (key: string, answer: ConsentAnswer) => state.update(CONSENT_STATE, { ...read(), [key]: answer }),
      ask: (server: string, config: ServerConfig, file: string) => askConsent(server, config, file),
    };
  }

  /** Forgets the remembered answer for a held workspace server and asks again. */
  async askAgain(name: string): Promise<void> {
    const held = this.held.find((h) => h.name === name);
    if (!held) return;
    const state = this.deps.context.globalState;
    const current = { ...(state.get<Record<string, ConsentAnswer>>(CONSENT_STATE) ?? {}) };
    delete current[held.key];
    await state.update(CONSENT_STATE, current);
    await this.reload(true);
  }

  heldServers(): readonly HeldServer[] {
    return this.held;
  }

  async setEnabled(name: string, enabled: boolean): Promise<boolean> {
    const written = await writeMcpServerEnabled(name, enabled);
    if (written) await this.reload(false);
    return written;
  }

  showLog(): void {
    this.deps.log.show?.(true);
  }

  private logLine(server: string, line: string): void {
    const text = `MCP ${server}: ${line}`;
    if (line.startsWith('failed:')) this.deps.log.warn(text);
    else this.deps.log.info(text);
  }

  private showStatus(): void {
    const all = this.servers.list();
    if (all.length === 0 && this.held.length === 0) return void this.statusItem.hide();
    const running = all.filter((s) => s.state === 'running').length;
    const failed = all.filter((s) => s.state === 'failed');
    this.statusItem.text = `$(${failed.length > 0 ? 'warning' : 'plug'}) MCP ${running}/${all.length}`;
    this.statusItem.tooltip = statusTooltip(all, this.held);
    this.statusItem.backgroundColor = failed.length > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.statusItem.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.servers.dispose();
  }
}

function statusTooltip(all: readonly ServerStatus[], held: readonly HeldServer[]): string {
  const lines = all.map((s) => `${s.name}: ${s.state}${s.state === 'running' ? ` (${s.toolCount} tools)` : ''}${s.failureText ? ` — ${s.failureText.split('\n')[0]}` : ''}`);
  for (const h of held) lines.push(`${h.name} (workspace): not started — ${h.reason}`);
  return `${vscode.l10n.t('Arbor MCP servers')}\n${lines.join('\n')}`;
}

/** The modal question for one workspace server, showing exactly what would run. */
async function askConsent(server: string, config: ServerConfig, file: string): Promise<ConsentAnswer | undefined> {
  const allow = vscode.l10n.t('Allow and Start');
  const deny = vscode.l10n.t('Don\'t Allow');
  const detail = [
    launchLine(config),
    ...(config.type === 'stdio' && config.cwd ? [vscode.l10n.t('in {0}', config.cwd)] : []),
    ...(config.type === 'stdio' ? Object.entries(config.env ?? {}).map(([k, v]) => `${k}=${String(v)}`) : []),
    ...(config.type !== 'stdio' ? Object.keys(config.headers ?? {}).map((k) => vscode.l10n.t('header {0}', k)) : []),
    '',
    vscode.l10n.t('From {0}. It runs with your rights; its tools ask before each call. A changed command asks again.', file),
  ].join('\n');
  const message = vscode.l10n.t('This workspace wants to start the MCP server "{0}".', server);
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, allow, deny);
  return answer === allow ? 'allowed' : answer === deny ? 'declined' : undefined;
}
