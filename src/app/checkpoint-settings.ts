// `arbor.checkpoints.*` settings (issue #15): whether file checkpoints are captured, what a branch switch
// does with the files (ask / always restore / never), the size cap and the exclude globs. Each key is
// validated on its own: a bad value gets a warning and its default, the others still apply.
import { DEFAULT_CHECKPOINT_OPTIONS } from '../checkpoints/types';

export const RESTORE_MODES = ['ask', 'always', 'never'] as const;
export type RestoreMode = (typeof RESTORE_MODES)[number];

export interface CheckpointSettings {
  enabled: boolean;
  restore: RestoreMode;
  maxFileBytes: number;
  exclude: string[];
  /** the globs VS Code's `files.exclude` turns on: what the editor hides is not checkpointed either */
  filesExclude: string[];
}

export const DEFAULT_CHECKPOINT_SETTINGS: Readonly<CheckpointSettings> = Object.freeze({
  enabled: true,
  restore: 'ask',
  maxFileBytes: DEFAULT_CHECKPOINT_OPTIONS.maxFileBytes,
  exclude: [],
  filesExclude: [],
});

/** The keys of `arbor.checkpoints` (filesExclude comes from `files.exclude`). */
export const CHECKPOINT_SETTING_KEYS = ['enabled', 'restore', 'maxFileBytes', 'exclude'] as const;

const PREFIX = 'arbor.checkpoints';

type Check = (value: unknown, settings: CheckpointSettings) => string | undefined;

const CHECKS: Record<(typeof CHECKPOINT_SETTING_KEYS)[number], Check> = {
  enabled: (value, s) => (typeof value === 'boolean' ? void (s.enabled = value) : 'expected true or false'),
  restore: (value, s) => ((RESTORE_MODES as readonly unknown[]).includes(value) ? void (s.restore = value as RestoreMode) : `expected one of ${RESTORE_MODES.join(', ')}`),
  maxFileBytes: (value, s) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? void (s.maxFileBytes = value) : 'expected a whole number of bytes above 0'),
  exclude: (value, s) => (Array.isArray(value) && value.every((g) => typeof g === 'string') ? void (s.exclude = [...value]) : 'expected a list of glob patterns'),
};

/**
 * The globs `files.exclude` turns on (`"glob": true`); a glob with a `when` condition hides a file only
 * beside another one, which a checkpoint cannot know, so it is left out.
 */
export function enabledExcludeGlobs(filesExclude: unknown): string[] {
  if (typeof filesExclude !== 'object' || filesExclude === null || Array.isArray(filesExclude)) return [];
  return Object.entries(filesExclude).filter(([glob, on]) => on === true && glob.trim() !== '').map(([glob]) => glob);
}

export function parseCheckpointSettings(raw: unknown, filesExclude?: unknown): { settings: CheckpointSettings; warnings: string[] } {
  const settings: CheckpointSettings = { ...DEFAULT_CHECKPOINT_SETTINGS, exclude: [], filesExclude: enabledExcludeGlobs(filesExclude) };
  const warnings: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { settings, warnings };
  for (const [key, check] of Object.entries(CHECKS) as [(typeof CHECKPOINT_SETTING_KEYS)[number], Check][]) {
    const value = (raw as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    const problem = check(value, settings);
    if (problem) warnings.push(`${PREFIX}.${key}: ${JSON.stringify(value)} is not valid (${problem}); using the default ${JSON.stringify(DEFAULT_CHECKPOINT_SETTINGS[key])}.`);
  }
  return { settings, warnings };
}
