// Summary generation (docs/architecture.md, "Compaction"): the history summary (first or update; a split
// turn's first part goes in the same request), the turn-prefix summary of a split turn with no history
// before it, and the short UI recap. Each call sends only the span being
// summarized plus the previous summary, never the whole history again; or, where the provider caches
// prompts, the summary is asked as the continuation of the agent's own conversation (its cached prefix is
// read at a tenth of the price) with the instructions as the last user message ("Compaction cost").
import type { AgentMessage, AssistantMessage, LlmMessage, Usage } from '../core/messages';
import type { ModelInfo, Provider, ThinkingLevel, ToolDefinition } from '../llm/types';
import { answerText, callSummarizerModel } from './summarizer-call';
import { convertToLlm } from '../session/convert';
import { CompactionCancelled, OffTaskAnswer, SummarizationFailed, isTransient, throwIfAborted } from './errors';
import { computeFileLists, formatFileOperations, stripFileOperations } from './file-ops';
import { checkSummarySections } from './guard';
import { ledgerAfter, ledgerRequest, ledgerRetryRequest, mergeLedgerAnswers, missingLedgerIndexes, summarizerPart, withUserWords, type LedgerQuote } from './user-ledger';
import { capLedger, type KeptMessage, type UserWords } from './user-words';
import type { CompactionPreparation } from './prepare';
import { compactionPrompt } from './prompt-text';
import { RemoteEndpointRefused, requestRemoteSummary, type RemoteCallOptions } from './remote';
import { serializeConversation } from './serialize';
import { continuationIsCheaper, continuationOutput, mergesSplitTurn } from './continuation-budget';
import { withRecap, withRemoteRecap } from './recap-section';
export { continuationOutput, mergesSplitTurn } from './continuation-budget';

export interface CompactionDetails {
  readFiles: string[];
  modifiedFiles: string[];
  [extra: string]: unknown;
}

/** What a compaction produces; stored as a `compaction` entry. */
export interface CompactionResult {
  summary: string;
  shortSummary?: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: CompactionDetails | Record<string, unknown>;
  preserveData?: Record<string, unknown>;
}

export interface SummarizeOptions {
  provider: Provider;
  model: ModelInfo;
  signal?: AbortSignal;
  /** user focus, e.g. from `/compact focus on the parser` */
  customInstructions?: string;
  /** lines from hooks, sent in <additional-context> */
  additionalContext?: readonly string[];
  /** a hook's replacement for the base instructions (summary / update-summary) */
  promptOverride?: string;
  thinkingLevel?: ThinkingLevel;
  /** generic remote endpoint for the history summary and the short summary */
  remote?: { endpoint: string } & RemoteCallOptions;
  /** generate the short UI recap (default true) */
  shortSummary?: boolean;
  /** the agent's request as it was last sent: the summary is asked as its continuation when it fits */
  prefix?: ConversationPrefix;
  log?: (message: string) => void;
}

/** What the agent's model saw last: system prompt, tools and the context messages. */
export interface ConversationPrefix {
  systemPrompt: string;
  messages: LlmMessage[];
  tools?: ToolDefinition[];
}

/** How a summary request is framed: alone (the default), or after the agent's conversation. */
interface Frame {
  before: LlmMessage[];
  continuation?: { systemPrompt: string; tools?: ToolDefinition[] };
}

const ALONE: Frame = { before: [] };

const HISTORY_SHARE = 0.8;
const TURN_PREFIX_SHARE = 0.5;
const SHORT_SUMMARY_MAX_TOKENS = 512;

function outputBudget(model: ModelInfo, reserveTokens: number, share: number): number {
  const budget = Math.max(256, Math.floor(share * reserveTokens));
  return model.maxOutputTokens > 0 ? Math.min(budget, model.maxOutputTokens) : budget;
}

