// OpenAI native `/responses/compact` (seed 001) alongside the local summary, when remote compaction is on
// and the current model (or else the configured summarizer model) is OpenAI's own. It never fails the
// compaction; see openai-native.ts for why the local summary is still what the context is rebuilt from.
import type { CompactionEntry, SessionEntry } from '../../session/entries';
import { modelCandidates } from '../candidates';
import { previousNativeCompaction, supportsNativeCompaction, tryNativeCompaction, type OpenAIRemoteCompaction } from '../openai-native';
import type { CompactionPreparation } from '../prepare';
import type { StrategyRun } from './types';

export interface NativeTask {
  result: Promise<OpenAIRemoteCompaction | undefined>;
  abort: () => void;
}

export function startNativeCompaction(
  run: Pick<StrategyRun, 'deps' | 'settings' | 'signal'>,
  preparation: CompactionPreparation,
  branch: readonly SessionEntry[],
): NativeTask {
  const none = { result: Promise.resolve(undefined), abort: () => {} };
  const { deps, settings } = run;
  if (!settings.remoteEnabled || !deps.keys) return none;
  const { current, available } = deps.models();
  const model = supportsNativeCompaction(current) ? current : modelCandidates(settings.summarizerModel, current, available).find(supportsNativeCompaction);
  if (!model) return none;
  const controller = new AbortController();
  const previousEntry = [...branch].reverse().find((e): e is CompactionEntry => e.type === 'compaction');
  const previous = previousNativeCompaction(previousEntry?.preserveData, model.provider);
  const instructions = deps.liveContext?.().systemPrompt;
  const result = tryNativeCompaction({
    model,
    keys: deps.keys,
    messages: [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages, ...preparation.keptMessages],
    ...(preparation.previousSummary !== undefined ? { previousSummary: preparation.previousSummary } : {}),
    ...(previous ? { previous } : {}),
    ...(instructions ? { instructions } : {}),
    signal: AbortSignal.any([run.signal, controller.signal]),
    ...(deps.nativeCompactionTimeoutMs !== undefined ? { timeoutMs: deps.nativeCompactionTimeoutMs } : {}),
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  });
  // The local summary may fail first; the native task's cancellation must not become an unhandled rejection.
  result.catch(() => undefined);
  return { result, abort: () => controller.abort() };
}
