// "Arbor: MCP Servers…": every MCP server with its state, tool count and last error, and what to do with
// one — restart, enable or disable (the user's servers), ask again (a workspace server not started), show
// the log. Also opened from the MCP status bar item. Returns the servers' status (the exthost test reads it).
import * as vscode from 'vscode';
import type { ServerStatus } from '../../mcp/servers';
import type { HeldServer } from '../../mcp/workspace-consent';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.mcp.showServers';

type Pick = vscode.QuickPickItem & { server?: ServerStatus; held?: HeldServer; action?: 'log' | 'settings' };

const ICONS: Record<ServerStatus['state'], string> = { running: 'pass', starting: 'loading~spin', failed: 'error', disabled: 'circle-slash', stopped: 'debug-stop' };

function serverItem(server: ServerStatus): Pick {
  const tools = vscode.l10n.t('{0} tools', server.toolCount);
  return {
    label: `$(${ICONS[server.state]}) ${server.name}`,
    description: `${server.state}${server.state === 'running' ? ` · ${tools}` : ''} · ${server.source}`,
    detail: server.failureText ? server.failureText.split('\n')[0] : server.launch,
    server,
  };
}

function heldItem(held: HeldServer): Pick {
  return { label: `$(shield) ${held.name}`, description: vscode.l10n.t('workspace · not started: {0}', held.reason), detail: held.file, held };
}

async function serverActions(deps: SurfaceDeps, server: ServerStatus): Promise<void> {
  const mcp = deps.mcp;
  const restart = vscode.l10n.t('Restart');
  const disable = vscode.l10n.t('Disable');
  const enable = vscode.l10n.t('Enable');
  const log = vscode.l10n.t('Show Log');
  const tools = vscode.l10n.t('Show Tools and Descriptions');
  const choices = [server.state === 'disabled' ? enable : restart, ...(server.tools.length > 0 ? [tools] : []), ...(server.source === 'user' && server.state !== 'disabled' ? [disable] : []), log];
  const detail = server.failureText ?? (server.tools.length > 0 ? server.tools.join(', ') : server.launch);
  const choice = await vscode.window.showQuickPick(choices, { title: `${server.name}: ${server.state}`, placeHolder: detail });
  if (choice === restart) await mcp.servers.restart(server.name);
  else if (choice === tools) await showTools(server);
  else if (choice === disable || choice === enable) {
    if (!(await mcp.setEnabled(server.name, choice === enable))) void vscode.window.showWarningMessage(vscode.l10n.t('Only servers in your arbor.mcp.servers setting can be enabled or disabled here.'));
  } else if (choice === log) mcp.showLog();
}

/** The tools as the model sees them: a server's descriptions are its own text and may try to instruct the model. */
async function showTools(server: ServerStatus): Promise<void> {
  const items = server.tools.map((name, i) => ({ label: name, detail: server.descriptions[i] ?? '' }));
  await vscode.window.showQuickPick(items, { title: vscode.l10n.t('{0}: tools offered to the model', server.name), matchOnDetail: true });
}

export async function run(deps: SurfaceDeps): Promise<ServerStatus[] | undefined> {
  const mcp = deps.mcp;
  const items: Pick[] = [...mcp.servers.list().map(serverItem), ...mcp.heldServers().map(heldItem)];
  if (items.length === 0) items.push({ label: vscode.l10n.t('No MCP servers yet'), detail: vscode.l10n.t('Add one in the arbor.mcp.servers setting (see the README, "MCP servers").'), action: 'settings' });
  items.push({ label: `$(output) ${vscode.l10n.t('Show Log')}`, action: 'log' });
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Arbor: MCP Servers'), matchOnDescription: true, matchOnDetail: true });
  if (picked?.server) await serverActions(deps, picked.server);
  else if (picked?.held) await mcp.askAgain(picked.held.name);
  else if (picked?.action === 'log') mcp.showLog();
  else if (picked?.action === 'settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'arbor.mcp.servers');
  return mcp.servers.list();
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
