// "Arbor: Choose VS Code Tools…": a checklist of VS Code's language-model tools (`vscode.lm.tools`: other
// extensions' tools and the MCP servers configured in VS Code); the checked ones are written to the user
// setting `arbor.vscodeTools.enabled` and offered to the agent, each call asking like `bash`.
import * as vscode from 'vscode';
import { chosenList, listedIn, type LmToolInfo } from '../lm-tool-adapter';
import { lmToolsApi } from '../lm-tools';
import type { EditorToolSettings } from '../../app/editor-tool-settings';
import { saveVscodeToolsEnabled } from '../settings/arbor-settings';

export const id = 'arbor.vscodeTools.choose';

interface ToolItem extends vscode.QuickPickItem {
  tool: LmToolInfo;
}

function itemOf(tool: LmToolInfo, enabled: readonly string[]): ToolItem {
  const byTag = !enabled.includes(tool.name) && listedIn(tool, enabled);
  return {
    label: tool.name,
    description: [tool.tags.join(', '), byTag ? vscode.l10n.t('(enabled by a tag)') : ''].filter(Boolean).join(' '),
    detail: tool.description.slice(0, 300),
    picked: listedIn(tool, enabled),
    tool,
  };
}

export async function run(settings: () => EditorToolSettings): Promise<void> {
  const tools = [...(lmToolsApi()?.tools ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  if (tools.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('VS Code has no language-model tools right now: other extensions and the MCP servers configured in VS Code add them.'));
    return;
  }
  const enabled = settings().vscodeToolsEnabled;
  const picked = await vscode.window.showQuickPick(tools.map((tool) => itemOf(tool, enabled)), {
    canPickMany: true,
    matchOnDetail: true,
    title: vscode.l10n.t('VS Code tools Arbor may use (each call asks first)'),
  });
  if (!picked) return;
  await saveVscodeToolsEnabled(chosenList(enabled, tools, picked.map((item) => item.tool.name)));
}

export function register(settings: () => EditorToolSettings): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(settings));
}
