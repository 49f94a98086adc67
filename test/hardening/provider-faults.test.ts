// Provider faults at the agent level (issue 10): a real AgentSession, the real OpenAI and Anthropic
// SDKs and the fake server injecting 429/529/5xx (with and without retry headers), dropped sockets,
// malformed SSE, hanging streams, streams without a terminal event and overflow in each provider's
// wording, during normal turns (after a tool call), during compaction and during branch summarization.
// After every scenario the same invariants hold: no duplicate entries in the session file, no orphan
// tool call or tool result in any request the fake logged, and the agent back to idle within a bound.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type { AgentEvent } from '../../src/agent/events';
import { navigateTree } from '../../src/branch';
import { DEFAULT_COMPACTION_SETTINGS } from '../../src/compaction';
import { createProvider } from '../../src/llm/registry';
import type { FakeRequest, FakeTurn, OverflowFlavor } from '../fake-llm/server.mjs';
import { fileEntries, harness, pathEntries, summaryText, type Harness, type HarnessOptions } from '../unit/agent/session-helpers';
import { fastRetry, keys } from '../unit/llm/helpers';
import { reportFigures, trials } from './profile';

const IDLE_BOUND_MS = 10_000;
const STREAM_IDLE_MS = 250;
type Api = 'openai' | 'anthropic';

// The SDKs load lazily inside the first request, under the stream idle watchdog; a cold load under tsx can
// take longer than the short idle timeout used here. Load them once up front so every scenario measures
// the wire, not the module loader.
before(async () => {
  await Promise.all([import('openai'), import('@anthropic-ai/sdk')]);
});

const figures = { scenarios: 0, requests: 0, retries: 0, recoveredTurns: 0, reportedErrors: 0 };

async function setup(api: Api, options: HarnessOptions = {}): Promise<Harness> {
  const retry = fastRetry();
  return harness({
    api,
    files: { 'notes.txt': 'NOTES' },
    ...options,
    settings: { keepRecentTokens: 60, reserveTokens: 1000, ...options.settings },
    deps: { providerOptions: { ...retry.options, idleTimeoutMs: STREAM_IDLE_MS }, ...options.deps },
  });
}

/** A tool round trip first, so every later request carries a tool call and its result. */
function toolTurn(): FakeTurn {
  return { text: 'Reading.', toolCalls: [{ name: 'read', input: { path: 'notes.txt' } }] };
}

