// Issue 25, "compaction never makes things worse, and the figures agree": a compaction that would not
// shrink the context is refused with a typed outcome and writes nothing (before the model is asked when
// the plan alone shows it, after the summary when the summary is what makes it grow); the preview, the
// marker and the meter count the context with one computation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '../../../src/core/messages';
import { SessionStore } from '../../../src/session/store';
import { CompactionRunner } from '../../../src/compaction/runner';
import { CompactionHookRegistry } from '../../../src/compaction/hooks';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { contextTokensOf } from '../../../src/agent/compaction-triggers';
import { estimateTokens } from '../../../src/compaction/tokens';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { chars, wellFormedSummary } from './fixtures';

const OVERHEAD = 1500;

async function session(turns: number, size: number): Promise<SessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-never-worse-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  for (let i = 0; i < turns; i++) {
    await store.appendMessage({ role: 'user', content: `REQUEST-${i} ${chars(size)}`, timestamp: Date.now() });
    await store.appendMessage({
      role: 'assistant', content: [{ type: 'text', text: `ANSWER-${i} ${chars(size)}` }],
      api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason: 'stop', timestamp: Date.now(),
    });
  }
  return store;
}

function runnerFor(store: SessionStore, provider: FakeProvider, hooks?: CompactionHookRegistry, keepRecentTokens = 800): CompactionRunner {
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens };
  return new CompactionRunner({
    store,
    settings: () => settings,
    models: () => ({ current: FAKE_MODEL, available: [FAKE_MODEL] }),
    providerFor: () => provider,
    fixedOverheadTokens: () => OVERHEAD,
    ...(hooks ? { hooks } : {}),
    retry: { baseDelayMs: 1, sleep: async () => {} },
  });
}

/** What the status-bar meter shows for the store's current context (AgentSession.usage()). */
function meter(store: SessionStore): number {
  const figures = contextTokensOf(store.buildContext().messages, estimateTokens, () => OVERHEAD);
  return figures.contextTokens ?? figures.estimatedTokens;
}

test('a small session is not compacted: refused before the model is asked, typed, nothing written', async () => {
  const store = await session(2, 150);
  const before = await readFile(store.file, 'utf8');
  const provider = new FakeProvider(() => wellFormedSummary('SMALL'));
  const runner = runnerFor(store, provider);
  const preview = runner.preview();
  assert.ok(preview, 'the preview exists: it says why');
  assert.equal(preview.shrinks, false, `preview ${preview.tokensBefore} → ${preview.estimatedTokensAfter}`);
  assert.ok(preview.estimatedTokensAfter >= preview.tokensBefore, 'the preview shows the growth, not a clamped figure');
  const outcome = await runner.run({ reason: 'manual' });
  assert.equal(outcome.status, 'skipped');
  assert.equal(outcome.status === 'skipped' && outcome.why, 'would-not-shrink');
  assert.match(outcome.status === 'skipped' ? outcome.message : '', /would not make the context smaller/);
  assert.equal(provider.requests.length, 0, 'no model call for a compaction that cannot shrink the context');
  assert.equal(await readFile(store.file, 'utf8'), before, 'the file is byte-identical');
});

test('a summary larger than what it replaces is refused after it is written, and nothing is saved', async () => {
  const store = await session(6, 400);
  const before = await readFile(store.file, 'utf8');
  const provider = new FakeProvider(() => `${wellFormedSummary('HUGE')}\n${chars(20_000, 'h ')}`);
  const runner = runnerFor(store, provider);
  assert.equal(runner.preview()!.shrinks, true, 'the plan shrinks the context');
  const outcome = await runner.run({ reason: 'threshold' });
  assert.equal(outcome.status, 'skipped', JSON.stringify(outcome).slice(0, 300));
  assert.equal(outcome.status === 'skipped' && outcome.why, 'would-not-shrink');
  assert.equal(await readFile(store.file, 'utf8'), before, 'the file is byte-identical');
});

test('preview, marker and meter: the same before and after figures, from one computation', async () => {
  const store = await session(6, 400);
  const hooks = new CompactionHookRegistry();
  const runner = runnerFor(store, new FakeProvider(() => 'unused'), hooks);
  const preview = runner.preview()!;
  assert.equal(preview.tokensBefore, meter(store), 'the preview\'s "before" is what the meter shows now');
  // A summary exactly as large as the preview expected: every "after" figure must then be the same number.
  hooks.register({ beforeCompact: () => ({ compaction: { summary: 's'.repeat(preview.summaryTokens * 4), firstKeptEntryId: preview.preparation.firstKeptEntryId, tokensBefore: preview.tokensBefore } }) });
  const outcome = await runner.run({ reason: 'manual' });
  assert.equal(outcome.status, 'compacted', JSON.stringify(outcome).slice(0, 300));
  if (outcome.status !== 'compacted') return;
  assert.equal(outcome.entry.tokensBefore, preview.tokensBefore, 'the marker\'s "before" is the preview\'s');
  assert.equal(outcome.entry.tokensAfter, preview.estimatedTokensAfter, 'the marker\'s "after" is the preview\'s');
  assert.equal(meter(store), outcome.entry.tokensAfter, 'the meter right after shows the marker\'s "after"');
});
