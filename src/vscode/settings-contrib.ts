// Reads the contributed `arbor.compaction.*` and `arbor.branchSummary.*` settings through the core
// parsers. An invalid value produces ONE warning (per setting and value: reading again does not repeat
// it, a new invalid value warns again) and its default is used. Values are read on every call, so a
// change applies without a reload.
import * as vscode from 'vscode';
import {
  DEFAULT_BRANCH_SUMMARY_SETTINGS,
  parseBranchSummarySettings,
  type BranchSummarySettings,
} from '../branch';
import { DEFAULT_COMPACTION_SETTINGS, parseCompactionSettings, type CompactionSettings } from '../compaction';
import { ignoredSettingWarning, readSection, type OnIgnored } from '../app/settings-read';
import type { Logger } from './log';

/** Arbor-only compaction option (not part of the engine's settings). */
export interface CompactionUiSettings {
  /** warn before an automatic compaction, offering compact now / defer */
  warnBeforeAuto: boolean;
}

type Warn = (message: string) => void;

export class SettingsReader {
  private readonly warned = new Set<string>();

  constructor(
    private readonly log?: Logger,
    private readonly show: Warn = (message) => void vscode.window.showWarningMessage(message),
  ) {}

  compaction(): CompactionSettings {
    const ignored: string[] = [];
    const raw = rawSection('arbor.compaction', Object.keys(DEFAULT_COMPACTION_SETTINGS), (setting) => ignored.push(ignoredSettingWarning(setting)));
    const { settings, warnings } = parseCompactionSettings(raw);
    this.report([...ignored, ...warnings]);
    return settings;
  }

  branchSummary(): BranchSummarySettings {
    const raw = rawSection('arbor.branchSummary', Object.keys(DEFAULT_BRANCH_SUMMARY_SETTINGS));
    const { settings, warnings } = parseBranchSummarySettings(raw);
    this.report(warnings);
    return settings;
  }

  compactionUi(): CompactionUiSettings {
    const value = vscode.workspace.getConfiguration('arbor.compaction').get<unknown>('warnBeforeAuto');
    if (value === undefined || value === null || typeof value === 'boolean') return { warnBeforeAuto: value === true };
    this.report([`arbor.compaction.warnBeforeAuto: ${JSON.stringify(value)} is not valid (expected true or false); using the default false.`]);
    return { warnBeforeAuto: false };
  }

  /** Reads everything once (at activation and on every change) so bad values are reported promptly. */
  validateAll(): void {
    this.compaction();
    this.branchSummary();
    this.compactionUi();
  }

  private report(warnings: readonly string[]): void {
    for (const warning of warnings) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      this.log?.warn(warning);
      this.show(vscode.l10n.t('Arbor settings: {0}', warning));
    }
  }
}

/** The section's values as the user set them (explicit keys only, so defaults are the parser's). */
function rawSection(section: string, keys: readonly string[], onIgnored?: OnIgnored): Record<string, unknown> {
  return readSection((name) => vscode.workspace.getConfiguration(name), section, keys, onIgnored);
}

/** Watches configuration changes of both sections and validates them right away. */
export function watchSettings(reader: SettingsReader): vscode.Disposable {
  reader.validateAll();
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('arbor.compaction') || event.affectsConfiguration('arbor.branchSummary')) reader.validateAll();
  });
}
