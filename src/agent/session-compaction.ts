// How an agent session is wired to the compaction engine: the compaction runner it owns (built from the
// session's deps and its current store and model) and the runner's start/end events as the session's agent
// events. Apart from agent-session.ts so the session keeps its public API and queue, and this the plumbing
// between it and src/compaction (the decisions are the context maintainer's, context-maintainer.ts).
import { CompactionRunner, type CompactionEvent } from '../compaction';
import type { SessionEntry } from '../session/entries';
import type { AgentSessionDeps } from './agent-session-types';
import type { AgentEvent } from './events';
import { thinkingOf } from './reply-stream';
import type { SessionCoreHost, TurnInputs } from './turn-inputs';

/** What the runner reads from the session. */
export interface CompactionWiringHost extends Pick<SessionCoreHost, 'store' | 'model'> {
  readonly deps: AgentSessionDeps;
  readonly inputs: TurnInputs;
  /** The thinking level the next request will use. */
  thinkingLevel(): string;
}

export function createCompactionRunner(host: CompactionWiringHost): CompactionRunner {
  const { deps, inputs } = host;
  const options = deps.compaction ?? {};
  return new CompactionRunner({
    store: {
      getBranch: () => host.store().getBranch(),
      appendCompaction: (fields) => host.store().appendCompaction(fields),
    },
    settings: () => inputs.settings(),
    models: () => ({ current: host.model(), available: deps.availableModels?.() ?? [host.model()] }),
    // Other candidates only when they can work: a key, or a local/demo model that needs none.
    providerFor: async (model) => ((await inputs.usable(model)) ? inputs.providerFor(model) : undefined),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.estimator ? { estimator: options.estimator } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    ...(options.nativeCompactionTimeoutMs !== undefined ? { nativeCompactionTimeoutMs: options.nativeCompactionTimeoutMs } : {}),
    keys: deps.keys,
    ...(deps.log ? { log: deps.log } : {}),
    fixedOverheadTokens: () => inputs.fixedOverheadTokens(),
    thinkingLevel: () => thinkingOf(host.thinkingLevel()).thinkingLevel,
    liveContext: () => inputs.liveContext(),
  });
}

/** The runner's start/end as `compaction_start` / `compaction_end`; a compaction entry's cost is counted first. */
export function forwardCompactionEvents(
  runner: CompactionRunner,
  emit: (event: AgentEvent) => void,
  written: (entry: SessionEntry) => void,
): void {
  runner.onEvent((event) => emit(compactionAgentEvent(event, written)));
}

function compactionAgentEvent(event: CompactionEvent, written: (entry: SessionEntry) => void): AgentEvent {
  if (event.type === 'start') return { type: 'compaction_start', reason: event.reason, action: event.action };
  if (event.outcome.status === 'compacted') written(event.outcome.entry);
  return {
    type: 'compaction_end',
    reason: event.reason,
    outcome: event.outcome,
    aborted: event.aborted,
    willRetry: event.willRetry,
    ...(event.errorMessage ? { errorMessage: event.errorMessage } : {}),
  };
}
