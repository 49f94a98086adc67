// `branch-plan FILE --from ID --to ID [--budget N]`: what switching from one entry to another would do
// (common ancestor, abandoned entries, which fit the summarizer's budget, the new leaf, editor text,
// file lists) as one JSON object, without calling a model.
import { BUILTIN_MODELS, findModel } from '../../llm/models';
import { planBranchNavigation } from '../../branch/plan';
import { branchTokenBudget, FALLBACK_CONTEXT_WINDOW } from '../../branch/summarize';
import { DEFAULT_BRANCH_SUMMARY_SETTINGS } from '../../branch/settings';
import { CliError, openForCli, parseCommandArgs, resolveLeafOption, type CliCommand } from '../command';

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} expects a whole number, got "${value}"`);
  return Number(value);
}

export const branchPlanCommand: CliCommand = {
  usage: 'branch-plan FILE --from ID --to ID [--budget N]',
  summary: 'what a branch switch would summarize and where the leaf would go, as JSON, no model call',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(
      args,
      { from: { type: 'string' }, to: { type: 'string' }, budget: { type: 'string' } },
      ['FILE'],
    );
    if (values.from === undefined) throw new CliError('missing --from ID (the leaf being left; "null" for none)');
    if (values.to === undefined) throw new CliError('missing --to ID (the entry to move to)');
    const store = await openForCli(positionals[0]!, io);
    const from = resolveLeafOption(store, values.from);
    if (!store.getEntry(values.to)) throw new CliError(`no entry with id ${values.to} in ${store.file}`);
    let budget = wholeNumber('budget', values.budget);
    if (budget === undefined) {
      // Default: the budget the summarizer would get with the session's own model (pi's fallback window otherwise).
      const model = store.buildContext(from).model;
      const known = model ? findModel(BUILTIN_MODELS, `${model.provider}/${model.modelId}`) : undefined;
      budget = branchTokenBudget({ contextWindow: known?.contextWindow ?? FALLBACK_CONTEXT_WINDOW }, DEFAULT_BRANCH_SUMMARY_SETTINGS.reserveTokens);
    }
    io.out(JSON.stringify(planBranchNavigation(store, from, values.to, budget), null, 2));
    return 0;
  },
};
