// Strategy "handoff": the current model writes a handoff document (../handoff.ts) and the runtime starts
// a new session from it. Automatic triggers fall back to compacting in place when no document comes; a
// handoff the user asked for ("/handoff") fails instead.
import { contextFromPath } from '../../session/context';
import { convertToLlm } from '../../session/convert';
import { CompactionCancelled } from '../errors';
import { generateHandoff, handoffMessageContent, HANDOFF_CUSTOM_TYPE } from '../handoff';
import { failed, type CompactionOutcome } from '../outcome';
import { compactionPrompt } from '../prompt-text';
import { contextFull } from './context-full';
import type { CompactionStrategy, StrategyRun } from './types';

/** The handoff document as an outcome, or undefined when there is no model or no document. */
async function writeDocument(run: StrategyRun): Promise<CompactionOutcome | undefined> {
  const { deps, options, signal } = run;
  const { current } = deps.models();
  const provider = current ? await deps.providerFor(current) : undefined;
  if (!current || !provider) return undefined;
  const context = deps.liveContext?.() ?? {
    systemPrompt: compactionPrompt('system'),
    messages: convertToLlm(contextFromPath(deps.store.getBranch()).messages),
  };
  const document = await generateHandoff(context, {
    provider,
    model: current,
    signal,
    automatic: options.reason !== 'manual',
    ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
  });
  if (signal.aborted) throw new CompactionCancelled();
  if (!document) return undefined;
  return { status: 'handoff', document, customType: HANDOFF_CUSTOM_TYPE, content: handoffMessageContent(document) };
}

async function run(current: StrategyRun): Promise<CompactionOutcome> {
  const outcome = await writeDocument(current);
  if (outcome) return outcome;
  if (current.options.strategy === handoff.name) {
    return failed(current.options.reason, 'no model produced a handoff document');
  }
  current.deps.log?.('compaction: the handoff produced no document; compacting in place instead');
  // Time passed while the model wrote nothing: plan the in-place compaction again.
  return contextFull.run({ ...current, plan: undefined });
}

export const handoff: CompactionStrategy = {
  name: 'handoff',
  // Overflow recovery must shrink this session's context: a handoff would leave the failed turn behind.
  handles: (reason) => reason !== 'overflow',
  // The user's handoff needs no cut: the whole live context goes into the document.
  needsCut: (options) => options.strategy !== 'handoff',
  run,
};
