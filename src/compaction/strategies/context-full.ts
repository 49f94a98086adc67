// Strategy "context-full" (the default): summarize what lies before the cut into a compaction entry on
// the same session; the kept part stays as it is. A summary prepared in the background and still valid
// is committed without a model call.
import { summarizePlan, commitSummary } from './summary-step';
import type { CompactionStrategy, StrategyRun } from './types';

async function run(current: StrategyRun) {
  const prepared = current.options.prepared;
  if (prepared) return commitSummary(current, prepared);
  const planned = current.plan ? { plan: current.plan } : current.replan();
  if ('skip' in planned) return { status: 'skipped' as const, ...planned.skip };
  return commitSummary(current, await summarizePlan(current, planned.plan));
}

export const contextFull: CompactionStrategy = {
  name: 'context-full',
  needsCut: () => true,
  run,
};
