// Which of the parsed `arbor.*` settings a re-read changed, so a listener of the settings module's
// onDidChange (src/vscode/settings/arbor-settings.ts) can tell a model change from a compaction one.
// Kept free of `vscode` so that it is unit-tested in Node alone.
import type { ArborSettings } from '../../app/settings';

/** The name of one parsed setting group (`model`, `compaction`, `checkpoints`, …). */
export type ArborSettingName = keyof ArborSettings;

/** What the settings module tells its listeners after a re-read. */
export interface ArborSettingsChange {
  readonly settings: ArborSettings;
  /** the groups whose parsed value differs from the previous read (empty when nothing did) */
  readonly changed: readonly ArborSettingName[];
}

/** The groups whose parsed value differs between two reads (compared as JSON: they are plain data). */
export function changedSettings(before: ArborSettings, after: ArborSettings): ArborSettingName[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<ArborSettingName>;
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
}