/** The user message text of a history summary request. */
export function buildSummaryPrompt(
  messages: readonly AgentMessage[],
  previousSummary: string | undefined,
  options: Pick<SummarizeOptions, 'customInstructions' | 'additionalContext' | 'promptOverride' | 'shortSummary'> = {},
  toLedger: readonly KeptMessage[] = [],
  endsInSplitTurn = false,
  inConversation: ReadonlySet<string> = new Set(),
): string {
  const parts = [compactionPrompt('conversation', { conversation: serializeConversation(convertToLlm(messages)) })];
  // A split turn's first part ends `messages`: the note says the rest of that turn is kept (never quoted: not resent).
  if (endsInSplitTurn) parts.push(compactionPrompt('split-turn-note'));
  // The user's kept words travel in the entry's details, not through the summarizer: it sees its own part only.
  if (previousSummary !== undefined) parts.push(compactionPrompt('previous-summary', { summary: summarizerPart(previousSummary) }));
  const base = options.promptOverride ?? compactionPrompt(previousSummary !== undefined ? 'update-summary' : 'summary');
  // A message over the budget whose whole text is in <conversation> is named by its opening only.
  return [...parts, ...instructionParts(base, options, toLedger, { inConversation })].join('\n\n');
}

/**
 * Hook context, the base instructions, the note on the user's words (Arbor adds them after the answer),
 * the ledger request for messages over the budget, and the user's focus: the same in both forms.
 */
function instructionParts(
  base: string,
  options: Pick<SummarizeOptions, 'customInstructions' | 'additionalContext' | 'shortSummary'>,
  toLedger: readonly KeptMessage[],
  quote: LedgerQuote = 'whole',
): string[] {
  const parts: string[] = [];
  const context = (options.additionalContext ?? []).map((l) => l.trim()).filter((l) => l !== '');
  if (context.length > 0) parts.push(compactionPrompt('additional-context', { lines: context.map((l) => `- ${l}`).join('\n') }));
  parts.push(base);
  parts.push(compactionPrompt('user-words-note'));
  const ledger = ledgerRequest(toLedger, quote);
  if (ledger !== '') parts.push(ledger);
  // The UI recap in the same answer: no request of its own (docs/architecture.md, "Compaction cost").
  if (options.shortSummary !== false) parts.push(compactionPrompt('recap-section'));
  const focus = options.customInstructions?.trim();
  if (focus) parts.push(compactionPrompt('focus', { focus }));
  return parts;
}

/**
 * The last user message of a summary asked as a continuation: where the kept part starts, then the same
 * instructions as the transcript form (the summarizer's system prompt is the agent's here): the note that
 * Arbor adds the user's words after the answer and the ledger request naming each message by its opening,
 * never the words themselves (they are in the conversation above).
 */
export function buildContinuationPrompt(
  preparation: Pick<CompactionPreparation, 'keptMessages' | 'previousSummary' | 'userWords'>,
  options: Pick<SummarizeOptions, 'customInstructions' | 'additionalContext' | 'promptOverride' | 'shortSummary'> = {},
): string {
  const earlier = preparation.previousSummary !== undefined ? `${compactionPrompt('continuation-earlier')}\n\n` : '';
  const head = compactionPrompt('continuation', { earlier, keptStart: keptStartText(preparation.keptMessages) });
  const base = options.promptOverride ?? compactionPrompt('summary');
  return [head, ...instructionParts(base, options, preparation.userWords.toLedger, 'opening')].join('\n\n');
}

/** The opening of the first kept message, as the summarizer sees it in the conversation. */
function keptStartText(kept: readonly AgentMessage[]): string {
  const first = convertToLlm([...kept])[0];
  const text = first ? serializeConversation([first]) : '';
  return text.length > KEPT_START_CHARS ? `${text.slice(0, KEPT_START_CHARS)}…` : text;
}

const KEPT_START_CHARS = 300;

function userMessage(text: string): LlmMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() };
}

