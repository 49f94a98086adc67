// Manual compaction of the open session as the UIs ask for it (the chat's /compact and /handoff, Compact
// Session, Compact Up To Here, Hand Off to New Session, Cancel): the compaction itself is the agent's
// (src/compaction/); this part checks what the user may ask now and passes the user's cut, review and
// handoff on. The UIs call it as the member `app.compaction` (chat-parts.ts): nothing forwards it.
import type { AgentSession } from '../agent/agent-session';
import { CompactionNotDone, skipped, type CompactionOutcome, type CompactionPreparation, type CompactionPreview } from '../compaction';
import type { CompactAppOptions, CompactReview } from './app-types';

export interface CompactOptions extends CompactAppOptions {
  /** called with the generated summary before it is saved: return it (maybe edited) or undefined to cancel */
  review?: CompactReview;
}

/** The public face of CompactionActions, for fakes and for the surfaces that use the focused chat's. */
export type CompactionActionsApi = { readonly [K in keyof CompactionActions]: CompactionActions[K] };

export class CompactionActions {
  /** `agent`: the open session's agent, if any */
  constructor(private readonly agent: () => AgentSession | undefined) {}

  /**
   * Manual compaction; throws `CompactionNotDone` with a user-facing message when skipped, cancelled or
   * failed. With `keepFrom` the cut is the user's (the outcome's `cut` says whether it had to move back).
   */
  async compact(customInstructions?: string, options: CompactOptions = {}): Promise<CompactionOutcome> {
    const agent = this.agent();
    if (!agent) throw new CompactionNotDone(skipped('nothing-to-compact'));
    if (options.keepFrom !== undefined) {
      // The path is about to change under a running turn; the user picked the cut on what they saw.
      if (agent.compacting) throw new CompactionNotDone(skipped('busy'));
      if (agent.busy) throw new CompactionNotDone(skipped('turn-running'));
    }
    return agent.compact(customInstructions, {
      ...(options.review ? { review: options.review } : {}),
      ...(options.keepFrom !== undefined ? { keepFrom: options.keepFrom } : {}),
      ...(options.handoff ? { handoff: true } : {}),
    });
  }

  /** Cancels a running compaction; false when none runs. */
  cancel(): boolean {
    return this.agent()?.cancelCompaction() ?? false;
  }

  /** What a manual compaction would do now, without calling a model; undefined when nothing to compact. */
  preview(): CompactionPreview | undefined {
    return this.agent()?.compactionRunner.preview();
  }

  /** The preview of a cut the user chose, with the same estimator and overhead as the marker and meter. */
  previewOf(preparation: CompactionPreparation): CompactionPreview | undefined {
    return this.agent()?.compactionRunner.previewOf(preparation);
  }
}
