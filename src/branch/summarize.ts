// Branch summary generation (docs/pi-compatibility.md "Branch summaries"): the abandoned entries that fit the budget are serialized
// into <conversation>, followed by our branch prompt (or the user's replacement for it), and sent with
// the summarizer system prompt the compaction engine uses. The stored text is
// preamble + model answer + file tags. Nothing is written here; the caller stores the result.
import type { Usage } from '../core/messages';
import type { ModelInfo, Provider } from '../llm/types';
import { MeteredProvider } from '../compaction/metered-provider';
import { callSummarizerModel } from '../compaction/summarizer-call';
import type { SummarizerCost } from '../compaction/metered-provider';
import type { SessionEntry } from '../session/entries';
import { convertToLlm } from '../session/convert';
import { computeFileLists, formatFileOperations, stripFileOperations } from '../compaction/file-ops';
import { compactionPrompt } from '../compaction/prompt-text';
import { ledgerAfter, summarizerPart, withUserWords } from '../compaction/user-ledger';
import type { UserWords, UserWordsPlan } from '../compaction/user-words';
import { serializeConversation } from '../compaction/serialize';
import type { TokenEstimator } from '../compaction/tokens';
import { BranchSummaryCancelled, BranchSummaryFailed } from './errors';
import { prepareBranchEntries } from './prepare';
import { branchPrompt } from './prompt-text';

const PREAMBLES = { branch: 'branch-summary-preamble', carry: 'carry-summary-preamble', stage: 'stage-summary-preamble' } as const;

/** pi's fallback when a model does not say how large its context is. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;
/** The summary is a few sections of bullets; more output only costs time. */
export const BRANCH_SUMMARY_MAX_TOKENS = 2048;

export interface BranchSummaryDetails {
  readFiles: string[];
  modifiedFiles: string[];
  /** the model that wrote the summary and what its call cost (the marker shows both; issue 17) */
  summarizer?: { provider: string; id: string };
  cost?: SummarizerCost;
}

export interface BranchSummaryResult {
  summary: string;
  details: BranchSummaryDetails;
  /** entries whose messages reached the summarizer (oldest first) */
  includedEntryIds: string[];
  /** what the summarizer calls used (stored on the entry, counted in the session cost); none when no call was made */
  usage?: Usage;
  /** the user's words the summary keeps verbatim (a stage only) */
  userWords?: UserWords;
}

export interface GenerateBranchSummaryOptions {
  provider: Provider;
  model: ModelInfo;
  /** `branchSummary.reserveTokens`: the budget is contextWindow − reserveTokens */
  reserveTokens: number;
  /** focus added after our prompt, or (with replaceInstructions) the whole instructions */
  customInstructions?: string;
  replaceInstructions?: boolean;
  signal?: AbortSignal;
  estimator?: TokenEstimator;
  /**
   * which preamble opens the stored text: a return from the branch (default), a carried-in summary, or a
   * finished stage (Summarize from here: src/branch/stage.ts, which also asks with the stage prompt)
   */
  preamble?: 'branch' | 'carry' | 'stage';
  /** the user's words that must survive verbatim (put back after the summary when it lost them) */
  /** the user's words to keep verbatim (a stage: Summarize from Here); messages over the budget keep their first words */
  userWords?: UserWordsPlan;
}

/** Tokens of branch content the summarizer may read. A reserve as large as the window leaves half of it. */
export function branchTokenBudget(model: Pick<ModelInfo, 'contextWindow'>, reserveTokens: number): number {
  const window = model.contextWindow > 0 ? model.contextWindow : FALLBACK_CONTEXT_WINDOW;
  const budget = window - Math.max(0, reserveTokens);
  return budget > 0 ? budget : Math.floor(window / 2);
}

