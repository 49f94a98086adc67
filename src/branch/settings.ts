// `arbor.branchSummary.*` settings. `enabled` defaults to true (the product asks on every switch),
// deliberately unlike omp's false; `reserveTokens` is omp's 16384 (docs/pi-compatibility.md "Settings"). Each key is
// validated on its own: a bad value gets a warning and its default, the other key still applies.

export interface BranchSummarySettings {
  /** offer the No summary / Summarize / Summarize with instructions choice on every branch switch */
  enabled: boolean;
  /** tokens kept free of the summarizer's context window (prompt + answer) */
  reserveTokens: number;
}

export const DEFAULT_BRANCH_SUMMARY_SETTINGS: Readonly<BranchSummarySettings> = Object.freeze({
  enabled: true,
  reserveTokens: 16384,
});

export interface ParsedBranchSummarySettings {
  settings: BranchSummarySettings;
  warnings: string[];
}

const PREFIX = 'arbor.branchSummary';

/** Validates raw settings (e.g. `workspace.getConfiguration('arbor.branchSummary')` copied into an object). */
export function parseBranchSummarySettings(raw: unknown): ParsedBranchSummarySettings {
  const settings: BranchSummarySettings = { ...DEFAULT_BRANCH_SUMMARY_SETTINGS };
  const warnings: string[] = [];
  if (raw === undefined || raw === null) return { settings, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(`${PREFIX} must be an object; using defaults.`);
    return { settings, warnings };
  }
  const input = raw as Record<string, unknown>;
  const enabled = input.enabled;
  if (enabled !== undefined && enabled !== null) {
    if (typeof enabled === 'boolean') settings.enabled = enabled;
    else warnings.push(`${PREFIX}.enabled: ${JSON.stringify(enabled)} is not valid (expected true or false); using the default true.`);
  }
  const reserve = input.reserveTokens;
  if (reserve !== undefined && reserve !== null) {
    if (typeof reserve === 'number' && Number.isInteger(reserve) && reserve >= 0) settings.reserveTokens = reserve;
    else {
      warnings.push(
        `${PREFIX}.reserveTokens: ${JSON.stringify(reserve)} is not valid (expected a whole number of tokens, 0 or more); ` +
          `using the default ${DEFAULT_BRANCH_SUMMARY_SETTINGS.reserveTokens}.`,
      );
    }
  }
  return { settings, warnings };
}