/** One model call; turns provider failures into SummarizationFailed / CompactionCancelled. */
async function callModel(messages: LlmMessage[], maxTokens: number, options: SummarizeOptions, frame: Frame = ALONE): Promise<AssistantMessage> {
  throwIfAborted(options.signal);
  const outcome = await callSummarizerModel({
    provider: options.provider,
    model: options.model,
    messages: [...frame.before, ...messages],
    maxTokens,
    ...(frame.continuation ? { continuation: frame.continuation } : {}),
    ...(options.thinkingLevel ? { thinkingLevel: options.thinkingLevel } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    // The candidate loop (strategies/summarizer-candidates.ts) owns the retries of a summary.
    callerRetries: true,
  });
  if (outcome.kind === 'cancelled') throw new CompactionCancelled();
  if (outcome.kind === 'failed' && outcome.offTask) throw new OffTaskAnswer(outcome.message);
  if (outcome.kind === 'failed') throw new SummarizationFailed(outcome.message, isTransient(outcome));
  return outcome.reply;
}

/** A hook that replaced the prompt chose the format, so the default headings are not demanded. */
function summaryCheck(options: SummarizeOptions): (text: string) => string[] {
  return options.promptOverride === undefined ? checkSummarySections : () => [];
}

/** One model answer to the summary prompt, kept with the reply so a correction can follow it. */
interface SummaryAnswer {
  text: string;
  reply: AssistantMessage;
}

/** A correction after an answer: the prompt, the answer, the note, in one conversation. */
async function corrected(prompt: string, answer: SummaryAnswer, note: string, maxTokens: number, options: SummarizeOptions, frame: Frame): Promise<SummaryAnswer> {
  const reply = await callModel([userMessage(prompt), answer.reply, userMessage(note)], maxTokens, options, frame);
  return { text: answerText(reply), reply };
}

/** A checkpoint from the model, retried once with a corrective note when its structure is broken. */
async function guardedSummary(prompt: string, maxTokens: number, options: SummarizeOptions, frame: Frame): Promise<SummaryAnswer> {
  const check = summaryCheck(options);
  const reply = await callModel([userMessage(prompt)], maxTokens, options, frame);
  const first = { text: answerText(reply), reply };
  const problems = check(first.text);
  if (problems.length === 0) return first;
  options.log?.(`compaction: summary rejected by the guard (${problems.join('; ')}); retrying once`);
  const retry = await corrected(prompt, first, compactionPrompt('guard-retry', { problems: problems.join('; ') }), maxTokens, options, frame);
  const retryProblems = check(retry.text);
  if (retryProblems.length > 0) options.log?.(`compaction: retried summary still malformed (${retryProblems.join('; ')}); keeping it`);
  return retryProblems.length <= problems.length ? retry : first;
}

/**
 * The guarded checkpoint, and when its ledger left out messages over the budget, one small request for
 * those messages' lines alone (never the conversation or the checkpoint again: docs/architecture.md,
 * "Compaction cost"); a message still without a line then gets its own first words. With everything in the
 * budget there is no ledger and no second request.
 */
async function ledgerGuardedSummary(
  prompt: string,
  maxTokens: number,
  options: SummarizeOptions,
  toLedger: readonly KeptMessage[],
  frame: Frame = ALONE,
): Promise<string> {
  const answer = await guardedSummary(prompt, maxTokens, options, frame);
  const missing = missingLedgerIndexes(answer.text, toLedger);
  if (missing.length === 0) return answer.text;
  options.log?.(`compaction: the ledger left out ${missing.length} of the user's messages over the budget; asking for their lines`);
  const correction = await ledgerCorrection(toLedger, missing, options);
  return correction === undefined ? answer.text : mergeLedgerAnswers(answer.text, correction, toLedger);
}

const LEDGER_LINE_TOKENS = 100;

/** The ledger lines for the messages left out; a failure only costs those lines (cancellation still stops). */
async function ledgerCorrection(toLedger: readonly KeptMessage[], missing: readonly number[], options: SummarizeOptions): Promise<string | undefined> {
  const maxTokens = Math.min(outputBudget(options.model, Number.MAX_SAFE_INTEGER, 1), 256 + missing.length * LEDGER_LINE_TOKENS);
  try {
    return answerText(await callModel([userMessage(ledgerRetryRequest(toLedger, missing))], maxTokens, options));
  } catch (error) {
    if (error instanceof CompactionCancelled) throw error;
    options.log?.(`compaction: the ledger correction failed (${(error as Error).message}); the messages keep their own first words`);
    return undefined;
  }
}

export interface HistorySummary {
  summary: string;
  /** set when the remote endpoint already produced the UI recap */
  shortSummary?: string;
}

/** Summary of `messages`, updating `previousSummary` when given. */
export async function generateSummary(
  messages: readonly AgentMessage[],
  previousSummary: string | undefined,
  reserveTokens: number,
  options: SummarizeOptions,
  toLedger: readonly KeptMessage[] = [],
  endsInSplitTurn = false,
  inConversation: ReadonlySet<string> = new Set(),
): Promise<HistorySummary> {
  const prompt = buildSummaryPrompt(messages, previousSummary, options, toLedger, endsInSplitTurn, inConversation);
  if (options.remote?.endpoint) {
    const remote = await tryRemote(prompt, options);
    if (remote) return withRemoteRecap(remote, options);
  }
  const maxTokens = outputBudget(options.model, reserveTokens, HISTORY_SHARE);
  return withRecap(await ledgerGuardedSummary(prompt, maxTokens, options, toLedger), options);
}

/** The remote endpoint's answer; undefined (fall back to the model) on transport or format failures. */
async function tryRemote(prompt: string, options: SummarizeOptions): Promise<HistorySummary | undefined> {
  const remote = options.remote!;
  try {
    const answer = await requestRemoteSummary(
      remote.endpoint,
      { systemPrompt: compactionPrompt('system'), prompt },
      { ...remote, ...(options.signal ? { signal: options.signal } : {}) },
    );
    return answer;
  } catch (error) {
    if (options.signal?.aborted) throw new CompactionCancelled();
    // A refused URL is a configuration mistake the user must see, not something to paper over.
    if (error instanceof RemoteEndpointRefused) throw new SummarizationFailed(error.message);
    options.log?.(`compaction: remote endpoint failed (${(error as Error).message}); using the model instead`);
    return undefined;
  }
}

/** Summary of the early part of a split turn (always from the model). */
export async function generateTurnPrefixSummary(
  messages: readonly AgentMessage[],
  reserveTokens: number,
  options: SummarizeOptions,
): Promise<string> {
  const parts = [
    compactionPrompt('conversation', { conversation: serializeConversation(convertToLlm(messages)) }),
    compactionPrompt('turn-prefix'),
  ];
  const reply = await callModel([userMessage(parts.join('\n\n'))], outputBudget(options.model, reserveTokens, TURN_PREFIX_SHARE), options);
  return answerText(reply);
}

/** Two or three sentence recap for the UI, from the finished summary (cheap: no transcript). */
export async function generateShortSummary(summary: string, reserveTokens: number, options: SummarizeOptions): Promise<string> {
  const maxTokens = Math.min(SHORT_SUMMARY_MAX_TOKENS, outputBudget(options.model, reserveTokens, 0.2));
  const reply = await callModel([userMessage(compactionPrompt('short-summary', { summary: stripFileOperations(summary) }))], maxTokens, options);
  return answerText(reply);
}

/** Joins the history summary and the turn-prefix summary as omp does (prompts/compaction/split-turn.md). */
export function mergeSplitTurn(history: string, prefix: string): string {
  return compactionPrompt('split-turn', { history, prefix });
}

/**
 * Runs the summarization for a preparation. Writes nothing: the caller stores the result.
 * Fixes pi's third quirk: a split turn with no history before it keeps the previous summary (pi
 * replaced it by "No prior history." and lost it).
 */
export async function compact(preparation: CompactionPreparation, options: SummarizeOptions): Promise<CompactionResult> {
  const reserve = preparation.settings.reserveTokens;
  const { messagesToSummarize, turnPrefixMessages, previousSummary, userWords: plan } = preparation;
  const continued = await continuationSummary(preparation, options);
  const merged = !continued && mergesSplitTurn(preparation);
  const historyTask: Promise<HistorySummary> = continued
    ? Promise.resolve(continued)
    : merged
      ? generateSummary([...messagesToSummarize, ...turnPrefixMessages], previousSummary, reserve, options, plan.toLedger, true, new Set([...preparation.summarizeEntryIds, ...preparation.turnPrefixEntryIds]))
      : messagesToSummarize.length > 0
        ? generateSummary(messagesToSummarize, previousSummary, reserve, options, plan.toLedger, false, new Set(preparation.summarizeEntryIds))
        : Promise.resolve({ summary: previousSummary !== undefined ? summarizerPart(previousSummary) : compactionPrompt('no-prior-history') });
  const prefixTask =
    !continued && !merged && preparation.isSplitTurn && turnPrefixMessages.length > 0 ? generateTurnPrefixSummary(turnPrefixMessages, reserve, options) : undefined;
  const [history, prefix] = await Promise.all([historyTask, prefixTask]);

  const historyPart = summarizerPart(history.summary);
  const body = prefix !== undefined ? mergeSplitTurn(historyPart, summarizerPart(prefix)) : historyPart;
  const words = userWordsAfter(plan, history.summary, options);
  const lists = computeFileLists(preparation.fileOps);
  // The file blocks are appended, never upserted: an upsert would also strip blocks a user pasted.
  const summary = withUserWords(body, words) + formatFileOperations(lists);
  throwIfAborted(options.signal);

  const result: CompactionResult = {
    summary,
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details: { readFiles: lists.readFiles, modifiedFiles: lists.modifiedFiles, ...(words.verbatim.length + words.ledger.length > 0 ? { userWords: words } : {}) },
  };
  const shortSummary = history.shortSummary ?? (options.shortSummary === false ? undefined : await tryShortSummary(body, reserve, options));
  if (shortSummary) result.shortSummary = shortSummary;
  return result;
}

/** Chars per token of what the window check adds to the measured context: 3, not 4 (code and JSON are denser). */
const CHARS_PER_TOKEN = 3;

/**
 * The summary asked as the continuation of the agent's conversation (one request, no split turn: the model
 * sees the whole context), when a prefix is given, there is something to summarize, prefix, prompt and
 * answer fit the window, and the model's cache prices make it cheaper than the transcript. Undefined: use the transcript form (also when the model answered off task:
 * a tool call or no text).
 */
async function continuationSummary(preparation: CompactionPreparation, options: SummarizeOptions): Promise<HistorySummary | undefined> {
  const prefix = options.prefix;
  if (!prefix || options.remote?.endpoint || preparation.messagesToSummarize.length + preparation.turnPrefixMessages.length === 0) return undefined;
  const prompt = buildContinuationPrompt(preparation, options);
  // The context as measured for the threshold (calibrated by the provider's usage) plus what is added.
  const added = (prefix.systemPrompt.length + JSON.stringify(prefix.tools ?? []).length + prompt.length) / CHARS_PER_TOKEN;
  const maxTokens = continuationOutput(outputBudget(options.model, preparation.settings.reserveTokens, HISTORY_SHARE), options.model.contextWindow - preparation.tokensBefore - added);
  if (maxTokens === undefined) return undefined;
  if (!continuationIsCheaper(preparation, options.model, preparation.tokensBefore + added)) return undefined;
  const frame: Frame = { before: prefix.messages, continuation: { systemPrompt: prefix.systemPrompt, ...(prefix.tools ? { tools: prefix.tools } : {}) } };
  try {
    return withRecap(await ledgerGuardedSummary(prompt, maxTokens, options, preparation.userWords.toLedger, frame), options);
  } catch (error) {
    // The provider's own failures (keys, limits, network) would fail the transcript form too.
    if (!(error instanceof OffTaskAnswer)) throw error;
    options.log?.(`compaction: the summary as a continuation failed (${(error as Error).message}); sending the transcript instead`);
    return undefined;
  }
}

/** What `details.userWords` records: the verbatim messages, and the ledger with this compaction's lines. */
function userWordsAfter(plan: CompactionPreparation['userWords'], answer: string, options: SummarizeOptions): UserWords {
  const { ledger, fallbacks } = ledgerAfter(plan, answer);
  if (fallbacks > 0) options.log?.(`compaction: ${fallbacks} of the user's messages over the budget kept by their first words (the summarizer wrote no ledger line)`);
  const capped = capLedger(ledger, plan.budgetTokens);
  const dropped = plan.ledgerDropped + capped.dropped;
  return { version: 1, budgetTokens: plan.budgetTokens, verbatim: plan.verbatim, ledger: capped.lines, ...(dropped > 0 ? { ledgerDropped: dropped } : {}) };
}

/** The recap is cosmetic: its failure never fails the compaction (cancellation still does). */
async function tryShortSummary(summary: string, reserve: number, options: SummarizeOptions): Promise<string | undefined> {
  try {
    return await generateShortSummary(summary, reserve, options);
  } catch (error) {
    if (error instanceof CompactionCancelled) throw error;
    options.log?.(`compaction: short summary failed (${(error as Error).message}); continuing without it`);
    return undefined;
  }
}
