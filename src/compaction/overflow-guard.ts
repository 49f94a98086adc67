// "Compact and retry once" for context overflow, without loops: a second overflow before the user
// speaks again or a turn succeeds stops with a clear message instead of compacting again.

export const OVERFLOW_GIVE_UP_MESSAGE =
  'Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.';

export class OverflowGuard {
  private attempted = false;

  /** true when a recovery may run now (and marks it as attempted). */
  tryBegin(): boolean {
    if (this.attempted) return false;
    this.attempted = true;
    return true;
  }

  /** Call on each new user message and on each successful (non-error) assistant reply. */
  reset(): void {
    this.attempted = false;
  }
}
