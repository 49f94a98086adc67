// The settings of the tools that come from the editor: `arbor.tools.diagnosticsAfterEdit` ("Problems after
// this edit") and which of VS Code's language-model tools Arbor offers (`arbor.vscodeTools.enabled`, names
// or tags) and trusts as read-only (`arbor.vscodeTools.readOnly`). The two vscodeTools settings are user
// settings only (machine scope, src/app/settings-read.ts): a repository must not switch on, or lower the
// approval of, another extension's code (docs/reliability.md).

export interface EditorToolSettings {
  diagnosticsAfterEdit: boolean;
  /** tool names or tags of `vscode.lm.tools` to offer */
  vscodeToolsEnabled: readonly string[];
  /** tool names or tags that run without asking (effect readOnly) */
  vscodeToolsReadOnly: readonly string[];
}

export const DEFAULT_EDITOR_TOOL_SETTINGS: EditorToolSettings = { diagnosticsAfterEdit: true, vscodeToolsEnabled: [], vscodeToolsReadOnly: [] };

/** Raw values: `arbor.tools.diagnosticsAfterEdit`, `arbor.vscodeTools.enabled`, `arbor.vscodeTools.readOnly`. */
export interface RawEditorToolSettings {
  diagnosticsAfterEdit?: unknown;
  enabled?: unknown;
  readOnly?: unknown;
}

export function parseEditorToolSettings(raw: RawEditorToolSettings | undefined): { settings: EditorToolSettings; warnings: string[] } {
  const warnings: string[] = [];
  const flag = raw?.diagnosticsAfterEdit;
  const validFlag = flag === undefined || flag === null || typeof flag === 'boolean';
  if (!validFlag) warnings.push(`arbor.tools.diagnosticsAfterEdit: ${JSON.stringify(flag)} is not true or false; using the default (true).`);
  const settings: EditorToolSettings = {
    diagnosticsAfterEdit: typeof flag === 'boolean' ? flag : true,
    vscodeToolsEnabled: nameList('arbor.vscodeTools.enabled', raw?.enabled, warnings),
    vscodeToolsReadOnly: nameList('arbor.vscodeTools.readOnly', raw?.readOnly, warnings),
  };
  return { settings, warnings };
}

/** A list of tool names or tags; entries that are not non-empty strings are dropped with one warning. */
function nameList(setting: string, value: unknown, warnings: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.push(`${setting}: ${JSON.stringify(value)} is not a list of tool names or tags; using none.`);
    return [];
  }
  const names = value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  if (names.length !== value.length) warnings.push(`${setting}: entries that are not tool names or tags are ignored.`);
  return [...new Set(names)];
}
