// Idle maintenance timer: after `idleTimeoutSeconds` (clamped 60–3600) with no agent work and no
// typing, the session checks whether idle compaction is due. Every activity restarts the wait, so
// "not while the user is typing" means "not until the user stopped typing for the whole timeout".
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    // An armed idle timer must never keep the extension host (or a test run) alive.
    (timer as { unref?: () => void }).unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class IdleTimer {
  private handle: unknown;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: () => number,
    private readonly onIdle: () => void,
  ) {}

  get armed(): boolean {
    return this.handle !== undefined;
  }

  /** (Re)starts the wait. */
  arm(): void {
    this.cancel();
    if (this.disposed) return;
    this.handle = this.clock.setTimeout(() => {
      this.handle = undefined;
      this.onIdle();
    }, this.timeoutMs());
  }

  cancel(): void {
    if (this.handle === undefined) return;
    this.clock.clearTimeout(this.handle);
    this.handle = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }
}
