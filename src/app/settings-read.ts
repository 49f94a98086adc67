// Copies the raw `arbor.*` values out of a configuration (VS Code's, or a fake one in tests) for the
// parsers in settings.ts and the section parsers. Kept free of `vscode` so that which settings layer a
// value is taken from is unit-tested without an editor.
// Settings that decide where an API key goes, or what runs or is written without asking, are `machine` scoped in
// package.json (docs/reliability.md, threat model): a cloned repository's `.vscode/settings.json` must
// not set them. The reader enforces that itself, whatever the editor would merge in: it takes only the
// user value (a remote window's user settings also arrive as the global value) or the default, and
// names every workspace or folder value it ignored.
import { DEFAULT_BRANCH_SUMMARY_SETTINGS } from '../branch/settings';
import { DEFAULT_COMPACTION_SETTINGS } from '../compaction/settings';
import { baseUrlProviders } from '../llm/providers';
import { CHECKPOINT_SETTING_KEYS } from './checkpoint-settings';
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

/** Called with the full name of a setting whose workspace or folder value was ignored. */
export type OnIgnored = (setting: string) => void;

/** Settings only the user may set (kept in step with `"scope": "machine"` in package.json). */
export const MACHINE_SCOPED_SETTINGS: readonly string[] = [
  ...baseUrlProviders().map((p) => `arbor.providers.${p.id}.baseUrl`),
  'arbor.models',
  'arbor.compaction.remoteEndpoint',
  'arbor.tools.approval',
  // where sessions and their checkpoint store live, and whether a restore asks: a repository choosing
  // them could have its own committed files restored into the workspace (docs/reliability.md)
  'arbor.sessions.directory',
  'arbor.checkpoints.restore',
  // which MCP servers run (commands with the user's rights): a workspace's own servers go through
  // .vscode/mcp.json and a consent question instead (docs/reliability.md)
  'arbor.mcp.servers',
  // other extensions' tools: which Arbor offers and which run without asking (docs/reliability.md)
  'arbor.vscodeTools.enabled',
  'arbor.vscodeTools.readOnly',
  // where instructions the model follows come from outside the repository (the user's own folders)
  'arbor.skills.paths',
  'arbor.instructions.globalFiles',
];

/** The user's value (or the default) of a machine-scoped setting; a repository's value is reported. */
function userValue(config: ConfigurationLike, setting: string, key: string, onIgnored: OnIgnored): unknown {
  const layers = config.inspect(key);
  if (layers?.workspaceValue !== undefined || layers?.workspaceFolderValue !== undefined) onIgnored(setting);
  return layers?.globalValue ?? layers?.defaultValue;
}

/** One setting's value, honouring machine scope. */
function readSetting(config: ConfigurationLike, section: string, key: string, onIgnored: OnIgnored): unknown {
  const setting = `${section}.${key}`;
  return MACHINE_SCOPED_SETTINGS.includes(setting) ? userValue(config, setting, key, onIgnored) : config.get(key);
}

const ignoreSilently: OnIgnored = () => undefined;

/** The section's explicitly read keys (undefined values left out, so defaults stay the parser's). */
export function readSection(
  getConfiguration: GetConfiguration,
  section: string,
  keys: readonly string[],
  onIgnored: OnIgnored = ignoreSilently,
): Record<string, unknown> {
  const config = getConfiguration(section);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = readSetting(config, section, key, onIgnored);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Raw values of every arbor.* setting the app parses. */
export function readRawSettings(getConfiguration: GetConfiguration, onIgnored: OnIgnored = ignoreSilently): RawArborSettings {
  const arbor = getConfiguration('arbor');
  const get = (key: string) => readSetting(arbor, 'arbor', key, onIgnored);
  return {
    model: get('model'),
    models: get('models'),
    thinkingLevel: get('thinkingLevel'),
    toolsApproval: get('tools.approval'),
    compaction: readSection(getConfiguration, 'arbor.compaction', Object.keys(DEFAULT_COMPACTION_SETTINGS), onIgnored),
    branchSummary: readSection(getConfiguration, 'arbor.branchSummary', Object.keys(DEFAULT_BRANCH_SUMMARY_SETTINGS), onIgnored),
    checkpoints: readSection(getConfiguration, 'arbor.checkpoints', CHECKPOINT_SETTING_KEYS, onIgnored),
    filesExclude: getConfiguration('files').get('exclude'),
    baseUrls: Object.fromEntries(baseUrlProviders().map((p) => [p.id, get(`providers.${p.id}.baseUrl`)])),
    sessionsDirectory: get('sessions.directory'),
    editorTools: {
      ...readSection(getConfiguration, 'arbor.tools', ['diagnosticsAfterEdit'], onIgnored),
      ...readSection(getConfiguration, 'arbor.vscodeTools', ['enabled', 'readOnly'], onIgnored),
    },
    skillPaths: get('skills.paths'),
    globalInstructionFiles: get('instructions.globalFiles'),
  };
}

/** The warning shown (once) for a repository value that was ignored. */
export function ignoredSettingWarning(setting: string): string {
  return (
    `${setting}: the value in this workspace's settings is ignored; set it in your user settings. ` +
    'It decides where your API key is sent, or what runs or is written without asking, so a repository cannot set it.'
  );
}
