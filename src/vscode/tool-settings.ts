// The settings of the tools that come from the editor: `arbor.tools.diagnosticsAfterEdit` and which of
// VS Code's language-model tools Arbor offers (`arbor.vscodeTools.enabled`, names or tags) and which of
// them the user trusts as read-only (`arbor.vscodeTools.readOnly`). Both vscodeTools settings are user
// settings only (machine scope, enforced by readSection): a repository must not switch on, or lower the
// approval of, code from other extensions (docs/reliability.md).
import * as vscode from 'vscode';
import { readSection } from '../app/settings-read';

export interface EditorToolSettings {
  diagnosticsAfterEdit: boolean;
  /** tool names or tags of `vscode.lm.tools` to offer */
  vscodeToolsEnabled: readonly string[];
  /** tool names or tags that run without asking (effect readOnly) */
  vscodeToolsReadOnly: readonly string[];
}

export const VSCODE_TOOLS_ENABLED = 'arbor.vscodeTools.enabled';

export function readEditorToolSettings(): EditorToolSettings {
  const get = (section: string) => vscode.workspace.getConfiguration(section);
  const tools = readSection(get, 'arbor.tools', ['diagnosticsAfterEdit']);
  const lm = readSection(get, 'arbor.vscodeTools', ['enabled', 'readOnly']);
  return {
    diagnosticsAfterEdit: tools.diagnosticsAfterEdit !== false,
    vscodeToolsEnabled: stringList(lm.enabled),
    vscodeToolsReadOnly: stringList(lm.readOnly),
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
}

/** Writes the user's list of enabled VS Code tools (the chooser command). */
export async function writeVscodeToolsEnabled(names: readonly string[]): Promise<void> {
  await vscode.workspace.getConfiguration('arbor.vscodeTools').update('enabled', [...names], vscode.ConfigurationTarget.Global);
}
