// Manual compaction (`/compact [instructions]`, "Arbor: Compact Session"; with `keepFrom`, "Compact Up To
// Here"): a running turn is stopped first (its partial reply is kept as "aborted"), the compaction runs as
// the session's activity, and prompts queued meanwhile are sent afterwards. Apart from agent-session.ts so
// the session's public `compact` stays a one-liner; the compaction itself is the context maintainer's.
import { CompactionNotDone, isDone, type CompactionDoneOutcome, type CompactionOutcome, type CompactionRunner } from '../compaction';
import type { CompactOptions } from './agent-session-types';
import type { ContextMaintainer, MaintenanceRun } from './context-maintainer';
import type { RunQueue } from './run-queue';

/** The parts of the session a manual compaction uses. */
export interface ManualCompactionParts {
  runs: RunQueue;
  runner: CompactionRunner;
  maintainer: ContextMaintainer;
}

/** Throws `CompactionNotDone` carrying the typed outcome (skipped and why, cancelled, failed). */
export async function compactManually(parts: ManualCompactionParts, customInstructions: string | undefined, options: CompactOptions): Promise<CompactionDoneOutcome> {
  if (parts.runner.running) throw new Error('A compaction is already running');
  await parts.runs.makeRoomForCompaction();
  let outcome: CompactionOutcome = { status: 'cancelled' };
  await new Promise<void>((done) => {
    void parts.runs.start(async () => {
      try {
        outcome = await parts.maintainer.runCompaction(manualRun(customInstructions, options));
      } finally {
        done();
      }
    });
  });
  const final = outcome as CompactionOutcome;
  if (isDone(final)) return final;
  throw new CompactionNotDone(final);
}

function manualRun(customInstructions: string | undefined, options: CompactOptions): MaintenanceRun {
  const trimmed = customInstructions?.trim();
  return {
    reason: 'manual',
    ...(trimmed ? { customInstructions: trimmed } : {}),
    ...(options.review ? { review: options.review } : {}),
    ...(options.keepFrom !== undefined ? { keepFrom: options.keepFrom } : {}),
    ...(options.handoff ? { strategy: 'handoff' as const } : {}),
  };
}
