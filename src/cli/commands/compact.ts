// `compact FILE --model PROVIDER/ID [...]`: a real compaction of a session file from a terminal, through
// the same runner the extension uses (cut point, summarizer, guard, the user's kept words), appended to
// the file. Keys come from the usual environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY,
// ARBOR_<PROVIDER>_API_KEY); `local/<id>` with `--base-url` is any OpenAI-compatible server.
import { CompactionRunner, type CompactionOutcome } from '../../compaction/runner';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../compaction/settings';
import { measureContext } from '../../compaction/prepare';
import { userWordsFromDetails } from '../../compaction/user-words';
import { envKeyResolver } from '../../llm/keys';
import { BUILTIN_MODELS, findModel } from '../../llm/models';
import { createProvider } from '../../llm/registry';
import type { ModelInfo } from '../../llm/types';
import type { SessionStore } from '../../session/store';
import { CliError, openForCli, parseCommandArgs, resolveLeafOption, type CliCommand } from '../command';

const OPTIONS = {
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'keep-recent-tokens': { type: 'string' },
  'context-window': { type: 'string' },
  focus: { type: 'string' },
  leaf: { type: 'string' },
} as const;

const LOCAL_CONTEXT_WINDOW = 32_768;

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new CliError(`--${name} expects a positive whole number, got "${value}"`);
  return Number(value);
}

function localModel(id: string, baseUrl: string): ModelInfo {
  return {
    provider: 'local',
    id,
    name: `Local (${id})`,
    api: 'openai-compatible',
    baseUrl: /\/v1\/?$/.test(baseUrl) ? baseUrl.replace(/\/$/, '') : `${baseUrl.replace(/\/$/, '')}/v1`,
    contextWindow: LOCAL_CONTEXT_WINDOW,
    maxOutputTokens: 4096,
    reasoning: false,
    pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
}

/** The summarizer model from `--model`, `--base-url` and `--context-window`. */
export function summarizerModel(ref: string | undefined, baseUrl: string | undefined, contextWindow: number | undefined): ModelInfo {
  if (!ref) throw new CliError('--model PROVIDER/ID is required (e.g. openai/gpt-5-mini, local/qwen3 with --base-url)');
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) throw new CliError(`--model expects PROVIDER/ID, got "${ref}"`);
  const [provider, id] = [ref.slice(0, slash), ref.slice(slash + 1)];
  let model: ModelInfo | undefined;
  if (provider === 'local') {
    if (!baseUrl) throw new CliError('local models need --base-url (the OpenAI-compatible server, e.g. http://127.0.0.1:8080)');
    model = localModel(id, baseUrl);
  } else {
    model = findModel(BUILTIN_MODELS, ref) ?? unknownModel(provider, id);
    if (baseUrl) model = { ...model, baseUrl };
  }
  return contextWindow ? { ...model, contextWindow } : model;
}

function unknownModel(provider: string, id: string): ModelInfo {
  const template = BUILTIN_MODELS.find((m) => m.provider === provider);
  if (!template) throw new CliError(`unknown provider "${provider}" (openai, anthropic or local)`);
  return { ...template, id, name: id };
}

function settingsFrom(values: { 'keep-recent-tokens'?: string }): CompactionSettings {
  const keep = wholeNumber('keep-recent-tokens', values['keep-recent-tokens']);
  return { ...DEFAULT_COMPACTION_SETTINGS, strategy: 'context-full', ...(keep ? { keepRecentTokens: keep } : {}) };
}

/** What the command prints after a compaction: the new entry and what it did. */
function report(outcome: Extract<CompactionOutcome, { status: 'compacted' }>, model: ModelInfo, store: SessionStore): Record<string, unknown> {
  const words = userWordsFromDetails(outcome.entry.details, outcome.entry.fromHook);
  return {
    entryId: outcome.entry.id,
    firstKeptEntryId: outcome.entry.firstKeptEntryId,
    tokensBefore: outcome.entry.tokensBefore,
    tokensAfter: measureContext(store.getBranch()).tokens,
    summarizer: `${(outcome.model ?? model).provider}/${(outcome.model ?? model).id}`,
    userWordsKept: (words?.verbatim ?? []).map((m) => ({ entryId: m.entryId, role: m.role, ...(m.pinned ? { pinned: true } : {}), text: m.text })),
    userWordsLedger: (words?.ledger ?? []).map((l) => ({ entryIds: l.entryIds, text: l.text })),
  };
}

export const compactCommand: CliCommand = {
  usage: 'compact FILE --model PROVIDER/ID [--base-url URL] [--keep-recent-tokens N] [--context-window N] [--focus TEXT] [--leaf ID]',
  summary: 'compact the session with a real model (same engine as the extension); appends the entry, prints JSON',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(args, OPTIONS, ['FILE']);
    const model = summarizerModel(values.model, values['base-url'], wholeNumber('context-window', values['context-window']));
    const store = await openForCli(positionals[0]!, io);
    const leaf = resolveLeafOption(store, values.leaf);
    if (leaf === null) throw new CliError('the session is empty: nothing to compact');
    store.branch(leaf);
    const keys = envKeyResolver();
    const settings = settingsFrom(values);
    const runner = new CompactionRunner({
      store,
      settings: () => settings,
      models: () => ({ current: model, available: [model] }),
      providerFor: (m) => createProvider(m, keys),
      keys,
      log: (message) => io.err(message),
    });
    const outcome = await runner.run({ reason: 'manual', ...(values.focus ? { customInstructions: values.focus } : {}) });
    if (outcome.status === 'compacted') {
      io.out(JSON.stringify(report(outcome, model, store), null, 2));
      return 0;
    }
    if (outcome.status === 'skipped') throw new CliError(outcome.message);
    if (outcome.status === 'failed') throw new CliError(outcome.errorMessage);
    throw new CliError(outcome.status === 'cancelled' ? 'Compaction cancelled' : `unexpected outcome: ${outcome.status}`);
  },
};
