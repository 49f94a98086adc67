// `plan FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--context-window N]`: the
// compaction preparation as JSON (what would be summarized, split and kept), without calling a model.
import { BUILTIN_MODELS, findModel } from '../../llm/models';
import type { SessionEntry } from '../../session/entries';
import { prepareCompaction, measureContext } from '../../compaction/prepare';
import { computeFileLists } from '../../compaction/file-ops';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../compaction/settings';
import { shouldCompact } from '../../compaction/thresholds';
import { CliError, openForCli, parseCommandArgs, resolveLeafOption, type CliCommand } from '../command';

export const DEFAULT_PLAN_CONTEXT_WINDOW = 200_000;

export interface CompactionPlan {
  firstKeptEntryId: string | null;
  isSplitTurn: boolean;
  turnStartEntryId: string | null;
  summarizeEntryIds: string[];
  turnPrefixEntryIds: string[];
  tokensBefore: number;
  hasPreviousSummary: boolean;
  readFiles: string[];
  modifiedFiles: string[];
  shouldCompact: boolean;
  contextWindow: number;
}

export function planCompaction(branch: readonly SessionEntry[], settings: CompactionSettings, contextWindow: number): CompactionPlan {
  const preparation = prepareCompaction(branch, settings);
  const tokensBefore = preparation?.tokensBefore ?? measureContext(branch).tokens;
  const lists = preparation ? computeFileLists(preparation.fileOps) : { readFiles: [], modifiedFiles: [] };
  return {
    firstKeptEntryId: preparation?.firstKeptEntryId ?? null,
    isSplitTurn: preparation?.isSplitTurn ?? false,
    turnStartEntryId: preparation?.turnStartEntryId ?? null,
    summarizeEntryIds: preparation?.summarizeEntryIds ?? [],
    turnPrefixEntryIds: preparation?.turnPrefixEntryIds ?? [],
    tokensBefore,
    hasPreviousSummary: preparation?.previousSummary !== undefined,
    readFiles: lists.readFiles,
    modifiedFiles: lists.modifiedFiles,
    shouldCompact: preparation !== undefined && shouldCompact(tokensBefore, contextWindow, settings),
    contextWindow,
  };
}

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} expects a whole number, got "${value}"`);
  return Number(value);
}

export const planCommand: CliCommand = {
  usage: 'plan FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--context-window N]',
  summary: 'compaction preparation as JSON (what would be summarized and kept), no model call',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(
      args,
      {
        leaf: { type: 'string' },
        'keep-recent-tokens': { type: 'string' },
        'reserve-tokens': { type: 'string' },
        'context-window': { type: 'string' },
      },
      ['FILE'],
    );
    const store = await openForCli(positionals[0]!, io);
    const leaf = resolveLeafOption(store, values.leaf);
    const branch = leaf === null ? [] : store.getBranch(leaf);
    const settings: CompactionSettings = {
      ...DEFAULT_COMPACTION_SETTINGS,
      keepRecentTokens: wholeNumber('keep-recent-tokens', values['keep-recent-tokens']) ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
      reserveTokens: wholeNumber('reserve-tokens', values['reserve-tokens']) ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
    };
    const model = store.buildContext(leaf).model;
    const known = model ? findModel(BUILTIN_MODELS, `${model.provider}/${model.modelId}`) : undefined;
    const contextWindow = wholeNumber('context-window', values['context-window']) ?? known?.contextWindow ?? DEFAULT_PLAN_CONTEXT_WINDOW;
    io.out(JSON.stringify(planCompaction(branch, settings, contextWindow), null, 2));
    return 0;
  },
};
