// Idle maintenance of an agent session: after a quiet period (no turn, no typing) it compacts when idle
// compaction is enabled and the live context is large enough, asking first when the settings say so.
// Apart from agent-session.ts so the session only tells it when activity starts and ends, the user
// types, or the settings change; the decision itself is src/compaction's (idleCompactionDue).
import { idleCompactionDue, idleTimeoutMs, type CompactionOutcome, type CompactionSettings } from '../compaction';
import { livePromptTokens } from './compaction-triggers';
import type { ContextMaintainer } from './context-maintainer';
import { IdleTimer, type Clock } from './idle-timer';
import type { SessionCoreHost } from './turn-inputs';

/** The session the maintenance watches and runs its compaction in. */
export interface IdleMaintenanceHost extends Pick<SessionCoreHost, 'store'> {
  readonly clock: Clock;
  readonly maintainer: ContextMaintainer;
  settings(): CompactionSettings;
  /** A turn, queued turn or compaction runs (or a manual compaction waits): nothing is due. */
  occupied(): boolean;
  compacting(): boolean;
  disposed(): boolean;
  /** Runs `task` as the session's activity (prompts sent meanwhile queue). */
  start(task: () => Promise<void>): Promise<void>;
  log?: (message: string) => void;
}

export class IdleMaintenance {
  private readonly timer: IdleTimer;

  constructor(private readonly host: IdleMaintenanceHost) {
    this.timer = new IdleTimer(host.clock, () => idleTimeoutMs(host.settings()), () => void this.onTimer());
  }

  /** Starts the quiet period when idle compaction is on (else makes sure no timer runs). */
  arm(): void {
    if (this.host.disposed()) return;
    const settings = this.host.settings();
    if (settings.idleEnabled && settings.strategy !== 'off') this.timer.arm();
    else this.timer.cancel();
  }

  /** Activity started: no idle compaction until it ends. */
  cancel(): void {
    this.timer.cancel();
  }

  /** The user is typing: the quiet period starts over. */
  userTyping(): void {
    if (this.timer.armed) this.timer.arm();
  }

  dispose(): void {
    this.timer.dispose();
  }

  /**
   * Compacts when idle compaction is enabled and the live context is at least `idleThresholdTokens`.
   * Undefined when nothing is due (or the agent is busy); no auto-continue.
   */
  async run(): Promise<CompactionOutcome | undefined> {
    const { maintainer } = this.host;
    if (this.host.occupied() || this.host.compacting() || this.host.disposed()) return undefined;
    const settings = this.host.settings();
    const promptTokens = livePromptTokens(this.host.store().buildContext().messages);
    const due = idleCompactionDue(settings, { promptTokens, userTyping: false, agentBusy: false, compacting: false });
    if (!due || promptTokens === undefined) return undefined;
    if (!(await maintainer.confirmIdleCompaction(promptTokens, settings))) return undefined;
    let outcome: CompactionOutcome | undefined;
    await this.host.start(async () => {
      outcome = await maintainer.runCompaction({ reason: 'idle' });
      maintainer.reportFailure(outcome);
    });
    return outcome;
  }

  private async onTimer(): Promise<void> {
    try {
      await this.run();
    } catch (error) {
      this.host.log?.(`idle compaction: ${(error as Error).message}`);
    }
  }
}
