// The agent session's one-at-a-time rule: at most one activity (a turn, the prompts queued during it, or a
// compaction) runs; prompts sent meanwhile wait in a queue and run after it, unless Stop or a manual
// compaction interrupted it. Apart from agent-session.ts so the session keeps its public API and state,
// and this the queueing and interrupting; what a run does is the turn loop's (turn-loop.ts).
import { imagesMarker } from '../core/messages';
import type { AgentEvent } from './events';
import type { QueuedPrompt } from './turn-loop';

/** Why the running activity was interrupted: queued prompts then wait instead of running. */
export type Interrupt = 'stop' | 'compact';

/** What starting and ending an activity does in the session around it. */
export interface RunQueueHost {
  /** Runs one queued prompt (a whole turn). */
  runPrompt(prompt: QueuedPrompt): Promise<void>;
  /** An activity starts (idle maintenance pauses). */
  started(): void;
  /** Model / thinking-level changes made during the activity, saved when it ends. */
  applyPendingChanges(): Promise<void>;
  /** An activity ended, whatever its outcome, and its changes were saved (idle maintenance re-arms). */
  ended(): void;
  emit(event: AgentEvent): void;
  disposed(): boolean;
  log?: (message: string) => void;
}

export class RunQueue {
  private readonly waiting: QueuedPrompt[] = [];
  private activity: Promise<void> | undefined;
  private runController: AbortController | undefined;
  private interrupt: Interrupt | undefined;
  private compactWaiting = false;

  constructor(private readonly host: RunQueueHost) {}

  /** True while a turn, a queued turn or a compaction runs. */
  get busy(): boolean {
    return this.activity !== undefined;
  }

  /** Busy, or a manual compaction waits for the running turn to stop: new prompts queue. */
  get occupied(): boolean {
    return Boolean(this.activity || this.compactWaiting);
  }

  get length(): number {
    return this.waiting.length;
  }

  /** What the queue shows: each prompt's text, or for images alone their marker (`[image]`). */
  get texts(): string[] {
    return this.waiting.map(queuedLabel);
  }

  add(prompt: QueuedPrompt): void {
    this.waiting.push(prompt);
    this.emitQueued();
  }

  /** Removes a queued prompt and returns it (its text and images go back to the input). */
  remove(index: number): QueuedPrompt | undefined {
    const [removed] = this.waiting.splice(index, 1);
    if (removed !== undefined) this.emitQueued();
    return removed;
  }

  /** Empties the queue and returns the prompts (Stop gives their texts and images back to the input). */
  takeAll(): QueuedPrompt[] {
    const dropped = this.waiting.splice(0);
    if (dropped.length > 0) this.emitQueued();
    return dropped;
  }

  /** The controller of the run that just started (one per turn); `interrupt` aborts it. */
  setRunController(controller: AbortController): void {
    this.runController = controller;
  }

  /** Aborts the running turn; queued prompts then wait. */
  interruptRun(reason: Interrupt): void {
    this.interrupt = reason;
    this.runController?.abort();
  }

  /** Aborts the running turn without marking an interrupt (the session closes). */
  abortRun(): void {
    this.runController?.abort();
  }

  /** Stops the running turn for a manual compaction and waits for it; prompts sent meanwhile queue. */
  async makeRoomForCompaction(): Promise<void> {
    if (!this.activity) return;
    this.compactWaiting = true;
    this.interruptRun('compact');
    try {
      await this.whenIdle();
    } finally {
      this.compactWaiting = false;
    }
  }

  /** Resolves when no turn, queued prompt or compaction is running. */
  async whenIdle(): Promise<void> {
    while (this.activity) await this.activity.catch(() => undefined);
  }

  /**
   * Runs `task`, then the prompts queued meanwhile (one by one, unless the run was stopped or compacted);
   * failures become an `error` event. No await beyond the task's and the prompts' own: who awaits
   * `compact()` sees the activity over before it sends the next prompt.
   */
  start(task: () => Promise<void>): Promise<void> {
    this.host.started();
    this.interrupt = undefined;
    this.host.emit({ type: 'busy' });
    const run = (async () => {
      try {
        await task();
        while (this.waiting.length > 0 && this.interrupt === undefined && !this.host.disposed()) {
          await this.host.runPrompt(this.next());
        }
      } catch (error) {
        this.host.log?.(`agent: ${(error as Error)?.stack ?? String(error)}`);
        this.host.emit({ type: 'error', message: `The agent failed: ${(error as Error)?.message ?? String(error)}` });
      } finally {
        this.runController = undefined;
        this.activity = undefined;
        await this.saveChanges();
        this.host.emit({ type: 'idle' });
        this.host.ended();
      }
    })();
    this.activity = run;
    return run;
  }

  private next(): QueuedPrompt {
    const next = this.waiting.shift()!;
    this.emitQueued();
    return next;
  }

  private async saveChanges(): Promise<void> {
    try {
      await this.host.applyPendingChanges();
    } catch (error) {
      this.host.emit({ type: 'error', message: `Could not save the model change: ${(error as Error).message}` });
    }
  }

  private emitQueued(): void {
    this.host.emit({ type: 'queued', messages: this.texts });
  }
}

function queuedLabel(prompt: QueuedPrompt): string {
  return prompt.text.trim() === '' && prompt.images.length > 0 ? imagesMarker(prompt.images.length) : prompt.text;
}
