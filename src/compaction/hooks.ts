// Hooks other extensions register around compaction (exported from activate() by the VS Code layer).
// A hook that throws or rejects is logged and treated as "no opinion": hooks can change a compaction,
// never break it.
import type { AgentMessage } from '../core/messages';
import type { CompactionEntry, SessionEntry } from '../session/entries';
import type { CompactionPreparation } from './prepare';
import type { CompactionResult } from './summarize';

export type CompactionReason = 'manual' | 'threshold' | 'overflow' | 'idle' | 'length';

export interface BeforeCompactEvent {
  reason: CompactionReason;
  preparation: CompactionPreparation;
  branchEntries: readonly SessionEntry[];
  customInstructions?: string;
  signal: AbortSignal;
}

export interface BeforeCompactResult {
  /** stop this compaction; nothing is written */
  cancel?: boolean;
  /** use this result instead of generating one (stored with fromHook: true) */
  compaction?: CompactionResult;
}

export interface CompactingEvent {
  reason: CompactionReason;
  preparation: CompactionPreparation;
  /** the messages being summarized (history, then the split turn's prefix) */
  messages: readonly AgentMessage[];
}

export interface CompactingResult {
  /** replaces the base summary instructions */
  prompt?: string;
  /** lines sent to the summarizer in <additional-context> */
  context?: string[];
  /** stored on the compaction entry */
  preserveData?: Record<string, unknown>;
}

export interface CompactEvent {
  reason: CompactionReason;
  entry: CompactionEntry;
  fromHook: boolean;
}

export interface CompactionHooks {
  beforeCompact?(event: BeforeCompactEvent): BeforeCompactResult | void | Promise<BeforeCompactResult | void>;
  compacting?(event: CompactingEvent): CompactingResult | void | Promise<CompactingResult | void>;
  compact?(event: CompactEvent): void | Promise<void>;
}

export type HookLogger = (message: string) => void;

/** Registered hooks, run in registration order. */
export class CompactionHookRegistry {
  private readonly hooks: CompactionHooks[] = [];

  constructor(private readonly log: HookLogger = () => {}) {}

  /** Returns a function that unregisters the hooks. */
  register(hooks: CompactionHooks): () => void {
    this.hooks.push(hooks);
    return () => {
      const index = this.hooks.indexOf(hooks);
      if (index >= 0) this.hooks.splice(index, 1);
    };
  }

  /** First hook to cancel wins; the first provided compaction is used. */
  async beforeCompact(event: BeforeCompactEvent): Promise<BeforeCompactResult> {
    for (const hook of [...this.hooks]) {
      const result = await this.safely('beforeCompact', () => hook.beforeCompact?.(event));
      if (result?.cancel) return { cancel: true };
      if (result?.compaction && isUsableResult(result.compaction)) return { compaction: result.compaction };
      if (result?.compaction) this.log('compaction hook beforeCompact returned a compaction without a summary; ignored');
    }
    return {};
  }

  /** Merges every hook's answer: the last prompt wins, context lines and preserveData accumulate. */
  async compacting(event: CompactingEvent): Promise<CompactingResult> {
    const merged: CompactingResult = {};
    for (const hook of [...this.hooks]) {
      const result = await this.safely('compacting', () => hook.compacting?.(event));
      if (!result) continue;
      if (typeof result.prompt === 'string' && result.prompt.trim() !== '') merged.prompt = result.prompt;
      if (Array.isArray(result.context)) merged.context = [...(merged.context ?? []), ...result.context.filter((l) => typeof l === 'string')];
      if (result.preserveData && typeof result.preserveData === 'object') merged.preserveData = { ...merged.preserveData, ...result.preserveData };
    }
    return merged;
  }

  async compact(event: CompactEvent): Promise<void> {
    for (const hook of [...this.hooks]) await this.safely('compact', () => hook.compact?.(event));
  }

  private async safely<T>(name: string, run: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      this.log(`compaction hook ${name} failed: ${(error as Error)?.message ?? String(error)}`);
      return undefined;
    }
  }
}

function isUsableResult(result: CompactionResult): boolean {
  return typeof result.summary === 'string' && result.summary.trim() !== '' && typeof result.firstKeptEntryId === 'string';
}