async function history(h: Harness, turns = 2): Promise<void> {
  for (let i = 0; i < turns; i++) {
    // the bulk in the replies: the user's words are kept verbatim, so only replies make a compaction shrink the context
    h.fake.enqueue(toolTurn(), { text: `ANSWER-${i} ${'lorem ipsum '.repeat(200)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
}

async function promptAndSettle(h: Harness, text: string): Promise<void> {
  const started = Date.now();
  const done = h.agent.prompt(text).then(() => h.agent.whenIdle());
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`agent still busy after ${IDLE_BOUND_MS} ms`)), IDLE_BOUND_MS);
  });
  try {
    await Promise.race([done, bound]);
  } finally {
    clearTimeout(timer);
  }
  assert.ok(Date.now() - started < IDLE_BOUND_MS);
}

/** No entry persisted twice (same parent, same content), no id used twice. */
export async function assertNoDuplicateEntries(file: string): Promise<void> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '').slice(1);
  const ids = new Set<string>();
  const shapes = new Set<string>();
  for (const line of lines) {
    const entry = JSON.parse(line) as { id: string; parentId: string | null; type: string; timestamp?: string };
    assert.ok(!ids.has(entry.id), `duplicate id ${entry.id}`);
    ids.add(entry.id);
    const { id: _id, timestamp: _ts, ...rest } = entry;
    const shape = JSON.stringify(rest);
    assert.ok(!shapes.has(shape), `entry persisted twice: ${shape.slice(0, 200)}`);
    shapes.add(shape);
  }
}

/** Every tool call in a request has exactly one result after it, and every result has its call. */
export function assertNoOrphans(requests: readonly FakeRequest[]): void {
  for (const request of requests) {
    const calls = new Map<string, number>();
    const results = new Map<string, number>();
    const bump = (map: Map<string, number>, id: string) => map.set(id, (map.get(id) ?? 0) + 1);
    for (const message of (request.body?.messages ?? []) as { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[]) {
      if (request.path === '/v1/chat/completions') {
        for (const call of message.tool_calls ?? []) bump(calls, call.id);
        if (message.role === 'tool') {
          assert.ok(calls.has(message.tool_call_id!), `tool result ${message.tool_call_id} before/without its call`);
          bump(results, message.tool_call_id!);
        }
      } else if (Array.isArray(message.content)) {
        for (const block of message.content as { type: string; id?: string; tool_use_id?: string }[]) {
          if (block.type === 'tool_use') bump(calls, block.id!);
          if (block.type === 'tool_result') {
            assert.ok(calls.has(block.tool_use_id!), `tool result ${block.tool_use_id} before/without its call`);
            bump(results, block.tool_use_id!);
          }
        }
      }
    }
    for (const [id, n] of calls) {
      assert.equal(n, 1, `tool call ${id} sent ${n} times`);
      assert.equal(results.get(id), 1, `tool call ${id} has ${results.get(id) ?? 0} results in a request to ${request.path}`);
    }
  }
}

function busyBalanced(events: readonly AgentEvent[]): void {
  const busy = events.filter((e) => e.type === 'busy').length;
  const idle = events.filter((e) => e.type === 'idle').length;
  assert.equal(busy, idle, `busy ${busy} vs idle ${idle}`);
}

async function invariants(h: Harness): Promise<void> {
  assert.equal(h.agent.busy, false, 'agent idle');
  busyBalanced(h.events);
  await assertNoDuplicateEntries(h.store.file);
  assertNoOrphans(h.llmRequests());
  figures.scenarios++;
  figures.requests += h.llmRequests().length;
  figures.retries += h.events.filter((e) => e.type === 'retry').length;
}

function errors(h: Harness): string[] {
  return h.events.filter((e): e is Extract<AgentEvent, { type: 'error' }> => e.type === 'error').map((e) => e.message);
}

// ---- normal turns --------------------------------------------------------------------------------

interface TurnFault {
  name: string;
  fault: FakeTurn;
  /** 'recovers': the turn ends with a reply; 'reports': it ends with an error shown to the user */
  expect: 'recovers' | 'reports';
  retried?: boolean;
}

const TURN_FAULTS: TurnFault[] = [
  { name: '429 with retry-after-ms', fault: { error: { kind: 'rate_limit', retryAfterMs: 5 } }, expect: 'recovers', retried: true },
  { name: '429 without retry headers', fault: { error: { kind: 'rate_limit' } }, expect: 'recovers', retried: true },
  { name: '529/503 overloaded with retry-after', fault: { error: { kind: 'overloaded', retryAfterSeconds: 0 } }, expect: 'recovers', retried: true },
  { name: '500 twice', fault: { error: { kind: 'server', times: 2 } }, expect: 'recovers', retried: true },
  { name: '500 beyond the retry budget', fault: { error: { kind: 'server', times: 6 } }, expect: 'reports', retried: true },
  { name: 'quota (x-should-retry: false)', fault: { error: { kind: 'quota', shouldRetry: false } }, expect: 'reports' },
  { name: 'socket dropped before any chunk', fault: { text: 'never', dropAfterChunks: 0 }, expect: 'recovers', retried: true },
  { name: 'SSE error event before any output', fault: { text: 'never', midStreamError: { afterChunks: 0 } }, expect: 'recovers', retried: true },
  { name: 'socket dropped mid-stream', fault: { text: 'partial reply '.repeat(10), dropAfterChunks: 6 }, expect: 'reports' },
  { name: 'malformed SSE', fault: { text: 'partial reply '.repeat(10), malformedAfterChunks: 6 }, expect: 'reports' },
  { name: 'SSE error event mid-stream', fault: { text: 'partial reply '.repeat(10), midStreamError: { afterChunks: 6 } }, expect: 'reports' },
  { name: 'hanging stream (idle timeout)', fault: { text: 'partial reply '.repeat(10), hangAfterChunks: 6 }, expect: 'reports' },
  { name: 'stream ends without a terminal event', fault: { text: 'partial reply '.repeat(10), endWithoutTerminal: 6 }, expect: 'reports' },
];

const reps = trials(1, 4);

for (const api of ['openai', 'anthropic'] as const) {
  test(`${api}: faults during a normal turn after a tool call (×${reps})`, async () => {
    for (let rep = 0; rep < reps; rep++) {
      for (const fault of TURN_FAULTS) {
        const h = await setup(api);
        h.fake.enqueue(toolTurn(), fault.fault, { text: 'FINAL ANSWER' }, { text: 'FINAL ANSWER' });
        await promptAndSettle(h, 'please read notes.txt');
        const label = `${api} / ${fault.name}`;
        const entries = await fileEntries(h.store);
        if (fault.expect === 'recovers') {
          assert.equal(entries.at(-1), 'assistant:stop', label);
          assert.deepEqual(errors(h), [], label);
          figures.recoveredTurns++;
        } else {
          assert.equal(errors(h).length, 1, `${label}: one error shown (${errors(h).join(' | ')})`);
          assert.ok(['assistant:error', 'assistant:aborted'].includes(entries.at(-1)!), `${label}: ${entries.at(-1)}`);
          figures.reportedErrors++;
        }
        if (fault.retried) assert.ok(h.events.some((e) => e.type === 'retry'), `${label}: a retry event`);
        else assert.ok(!h.events.some((e) => e.type === 'retry'), `${label}: no retry`);
        await invariants(h);
        // The session is still usable: the next prompt goes through with the tool pair intact.
        h.fake.enqueue({ text: 'still working' });
        await promptAndSettle(h, 'and now?');
        assert.equal((await fileEntries(h.store)).at(-1), 'assistant:stop', `${label}: next turn works`);
        await invariants(h);
      }
    }
  });
}

// ---- overflow in each provider's wording -----------------------------------------------------------

const FLAVORS: { flavor: OverflowFlavor; api: Api; local?: boolean }[] = [
  { flavor: 'openai', api: 'openai' },
  { flavor: 'anthropic', api: 'anthropic' },
  { flavor: 'ollama', api: 'openai', local: true },
  { flavor: 'lmstudio', api: 'openai', local: true },
  { flavor: 'llamacpp', api: 'openai', local: true },
  { flavor: 'vllm', api: 'openai', local: true },
];

test(`overflow in each provider's wording: compaction, one retry, no orphans (×${reps})`, async () => {
  for (let rep = 0; rep < reps; rep++) {
    for (const { flavor, api, local } of FLAVORS) {
      const h = await setup(api, local ? { model: { provider: 'local', api: 'openai-compatible', contextWindow: 32_000 } } : {});
      await history(h);
      h.fake.enqueue(toolTurn(), { overflow: flavor }, { text: summaryText(`OVERFLOW-${flavor}`) }, { text: 'short recap' }, { text: 'RETRIED' });
      await promptAndSettle(h, `big question ${'lorem '.repeat(200)}`);
      const label = `${flavor}`;
      assert.deepEqual(errors(h), [], label);
      assert.ok(h.events.some((e) => e.type === 'compaction_end' && e.reason === 'overflow' && e.outcome.status === 'compacted'), label);
      assert.deepEqual(pathEntries(h.store).slice(-2), ['compaction', 'assistant:stop'], label);
      assert.match(JSON.stringify(h.llmRequests().at(-1)!.body), /OVERFLOW-/);
      await invariants(h);
    }
  }
});

// ---- compaction under faults -----------------------------------------------------------------------

test(`summarizer faults during overflow recovery: retried, or a clear failure; never stuck (×${reps})`, async () => {
  for (let rep = 0; rep < reps; rep++) {
    for (const api of ['openai', 'anthropic'] as const) {
      // transient failures, then a hang, then the summary: recovered. The compaction loop alone retries a
      // summary (1 + 3 attempts; the provider does not retry it again: attacks/retry-layers), so the faults
      // take three of the four attempts.
      {
        const h = await setup(api);
        await history(h);
        h.fake.enqueue(
          { overflow: api === 'openai' ? 'openai' : 'anthropic' },
          { error: { kind: 'server', times: 2 } },
          { text: summaryText('LATE'), hangAfterChunks: 2 },
          { text: summaryText('LATE') },
          { text: 'short' },
          { text: 'RETRIED' },
        );
        await promptAndSettle(h, `q ${'lorem '.repeat(100)}`);
        assert.deepEqual(errors(h), [], `${api}: recovered`);
        assert.deepEqual(pathEntries(h.store).slice(-2), ['compaction', 'assistant:stop']);
        await invariants(h);
      }
      // summarizer fails for good: the documented failure wording (docs/pi-compatibility.md "When compaction runs"), the error reply back on the path.
      {
        const h = await setup(api);
        await history(h);
        const before = (await fileEntries(h.store)).length;
        h.fake.enqueue({ overflow: api === 'openai' ? 'openai' : 'anthropic' }, { error: { kind: 'auth', times: 20 } });
        await promptAndSettle(h, `q ${'lorem '.repeat(100)}`);
        const shown = errors(h);
        assert.equal(shown.length, 1);
        assert.match(shown[0]!, /^Context overflow recovery failed: /);
        assert.deepEqual((await fileEntries(h.store)).length, before + 2, 'user + error reply only, no compaction');
        assert.equal(pathEntries(h.store).at(-1), 'assistant:error');
        await invariants(h);
      }
    }
  }
});

test(`manual compaction with a hanging or failing summarizer leaves the file byte-identical (×${reps})`, async () => {
  for (let rep = 0; rep < reps; rep++) {
    const faults: FakeTurn[] = [
      { text: 'x '.repeat(50), hangAfterChunks: 1, times: 50 },
      { error: { kind: 'overloaded', times: 50 } },
      { text: 'x'.repeat(40), dropAfterChunks: 2, times: 50 },
      { text: 'x'.repeat(40), malformedAfterChunks: 2, times: 50 },
    ];
    for (const fault of faults) {
      const settings = { ...DEFAULT_COMPACTION_SETTINGS, remoteEnabled: false, keepRecentTokens: 60, reserveTokens: 1000 };
      const h = await setup('openai', {
        deps: {
          // one provider retry, one summarizer retry: the failure path, not the retry budget, is under test
          providerOptions: { ...fastRetry().options, idleTimeoutMs: STREAM_IDLE_MS, retry: { maxRetries: 1, sleep: async () => {} } },
          compaction: { settings: () => settings, retry: { maxRetries: 1, baseDelayMs: 1, sleep: async () => {} } },
        },
      });
      await history(h);
      const before = await readFile(h.store.file, 'utf8');
      h.fake.enqueue(fault);
      await assert.rejects(h.agent.compact(), (error: Error) => /^Compaction failed: /.test(error.message));
      assert.equal(await readFile(h.store.file, 'utf8'), before);
      assert.ok(h.fake.queue.length > 0, 'the fault outlasted the retries (the test did not pass by running out of faults)');
      await invariants(h);
    }
  }
});

// ---- branch summarization under faults ---------------------------------------------------------------

test(`branch summarization: retried faults succeed once; failures and hangs change nothing (×${reps})`, async () => {
  for (let rep = 0; rep < reps; rep++) {
    for (const api of ['openai', 'anthropic'] as const) {
      const cases: { fault: FakeTurn[]; ok: boolean }[] = [
        { fault: [{ error: { kind: 'rate_limit', retryAfterMs: 5 } }, { text: '## Goal\nBRANCH-SUMMARY' }], ok: true },
        { fault: [{ text: 'slow '.repeat(30), hangAfterChunks: 0 }, { text: '## Goal\nBRANCH-SUMMARY' }], ok: true },
        { fault: [{ error: { kind: 'server', times: 10 } }], ok: false },
        { fault: [{ text: 'slow '.repeat(30), hangAfterChunks: 6, times: 10 }], ok: false },
        { fault: [{ text: 'x '.repeat(30), malformedAfterChunks: 6, times: 10 }], ok: false },
      ];
      for (const { fault, ok } of cases) {
        const h = await setup(api);
        await history(h, 2);
        const target = h.store.getBranch().find((e) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'user')!;
        const before = await readFile(h.store.file, 'utf8');
        const leaf = h.store.getLeafId();
        h.fake.requests.length = 0;
        h.fake.enqueue(...fault);
        const options = { ...fastRetry().options, idleTimeoutMs: STREAM_IDLE_MS, retry: { maxRetries: 1, sleep: async () => {} } };
        const summarizer = { provider: createProvider(h.model, keys(), options), model: h.model, reserveTokens: 1000 };
        const navigation = navigateTree(h.store, target.id, { summarize: true }, { summarizer });
        if (ok) {
          const result = await navigation;
          assert.equal(result.cancelled, false);
          assert.ok(result.summaryEntry?.summary.includes('BRANCH-SUMMARY'));
          const summaries = (await fileEntries(h.store)).filter((e) => e === 'branch_summary');
          assert.equal(summaries.length, 1, 'exactly one branch summary entry');
        } else {
          await assert.rejects(navigation);
          assert.ok(h.fake.queue.length > 0, 'the fault outlasted the retries');
          assert.equal(await readFile(h.store.file, 'utf8'), before, `${api}: file unchanged`);
          assert.equal(h.store.getLeafId(), leaf, `${api}: leaf unchanged`);
        }
        await invariants(h);
        // The agent carries on from wherever the leaf is.
        h.fake.enqueue({ text: 'after navigation' });
        await promptAndSettle(h, 'continue');
        await invariants(h);
      }
    }
  }
  reportFigures('provider-faults', figures);
});

test('the invariant checks themselves catch an orphan tool result, a missing result and a duplicate entry', async () => {
  const request = (messages: unknown[]) => ({ path: '/v1/chat/completions', body: { messages } }) as unknown as FakeRequest;
  const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] };
  const result = { role: 'tool', tool_call_id: 'c1', content: 'x' };
  assert.doesNotThrow(() => assertNoOrphans([request([call, result])]));
  assert.throws(() => assertNoOrphans([request([result])]), /without its call/);
  assert.throws(() => assertNoOrphans([request([call])]), /has 0 results/);
  assert.throws(() => assertNoOrphans([request([call, result, result])]), /has 2 results/);
  const h = await setup('openai');
  h.fake.enqueue({ text: 'once' });
  await h.agent.prompt('hello');
  await assertNoDuplicateEntries(h.store.file);
  const lines = (await readFile(h.store.file, 'utf8')).trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1)!) as { id: string };
  await writeFile(h.store.file, [...lines, JSON.stringify({ ...last, id: 'dup00001' })].join('\n') + '\n');
  await assert.rejects(assertNoDuplicateEntries(h.store.file), /persisted twice/);
});
