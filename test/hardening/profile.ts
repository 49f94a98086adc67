// Hardening profile: `quick` (CI, default) or `full` (npm run test:hardening with ARBOR_HARDENING_PROFILE=full).
// Every suite scales its trial counts from here, so one switch decides how hard the whole suite pushes.
export type HardeningProfile = 'quick' | 'full';

export function hardeningProfile(): HardeningProfile {
  const value = (process.env.ARBOR_HARDENING_PROFILE ?? 'quick').trim().toLowerCase();
  if (value === 'quick' || value === '') return 'quick';
  if (value === 'full') return 'full';
  throw new Error(`ARBOR_HARDENING_PROFILE must be "quick" or "full" (got "${process.env.ARBOR_HARDENING_PROFILE}")`);
}

/** `quick` or `full` count for the current profile; ARBOR_HARDENING_TRIALS overrides both (debugging). */
export function trials(quick: number, full: number): number {
  const override = Number(process.env.ARBOR_HARDENING_TRIALS);
  if (Number.isInteger(override) && override > 0) return override;
  return hardeningProfile() === 'full' ? full : quick;
}

/** One line of figures per suite, picked up by scripts/run-hardening.mjs and docs/reliability.md. */
export function reportFigures(suite: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  process.stdout.write(`# figures ${suite} profile=${hardeningProfile()} ${text}\n`);
}
