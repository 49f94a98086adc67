// OpenAI native compaction (/responses/compact) through a real AgentSession against the fake server:
// success keeps the provider's replacement history in preserveData and the next Responses request is
// built from it, every failure falls back to the local summary, other models and remoteEnabled=false
// never call it, and the key never leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  DEFAULT_COMPACTION_SETTINGS,
  OPENAI_REMOTE_COMPACTION_KEY,
  nativeCompactionInput,
  parseCompactResponse,
  supportsNativeCompaction,
  type OpenAIRemoteCompaction,
} from '../../../src/compaction';
import { toResponsesInput } from '../../../src/llm/convert-responses';
import type { AgentMessage, AssistantMessage } from '../../../src/core/messages';
import { emptyUsage } from '../../../src/core/messages';
import type { CompactionEntry } from '../../../src/session/entries';
import { SessionStore } from '../../../src/session/store';
import type { FakeCompactBehaviour } from '../../fake-llm/server.mjs';
import { harness, requestText, summaryText, type Harness, type HarnessOptions } from '../agent/session-helpers';
import { OPENAI_KEY, anthropicModel, openaiModel } from '../llm/helpers';
import type { ModelInfo } from '../../../src/llm/types';

const COMPACT_PATH = '/v1/responses/compact';

async function withHistory(options: HarnessOptions & { logs?: string[] } = {}): Promise<Harness> {
  const logs = options.logs ?? [];
  const h = await harness({
    files: { 'notes.txt': 'NOTES-CONTENT' },
    ...options,
    model: options.api === 'anthropic' || options.model ? options.model : { api: 'openai-responses' },
    settings: { keepRecentTokens: 60, reserveTokens: 1000, remoteEnabled: true, ...options.settings },
    deps: { log: (line) => logs.push(line), ...options.deps },
  });
  h.fake.enqueue({ text: 'Reading.', toolCalls: [{ id: 'call_read_1', name: 'read', input: { path: 'notes.txt' } }] });
  h.fake.enqueue({ text: `ANSWER-0 ${'lorem ipsum '.repeat(40)}` });
  await h.agent.prompt(`QUESTION-0 ${'dolor sit amet '.repeat(10)}`);
  for (let i = 1; i < 3; i++) {
    h.fake.enqueue({ text: `ANSWER-${i} ${'lorem ipsum '.repeat(40)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
  h.fake.requests.length = 0;
  h.events.length = 0;
  return h;
}

function compactRequests(h: Harness) {
  return h.fake.requests.filter((r) => r.path === COMPACT_PATH);
}

function latestCompaction(h: Harness): CompactionEntry {
  const entry = [...h.store.getBranch()].reverse().find((e) => e.type === 'compaction');
  assert.ok(entry, 'a compaction entry');
  return entry as CompactionEntry;
}

function nativeData(entry: CompactionEntry): OpenAIRemoteCompaction | undefined {
  return entry.preserveData?.[OPENAI_REMOTE_COMPACTION_KEY] as OpenAIRemoteCompaction | undefined;
}

function enqueueLocalSummary(h: Harness, tag: string): void {
  h.fake.enqueue({ text: summaryText(tag) }, { text: `We worked on ${tag}.` });
}

test('native success: /responses/compact gets the summarized messages as Responses items, preserveData keeps the replacement history', async () => {
  const logs: string[] = [];
  const h = await withHistory({ logs });
  enqueueLocalSummary(h, 'LOCAL-SUMMARY');
  const outcome = await h.agent.compact();
  assert.equal(outcome.status, 'compacted');

  const [request, ...more] = compactRequests(h);
  assert.ok(request, 'one native compaction request');
  assert.equal(more.length, 0);
  assert.equal(request.headers.authorization, 'REDACTED', 'the key went in the Authorization header (redacted by the fake log)');
  assert.equal(request.body.model, h.model.id);
  assert.equal(request.body.instructions, 'You are a test agent.');
  const input = request.body.input as { type: string; role?: string; call_id?: string }[];
  assert.ok(input.some((i) => i.type === 'message' && i.role === 'user' && JSON.stringify(i).includes('QUESTION-0')));
  assert.ok(input.some((i) => i.type === 'message' && i.role === 'assistant' && JSON.stringify(i).includes('ANSWER-0')));
  assert.ok(!JSON.stringify(input).includes('ANSWER-2'), 'the kept messages are not compacted');
  const call = input.find((i) => i.type === 'function_call');
  const output = input.find((i) => i.type === 'function_call_output');
  assert.equal(call?.call_id, 'call_read_1');
  assert.equal(output?.call_id, 'call_read_1');
  assert.match(JSON.stringify(output), /NOTES-CONTENT/);

  const entry = latestCompaction(h);
  assert.match(entry.summary, /LOCAL-SUMMARY goal/, 'the local summary is still generated and stored');
  const native = nativeData(entry);
  assert.ok(native, 'preserveData.openaiRemoteCompaction');
  assert.equal(native.provider, 'openai');
  assert.equal(native.model, h.model.id);
  assert.equal(native.scope, 'summarized');
  assert.equal(native.compactionItem.type, 'compaction');
  assert.match(String(native.compactionItem.encrypted_content), /^fake:[0-9a-f]{48}$/);
  assert.ok(native.replacementHistory.some((i) => JSON.stringify(i).includes('QUESTION-0')));
  assert.ok(logs.some((l) => /native \/responses\/compact succeeded/.test(l)));

  // Round trip through the file.
  const reopened = await SessionStore.open(h.store.file);
  const stored = reopened.getEntries().find((e) => e.id === entry.id) as CompactionEntry;
  assert.deepEqual(nativeData(stored), native);
});

test('the next Responses request is rebuilt from the native items plus the kept messages; another provider gets the local summary', async () => {
  const h = await withHistory();
  enqueueLocalSummary(h, 'LOCAL-SUMMARY');
  await h.agent.compact();
  const native = nativeData(latestCompaction(h))!;
  h.fake.enqueue({ text: 'after compaction' });
  await h.agent.prompt('next');
  const turn = h.llmRequests().at(-1)!;
  assert.equal(turn.path, '/v1/responses');
  const input = turn.body.input as Record<string, unknown>[];
  assert.deepEqual(input.slice(0, native.replacementHistory.length), native.replacementHistory, 'the native items open the context');
  assert.ok(input.some((i) => i.type === 'compaction' && i.encrypted_content === native.compactionItem.encrypted_content));
  assert.doesNotMatch(JSON.stringify(input), /LOCAL-SUMMARY goal/, 'no local summary for the model that has the native items');
  assert.match(JSON.stringify(input), /ANSWER-2/, 'the kept messages follow the native items');

  // The same session switched to another provider falls back to the local summary.
  await h.agent.setModel(anthropicModel(h.fake.anthropicBaseUrl));
  h.fake.enqueue({ text: 'on anthropic' });
  await h.agent.prompt('again');
  const other = h.llmRequests().at(-1)!;
  assert.equal(other.path, '/v1/messages');
  assert.match(requestText(other), /LOCAL-SUMMARY goal/);
  assert.match(JSON.stringify(other.body), /ANSWER-2/, 'the kept messages are there too');
  assert.doesNotMatch(JSON.stringify(other.body), /fake:[0-9a-f]{10}/, 'never the encrypted item');
});

test('a request whose native items are refused is sent again with the local summary', async () => {
  const h = await withHistory();
  enqueueLocalSummary(h, 'LOCAL-SUMMARY');
  await h.agent.compact();
  h.fake.enqueue({ error: { kind: 'custom', status: 400, message: 'The encrypted content could not be verified.' } }, { text: 'recovered' });
  await h.agent.prompt('next');
  const [refused, resent] = h.llmRequests().slice(-2);
  assert.match(JSON.stringify(refused!.body), /"type":"compaction"/);
  assert.doesNotMatch(JSON.stringify(resent!.body), /"type":"compaction"/);
  assert.match(JSON.stringify(resent!.body), /LOCAL-SUMMARY goal/);
  assert.ok(!h.events.some((e) => e.type === 'error'), 'the user sees no error');
});

test('a second native compaction sends the previous replacement history (with its compaction item) first', async () => {
  const h = await withHistory();
  enqueueLocalSummary(h, 'FIRST');
  await h.agent.compact();
  const first = nativeData(latestCompaction(h))!;
  for (let i = 3; i < 6; i++) {
    h.fake.enqueue({ text: `ANSWER-${i} ${'lorem ipsum '.repeat(40)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
  h.fake.requests.length = 0;
  enqueueLocalSummary(h, 'SECOND');
  await h.agent.compact();
  const request = compactRequests(h)[0]!;
  const input = request.body.input as Record<string, unknown>[];
  assert.deepEqual(input.slice(0, first.replacementHistory.length), first.replacementHistory);
  assert.ok(input.some((i) => i.type === 'compaction' && i.encrypted_content === first.compactionItem.encrypted_content));
  assert.ok(!JSON.stringify(input).includes('FIRST goal'), 'the replacement history stands in for the local summary text');
  const second = nativeData(latestCompaction(h))!;
  assert.notEqual(second.compactionItem.encrypted_content, first.compactionItem.encrypted_content);
});

const FAILURES: [string, FakeCompactBehaviour][] = [
  ['HTTP 500', { error: { kind: 'server' } }],
  ['HTTP 429', { error: { kind: 'rate_limit', retryAfterMs: 5 } }],
  ['malformed JSON', { malformed: true }],
  ['no compaction item', { noCompactionItem: true }],
  ['a hanging request (timeout)', { hang: true }],
];

for (const [name, behaviour] of FAILURES) {
  test(`native failure (${name}) falls back to the local summary silently, with a log line`, async () => {
    const logs: string[] = [];
    const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 60, reserveTokens: 1000, remoteEnabled: true };
    const h2 = await withHistory({
      logs,
      deps: { compaction: { settings: () => settings, retry: { baseDelayMs: 1, sleep: async () => {} }, nativeCompactionTimeoutMs: 300 } },
    });
    h2.fake.enqueueCompact(behaviour);
    enqueueLocalSummary(h2, 'FALLBACK');
    const outcome = await h2.agent.compact();
    assert.equal(outcome.status, 'compacted');
    assert.equal(compactRequests(h2).length, 1);
    const entry = latestCompaction(h2);
    assert.match(entry.summary, /FALLBACK goal/);
    assert.equal(nativeData(entry), undefined);
    assert.ok(logs.some((l) => /native \/responses\/compact failed/.test(l)), logs.join('\n'));
    assert.ok(!h2.events.some((e) => e.type === 'error'), 'no error shown to the user');
  });
}

test('the local summary failing fails the compaction even when the native call succeeded (nothing saved)', async () => {
  const h = await withHistory();
  const before = await readFile(h.store.file, 'utf8');
  h.fake.enqueue({ error: { kind: 'auth' } });
  await assert.rejects(h.agent.compact(), /Compaction failed/);
  assert.equal(await readFile(h.store.file, 'utf8'), before);
});

test('non-OpenAI models (Anthropic, OpenAI-compatible local servers) never call /responses/compact', async () => {
  for (const options of [{ api: 'anthropic' as const }, { model: { provider: 'local', api: 'openai-compatible' as const } }]) {
    const h = await withHistory(options);
    enqueueLocalSummary(h, 'OTHER');
    await h.agent.compact();
    assert.equal(compactRequests(h).length, 0);
    assert.equal(nativeData(latestCompaction(h)), undefined);
  }
});

// Issue #28: with the offline demo (or any other provider) in use, an OpenAI model merely listed as a
// summarizer candidate was tried natively, and the log told of a failed OpenAI compaction "for lack of a key".
test('native compaction is tried only for the provider in use, never for another listed model', async () => {
  const listed: ModelInfo[] = [];
  const logs: string[] = [];
  const h = await withHistory({ model: { provider: 'demo', api: 'openai-compatible' }, logs, deps: { availableModels: () => listed } });
  listed.push(h.model, openaiModel(h.fake.openaiBaseUrl, { api: 'openai-responses', contextWindow: 400_000 }));
  enqueueLocalSummary(h, 'DEMO');
  await h.agent.compact();
  assert.equal(compactRequests(h).length, 0, 'no /responses/compact for a model not in use');
  assert.equal(nativeData(latestCompaction(h)), undefined);
  assert.ok(!logs.some((l) => /native/i.test(l)), logs.join('\n'));
});

test('remoteEnabled=false never calls /responses/compact', async () => {
  const h = await withHistory({ settings: { remoteEnabled: false } });
  enqueueLocalSummary(h, 'OFF');
  await h.agent.compact();
  assert.equal(compactRequests(h).length, 0);
  assert.equal(nativeData(latestCompaction(h)), undefined);
});

test('the API key never appears in logs, events, entries or the session file', async () => {
  const logs: string[] = [];
  const h = await withHistory({ logs });
  h.fake.enqueueCompact({ error: { kind: 'auth' } });
  enqueueLocalSummary(h, 'A');
  await h.agent.compact();
  h.fake.enqueue({ text: `ANSWER-x ${'lorem ipsum '.repeat(40)}` });
  await h.agent.prompt(`QUESTION-x ${'dolor sit amet '.repeat(10)}`);
  enqueueLocalSummary(h, 'B');
  await h.agent.compact();
  assert.ok(nativeData(latestCompaction(h)), 'the second one succeeded');
  const haystack = [logs.join('\n'), JSON.stringify(h.events), await readFile(h.store.file, 'utf8'), JSON.stringify(h.fake.requests)].join('\n');
  assert.ok(!haystack.includes(OPENAI_KEY));
  assert.ok(!haystack.includes(OPENAI_KEY.slice(8, 24)));
});

// ---- pure parts --------------------------------------------------------------------------------

const MODEL = { provider: 'openai', api: 'openai-responses' as const, id: 'm', name: 'm', contextWindow: 1000, maxOutputTokens: 100, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

function assistant(content: AssistantMessage['content']): AssistantMessage {
  return { role: 'assistant', content, api: 'openai-responses', provider: 'openai', model: 'm', usage: emptyUsage(), stopReason: 'toolUse', timestamp: 1 };
}

test('the compaction input: a result without its call is dropped, a call without its result gets one, call ids are normalized', () => {
  const messages: AgentMessage[] = [
    { role: 'user', content: 'hi', timestamp: 1 },
    assistant([
      { type: 'text', text: 'calling' },
      { type: 'toolCall', id: 'toolu_01|odd/id', name: 'read', arguments: { path: 'a' } },
    ]),
    { role: 'toolResult', toolCallId: 'toolu_01|odd/id', toolName: 'read', content: [{ type: 'text', text: 'A' }], isError: false, timestamp: 2 },
    { role: 'toolResult', toolCallId: 'stray', toolName: 'read', content: [{ type: 'text', text: 'S' }], isError: false, timestamp: 3 },
  ];
  const items = nativeCompactionInput({ messages, model: MODEL });
  assert.deepEqual(
    items.map((i) => [i.type, i.call_id ?? i.role]),
    [
      ['message', 'user'],
      ['message', 'assistant'],
      ['function_call', 'toolu_01'],
      ['function_call_output', 'toolu_01'],
    ],
  );
  assert.equal(toResponsesInput([], MODEL).length, 0);
});

test('without native items from Arbor, the previous local summary is sent first', () => {
  const previous: AgentMessage = { role: 'compactionSummary', summary: 'PREVIOUS', tokensBefore: 1, timestamp: 1 };
  const items = nativeCompactionInput({ messages: [{ role: 'user', content: 'q', timestamp: 1 }], previous, model: MODEL });
  assert.equal(items.length, 2);
  assert.match(JSON.stringify(items[0]), /PREVIOUS/);
});

test('parseCompactResponse keeps compaction items, assistant and real user messages; requires a compaction item', () => {
  const parsed = parseCompactResponse({
    output: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'real question' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<system-reminder>x</system-reminder>' }] },
      { type: 'reasoning', summary: [] },
      { type: 'compaction', id: 'c1', encrypted_content: 'enc' },
    ],
  });
  assert.equal(parsed.replacementHistory.length, 2);
  assert.equal(parsed.compactionItem.id, 'c1');
  assert.throws(() => parseCompactResponse({ output: [{ type: 'compaction', encrypted_content: '' }] }), /no compaction item/);
  assert.throws(() => parseCompactResponse({ nope: true }), /no "output" array/);
});

test('supportsNativeCompaction: only OpenAI on the Responses API', () => {
  const base = { id: 'x', name: 'x', contextWindow: 1, maxOutputTokens: 1, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  assert.equal(supportsNativeCompaction({ ...base, provider: 'openai', api: 'openai-responses' }), true);
  assert.equal(supportsNativeCompaction({ ...base, provider: 'openai', api: 'openai-responses', nativeCompaction: false }), false);
  assert.equal(supportsNativeCompaction({ ...base, provider: 'openai', api: 'openai-completions' }), false);
  assert.equal(supportsNativeCompaction({ ...base, provider: 'local', api: 'openai-compatible' }), false);
  assert.equal(supportsNativeCompaction({ ...base, provider: 'openai', api: 'openai-compatible' }), false);
  assert.equal(supportsNativeCompaction({ ...base, provider: 'anthropic', api: 'anthropic-messages' }), false);
  assert.equal(supportsNativeCompaction(undefined), false);
});
