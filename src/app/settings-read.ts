// Copies the raw `arbor.*` values out of a configuration (VS Code's, or a fake one in tests) for the
// parsers in settings.ts and the section parsers. Kept free of `vscode` so that which settings layer a
// value is taken from is unit-tested without an editor.
import { DEFAULT_BRANCH_SUMMARY_SETTINGS } from '../branch/settings';
import { DEFAULT_COMPACTION_SETTINGS } from '../compaction/settings';
import type { RawArborSettings } from './settings';

/** The layers of one setting, as `WorkspaceConfiguration.inspect()` reports them. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The part of `vscode.WorkspaceConfiguration` the readers use. */
export interface ConfigurationLike {
  get(key: string): unknown;
  inspect(key: string): InspectedSetting | undefined;
}

export type GetConfiguration = (section: string) => ConfigurationLike;

/** The section's explicitly read keys (undefined values left out, so defaults stay the parser's). */
export function readSection(getConfiguration: GetConfiguration, section: string, keys: readonly string[]): Record<string, unknown> {
  const config = getConfiguration(section);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = config.get(key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Raw values of every arbor.* setting the app parses. */
export function readRawSettings(getConfiguration: GetConfiguration): RawArborSettings {
  const arbor = getConfiguration('arbor');
  return {
    model: arbor.get('model'),
    models: arbor.get('models'),
    thinkingLevel: arbor.get('thinkingLevel'),
    toolsApproval: arbor.get('tools.approval'),
    compaction: readSection(getConfiguration, 'arbor.compaction', Object.keys(DEFAULT_COMPACTION_SETTINGS)),
    branchSummary: readSection(getConfiguration, 'arbor.branchSummary', Object.keys(DEFAULT_BRANCH_SUMMARY_SETTINGS)),
    baseUrls: {
      openai: arbor.get('providers.openai.baseUrl'),
      anthropic: arbor.get('providers.anthropic.baseUrl'),
      local: arbor.get('providers.local.baseUrl'),
    },
    sessionsDirectory: arbor.get('sessions.directory'),
  };
}
