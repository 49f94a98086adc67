// Runs a provider's native compaction alongside the local summary (docs/architecture.md "Native
// compaction"): OpenAI's `/responses/compact` or Anthropic's on-demand compaction, for the current model
// or else the first summarizer candidate of the same provider that has one. It never fails the compaction: any error is one
// log line and the local summary alone is saved. The result goes in the entry's preserveData.
import type { AgentMessage } from '../../core/messages';
import type { ModelInfo } from '../../llm/types';
import type { CompactionEntry, SessionEntry } from '../../session/entries';
import { compactionSummaryMessage } from '../../session/context';
import { ANTHROPIC_COMPACTION_KEY, requestAnthropicCompaction, supportsAnthropicCompaction } from '../anthropic-native';
import { modelCandidates } from '../candidates';
import { CompactionCancelled } from '../errors';
import { OPENAI_REMOTE_COMPACTION_KEY, requestNativeCompaction, supportsNativeCompaction, type NativeCompactionOptions } from '../openai-native';
import type { CompactionPreparation } from '../prepare';
import type { CompactionSettings } from '../settings';
import type { StrategyRun } from './types';

type NativeRequest = NativeCompactionOptions & { signal: AbortSignal };

interface NativeCompactor {
  /** how log lines name it */
  name: string;
  /** preserveData key of its result */
  key: string;
  supports(model: ModelInfo): boolean;
  request(options: NativeRequest): Promise<unknown>;
}

const COMPACTORS: readonly NativeCompactor[] = [
  { name: 'OpenAI native /responses/compact', key: OPENAI_REMOTE_COMPACTION_KEY, supports: supportsNativeCompaction, request: requestNativeCompaction },
  { name: 'Anthropic native compaction', key: ANTHROPIC_COMPACTION_KEY, supports: supportsAnthropicCompaction, request: requestAnthropicCompaction },
];

type NativeRunnerDeps = StrategyRun['deps'];

export interface NativeTask {
  /** preserveData entries to add (none when native compaction was not tried or failed) */
  result: Promise<Record<string, unknown> | undefined>;
  abort: () => void;
}

/**
 * The compactor for the provider in use: its native items only help the requests that provider gets, so
 * another listed model is never tried (a demo session logged a failed OpenAI compaction "for lack of a key").
 */
function chooseCompactor(deps: NativeRunnerDeps, settings: CompactionSettings): { compactor: NativeCompactor; model: ModelInfo } | undefined {
  const { current, available } = deps.models();
  if (!current) return undefined;
  const models = [current, ...modelCandidates(settings.summarizerModel, current, available).filter((m) => m.provider === current.provider)];
  for (const model of models) {
    const compactor = COMPACTORS.find((c) => c.supports(model));
    if (compactor) return { compactor, model };
  }
  return undefined;
}

/** The previous compaction on the branch as the summary message a context would start with. */
function previousSummary(branch: readonly SessionEntry[]): AgentMessage | undefined {
  const entry = [...branch].reverse().find((e): e is CompactionEntry => e.type === 'compaction');
  return entry ? compactionSummaryMessage(entry) : undefined;
}

async function attempt(compactor: NativeCompactor, request: NativeRequest, log?: (message: string) => void): Promise<Record<string, unknown> | undefined> {
  try {
    const value = await compactor.request(request);
    log?.(`compaction: ${compactor.name} succeeded`);
    return { [compactor.key]: value };
  } catch (error) {
    if (error instanceof CompactionCancelled || request.signal.aborted) throw new CompactionCancelled();
    log?.(`compaction: ${compactor.name} failed (${(error as Error).message}); using the local summary only`);
    return undefined;
  }
}

export function startNativeCompaction(
  run: Pick<StrategyRun, 'deps' | 'settings' | 'signal'>,
  preparation: CompactionPreparation,
  branch: readonly SessionEntry[],
): NativeTask {
  const { deps, settings, signal } = run;
  const chosen = settings.remoteEnabled && deps.keys ? chooseCompactor(deps, settings) : undefined;
  if (!chosen || !deps.keys) return { result: Promise.resolve(undefined), abort: () => {} };
  const controller = new AbortController();
  const previous = previousSummary(branch);
  const instructions = deps.liveContext?.().systemPrompt;
  const result = attempt(chosen.compactor, {
    model: chosen.model,
    keys: deps.keys,
    messages: [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages],
    ...(previous ? { previous } : {}),
    ...(instructions ? { instructions } : {}),
    signal: AbortSignal.any([signal, controller.signal]),
    ...(deps.nativeCompactionTimeoutMs !== undefined ? { timeoutMs: deps.nativeCompactionTimeoutMs } : {}),
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
  }, deps.log);
  // The local summary may fail first; the native task's cancellation must not become an unhandled rejection.
  result.catch(() => undefined);
  return { result, abort: () => controller.abort() };
}