/** What follows the conversation: our prompt (+ focus), or the user's text when it replaces the prompt. */
export function branchInstructions(customInstructions: string | undefined, replaceInstructions: boolean | undefined, template: 'branch-summary' | 'stage-summary' = 'branch-summary'): string {
  const custom = customInstructions?.trim();
  if (custom && replaceInstructions) return custom;
  const base = branchPrompt(template);
  return custom ? `${base}\n\n${compactionPrompt('focus', { focus: custom })}` : base;
}

/** The summarizer's user message for already prepared messages. */
export function buildBranchSummaryPrompt(
  messages: Parameters<typeof convertToLlm>[0],
  customInstructions?: string,
  replaceInstructions?: boolean,
  template: 'branch-summary' | 'stage-summary' = 'branch-summary',
): string {
  const conversation = compactionPrompt('conversation', { conversation: serializeConversation(convertToLlm(messages)) });
  return `${conversation}\n\n${branchInstructions(customInstructions, replaceInstructions, template)}`;
}

async function callSummarizer(prompt: string, options: GenerateBranchSummaryOptions): Promise<string> {
  const maxTokens = options.model.maxOutputTokens > 0 ? Math.min(BRANCH_SUMMARY_MAX_TOKENS, options.model.maxOutputTokens) : BRANCH_SUMMARY_MAX_TOKENS;
  const outcome = await callSummarizerModel({
    provider: options.provider,
    model: options.model,
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }], timestamp: Date.now() }],
    maxTokens,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (outcome.kind === 'cancelled') throw new BranchSummaryCancelled();
  if (outcome.kind === 'failed') throw new BranchSummaryFailed(outcome.message);
  return outcome.text;
}

/** The words a stage summary keeps: no ledger is asked for, so a message over the budget keeps its own first words. */
function keptWords(plan: UserWordsPlan): UserWords | undefined {
  const { ledger } = ledgerAfter(plan, '');
  if (plan.verbatim.length === 0 && ledger.length === 0) return undefined;
  return { version: 1, budgetTokens: plan.budgetTokens, verbatim: plan.verbatim, ledger };
}

/**
 * Summarizes abandoned entries (oldest first). Throws BranchSummaryCancelled when `signal` aborts and
 * BranchSummaryFailed when the model fails.
 */
export async function generateBranchSummary(
  entries: readonly SessionEntry[],
  options: GenerateBranchSummaryOptions,
): Promise<BranchSummaryResult> {
  const budget = branchTokenBudget(options.model, options.reserveTokens);
  const prepared = prepareBranchEntries(entries, budget, options.estimator);
  const lists = computeFileLists(prepared.fileOps);
  const details: BranchSummaryDetails = { readFiles: lists.readFiles, modifiedFiles: lists.modifiedFiles };
  const preamble = branchPrompt(PREAMBLES[options.preamble ?? 'branch']);
  const metered = new MeteredProvider(options.provider);
  let body: string;
  if (prepared.messages.length === 0) {
    body = branchPrompt('no-content');
  } else {
    const template = options.preamble === 'stage' ? 'stage-summary' : 'branch-summary';
    const prompt = buildBranchSummaryPrompt(prepared.messages, options.customInstructions, options.replaceInstructions, template);
    // The model may echo file tags it saw in an earlier summary; ours are the authoritative ones.
    body = stripFileOperations(await callSummarizer(prompt, { ...options, provider: metered }));
    details.summarizer = { provider: options.model.provider, id: options.model.id };
    details.cost = { ...metered.meter.cost };
  }
  const words = options.userWords ? keptWords(options.userWords) : undefined;
  if (words) body = withUserWords(summarizerPart(body), words);
  if (options.signal?.aborted) throw new BranchSummaryCancelled();
  const result: BranchSummaryResult = { summary: `${preamble}\n\n${body}${formatFileOperations(lists)}`, details, includedEntryIds: prepared.includedEntryIds };
  if (words) result.userWords = words;
  if (metered.meter.usage) result.usage = metered.meter.usage;
  return result;
}
