import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '../../../src/core/messages';
import { SessionStore } from '../../../src/session/store';
import { CompactionRunner, type CompactionEvent } from '../../../src/compaction/runner';
import { CompactionHookRegistry } from '../../../src/compaction/hooks';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../../src/compaction/settings';
import type { ModelInfo, Provider } from '../../../src/llm/types';
import { FAKE_MODEL, FakeProvider, type Answer } from './fake-provider';
import { chars, wellFormedSummary } from './fixtures';

async function sessionWithHistory(turns = 6): Promise<{ store: SessionStore; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-compaction-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  for (let i = 0; i < turns; i++) {
    await store.appendMessage({ role: 'user', content: `REQUEST-${i} ${chars(400)}`, timestamp: Date.now() });
    await store.appendMessage({
      role: 'assistant',
      content: [{ type: 'text', text: `ANSWER-${i} ${chars(400)}` }],
      api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason: 'stop', timestamp: Date.now(),
    });
  }
  return { store, dir };
}

function runnerFor(
  store: SessionStore,
  provider: Provider | ((model: ModelInfo) => Provider | undefined),
  options: { settings?: Partial<CompactionSettings>; hooks?: CompactionHookRegistry; available?: ModelInfo[]; logs?: string[] } = {},
): CompactionRunner {
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 800, ...options.settings };
  return new CompactionRunner({
    store,
    settings: () => settings,
    models: () => ({ current: FAKE_MODEL, available: options.available ?? [FAKE_MODEL] }),
    providerFor: typeof provider === 'function' ? provider : () => provider,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    retry: { baseDelayMs: 1, sleep: async () => {} },
    log: (m) => options.logs?.push(m),
  });
}

const good = (req: { messages: unknown[] }): Answer =>
  JSON.stringify(req.messages).includes('Write a recap') ? 'We compacted.' : wellFormedSummary('RUN');

test('manual compaction appends one compaction entry and emits start/end', async () => {
  const { store, dir } = await sessionWithHistory();
  try {
    const provider = new FakeProvider(good);
    const runner = runnerFor(store, provider);
    const events: CompactionEvent[] = [];
    runner.onEvent((e) => events.push(e));
    const preview = runner.preview()!;
    assert.ok(preview.summarizeCount > 0 && preview.keptCount > 0);
    assert.ok(preview.estimatedTokensAfter < preview.tokensBefore);
    const outcome = await runner.run({ reason: 'manual', customInstructions: 'keep the API notes' });
    assert.equal(outcome.status, 'compacted');
    if (outcome.status !== 'compacted') return;
    assert.equal(outcome.entry.type, 'compaction');
    assert.equal(outcome.entry.shortSummary, 'We compacted.');
    assert.equal(outcome.entry.firstKeptEntryId, preview.preparation.firstKeptEntryId);
    assert.equal(outcome.entry.reason, 'manual', 'the reason is persisted (issue 16)');
    assert.ok(typeof outcome.entry.tokensAfter === 'number' && outcome.entry.tokensAfter > 0 && outcome.entry.tokensAfter < preview.tokensBefore);
    assert.ok(outcome.entry.usage && outcome.entry.usage.totalTokens >= 0, 'the summarizer calls\' usage is persisted');
    assert.equal(store.getLeafEntry()?.id, outcome.entry.id);
    assert.deepEqual(events.map((e) => e.type), ['start', 'end']);
    assert.match(provider.prompt(0), /Additional focus: keep the API notes/);
    const again = await runner.run({ reason: 'manual' });
    assert.deepEqual(again, { status: 'skipped', why: 'already-compacted', message: 'Already compacted.' });
    const context = store.buildContext().messages;
    assert.equal(context[0]!.role, 'compactionSummary');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a failed or cancelled compaction leaves the session file byte-identical', async () => {
  const { store, dir } = await sessionWithHistory();
  try {
    const before = await readFile(store.file);
    const failing = runnerFor(store, new FakeProvider(() => ({ error: 'invalid request' })));
    const failed = await failing.run({ reason: 'threshold' });
    assert.deepEqual(failed, { status: 'failed', errorMessage: 'Auto-compaction failed: Summarization failed: invalid request', detail: 'Summarization failed: invalid request' });
    const overflow = await failing.run({ reason: 'overflow', willRetry: true });
    assert.match((overflow as { errorMessage: string }).errorMessage, /^Context overflow recovery failed: /);

    // Cancel while the model is answering.
    let runner!: CompactionRunner;
    const hanging = new FakeProvider(async () => {
      runner.cancel();
      return wellFormedSummary();
    });
    runner = runnerFor(store, hanging);
    const events: CompactionEvent[] = [];
    runner.onEvent((e) => events.push(e));
    assert.deepEqual(await runner.run({ reason: 'manual' }), { status: 'cancelled' });
    assert.equal((events[1] as { aborted: boolean }).aborted, true);

    // Cancel from the review step (user closes the edit dialog).
    const reviewed = await runnerFor(store, new FakeProvider(good)).run({ reason: 'manual', review: async () => undefined });
    assert.deepEqual(reviewed, { status: 'cancelled' });
    assert.deepEqual(await readFile(store.file), before);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the review step can edit the summary before it is saved; the user\'s kept words are Arbor\'s, shown apart and put back', async () => {
  const { store, dir } = await sessionWithHistory();
  try {
    let shown = '';
    const outcome = await runnerFor(store, new FakeProvider(good)).run({
      reason: 'manual',
      review: async (result) => {
        shown = result.summary;
        return { ...result, summary: 'EDITED BY USER' };
      },
    });
    assert.doesNotMatch(shown, /What the User Said/, 'the editor holds the summarizer\'s part only');
    const saved = outcome.status === 'compacted' ? outcome.entry.summary : '';
    assert.match(saved, /^EDITED BY USER\n\n## What the User Said \(verbatim\)/, 'the edit, then the words the user wrote');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('transient errors are retried; failing models fall through to the next candidate', async () => {
  const { store, dir } = await sessionWithHistory();
  try {
    let calls = 0;
    const flaky = new FakeProvider((req) => (++calls <= 2 ? { error: '503 service unavailable' } : good(req)));
    const outcome = await runnerFor(store, flaky).run({ reason: 'threshold' });
    assert.equal(outcome.status, 'compacted');
    assert.equal(calls, 4, 'two failures, then summary and recap');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const second = await sessionWithHistory();
  try {
    const big: ModelInfo = { ...FAKE_MODEL, id: 'big', contextWindow: 1_000_000 };
    const broken = new FakeProvider(() => ({ error: 'invalid api key' }));
    const works = new FakeProvider(good);
    const outcome = await runnerFor(second.store, (m) => (m.id === 'big' ? works : broken), { available: [FAKE_MODEL, big] }).run({
      reason: 'threshold',
    });
    assert.equal(outcome.status === 'compacted' && outcome.model?.id, 'big');
    assert.equal(broken.requests.length, 1, 'a non-transient error is not retried on the same model');
  } finally {
    await rm(second.dir, { recursive: true, force: true });
  }
});

test('settings gate automatic triggers; manual always runs; one compaction at a time', async () => {
  const { store, dir } = await sessionWithHistory();
  try {
    const provider = new FakeProvider(good);
    assert.equal((await runnerFor(store, provider, { settings: { enabled: false } }).run({ reason: 'threshold' })).status, 'skipped');
    assert.equal((await runnerFor(store, provider, { settings: { strategy: 'off' } }).run({ reason: 'idle' })).status, 'skipped');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = new FakeProvider(async (req) => {
      await gate;
      return good(req);
    });
    const runner = runnerFor(store, slow);
    const first = runner.run({ reason: 'manual' });
    assert.equal(runner.running, true);
    assert.equal((await runner.run({ reason: 'manual' })).status, 'skipped', 'a second compaction is refused while one runs');
    release();
    assert.equal((await first).status, 'compacted');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('hooks: before-compact can cancel or provide the result; compacting adds context and preserveData; errors never break it', async () => {
  const { store, dir } = await sessionWithHistory();
  try {
    const logs: string[] = [];
    const hooks = new CompactionHookRegistry((m) => logs.push(m));
    const provider = new FakeProvider(good);
    const seen: string[] = [];
    const offCancel = hooks.register({ beforeCompact: () => ({ cancel: true }) });
    assert.deepEqual(await runnerFor(store, provider, { hooks }).run({ reason: 'manual' }), { status: 'cancelled' });
    offCancel();
    hooks.register({
      beforeCompact: () => {
        throw new Error('hook exploded');
      },
      compacting: () => ({ context: ['team uses pnpm'], preserveData: { memory: 1 } }),
      compact: (e) => {
        seen.push(e.entry.id);
      },
    });
    const outcome = await runnerFor(store, provider, { hooks }).run({ reason: 'manual' });
    assert.equal(outcome.status, 'compacted');
    if (outcome.status !== 'compacted') return;
    assert.deepEqual(outcome.entry.preserveData, { memory: 1 });
    assert.deepEqual(seen, [outcome.entry.id]);
    assert.ok(provider.prompt(0).includes('<additional-context>\n- team uses pnpm\n</additional-context>'));
    assert.ok(logs.some((l) => l.includes('hook exploded')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const second = await sessionWithHistory();
  try {
    const hooks = new CompactionHookRegistry();
    hooks.register({
      beforeCompact: (e) => ({ compaction: { summary: 'FROM HOOK', firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: 1 } }),
    });
    const provider = new FakeProvider(good);
    const outcome = await runnerFor(second.store, provider, { hooks }).run({ reason: 'manual' });
    assert.equal(outcome.status === 'compacted' && outcome.entry.fromHook, true);
    assert.equal(outcome.status === 'compacted' && outcome.entry.summary, 'FROM HOOK');
    assert.equal(provider.requests.length, 0);
  } finally {
    await rm(second.dir, { recursive: true, force: true });
  }
});

test('strategy handoff: threshold produces a handoff document; no document falls back to context-full; overflow never hands off', async () => {
  const { store, dir } = await sessionWithHistory();
  try {
    const before = await readFile(store.file);
    const provider = new FakeProvider((req) => (JSON.stringify(req.messages).includes('handoff document') ? '## Goal\nHANDOFF' : good(req)));
    const runner = runnerFor(store, provider, { settings: { strategy: 'handoff' } });
    const outcome = await runner.run({ reason: 'threshold' });
    assert.equal(outcome.status, 'handoff');
    if (outcome.status !== 'handoff') return;
    assert.match(outcome.content, /^<handoff-context>\n## Goal\nHANDOFF\n<\/handoff-context>/);
    assert.ok(provider.requests[0]!.messages.length > 2, 'the live history is sent, then the handoff request');
    assert.deepEqual(await readFile(store.file), before, 'handoff writes nothing to this session');
    const overflow = await runner.run({ reason: 'overflow' });
    assert.equal(overflow.status, 'compacted');

    const empty = await sessionWithHistory();
    const silent = new FakeProvider((req) => (JSON.stringify(req.messages).includes('handoff document') ? ' ' : good(req)));
    const fallback = await runnerFor(empty.store, silent, { settings: { strategy: 'handoff' } }).run({ reason: 'idle' });
    assert.equal(fallback.status, 'compacted');
    await rm(empty.dir, { recursive: true, force: true });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a session that fits in keepRecentTokens: automatic compaction skips it, manual keeps only the newest turn', async () => {
  const { store, dir } = await sessionWithHistory(3);
  try {
    const provider = new FakeProvider(good);
    const runner = runnerFor(store, provider, { settings: { keepRecentTokens: 100_000 } });
    const automatic = await runner.run({ reason: 'threshold' });
    assert.equal(automatic.status, 'skipped');
    assert.equal(provider.requests.length, 0, 'no model call for a compaction that would save nothing');
    const lastUser = store.getBranch().filter((e) => e.type === 'message' && e.message.role === 'user').at(-1)!;
    assert.equal(runner.preview()?.preparation.firstKeptEntryId, lastUser.id);
    const manual = await runner.run({ reason: 'manual' });
    assert.equal(manual.status, 'compacted');
    if (manual.status !== 'compacted') return;
    assert.equal(manual.entry.firstKeptEntryId, lastUser.id, 'the newest turn is kept verbatim');
    const context = store.buildContext().messages;
    assert.deepEqual(context.map((m) => m.role), ['compactionSummary', 'user', 'assistant']);
    assert.match(provider.prompt(0), /REQUEST-0[\s\S]*REQUEST-1/);
    assert.doesNotMatch(provider.prompt(0), /REQUEST-2/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
