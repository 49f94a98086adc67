// Markers tell the truth (issue 17): a compaction marker shows tokens before → after, the estimate saved
// in the entry until the next request exists and then that request's real figure, plus the summarizer
// and its cost; a branch-summary marker shows its summarizer and cost. All derived from the file, so a
// reload shows the same. Preview, marker and meter count the same things (system prompt and tools too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage, type AssistantMessage } from '../../../src/core/messages';
import { estimateTokens } from '../../../src/compaction/tokens';
import { buildPreview } from '../../../src/compaction/preview';
import { prepareCompactionAt } from '../../../src/compaction/prepare';
import { SessionStore } from '../../../src/session/store';
import { conversationOfPath, conversationSlice } from '../../../src/app/view-model';
import { measuresCompaction } from '../../../src/present/marker-figures';
import { toItem } from '../../../src/vscode/chat-items';
import { harness, summaryText } from '../agent/session-helpers';

const reply = (text: string, input: number): AssistantMessage => ({
  role: 'assistant', content: [{ type: 'text', text }], api: 'openai-completions', provider: 'fake', model: 'fake-1',
  usage: { ...emptyUsage(), input, output: 10, totalTokens: input + 10 }, stopReason: 'stop', timestamp: Date.now(),
});

async function compactedSession(dir: string): Promise<SessionStore> {
  const store = await SessionStore.create({ dir, cwd: dir });
  await store.appendMessage({ role: 'user', content: 'first question', timestamp: Date.now() });
  await store.appendMessage(reply('first answer', 2600));
  const kept = store.getLeafId()!;
  await store.appendCompaction({
    summary: '## Goal\nthe parser', firstKeptEntryId: kept, tokensBefore: 2600, tokensAfter: 731,
    details: { readFiles: [], modifiedFiles: [], tokensAfter: 731, summarizer: { provider: 'fake', id: 'fake-small' }, cost: { calls: 2, input: 900, output: 80, total: 0.0125 } },
  });
  return store;
}

const compactionItem = (store: SessionStore) => {
  const views = conversationOfPath(store.getBranch(), () => undefined);
  const item = toItem(views.find((v) => v.kind === 'compaction')!);
  assert.equal(item?.kind, 'compaction');
  return item as Extract<NonNullable<ReturnType<typeof toItem>>, { kind: 'compaction' }>;
};

test('before the next request the marker shows the saved estimate, marked as one, with summarizer and cost', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-marker-'));
  try {
    const item = compactionItem(await compactedSession(dir));
    assert.equal(item.tokensBefore, 2600);
    assert.equal(item.tokensAfter, 731);
    assert.equal(item.tokensAfterEstimated, true);
    assert.equal(item.model, 'fake-small');
    assert.equal(item.cost, 0.0125);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the next reply makes it real (its prompt tokens less what was added after), and a reload shows the same', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-marker-'));
  try {
    const store = await compactedSession(dir);
    const prompt = { role: 'user' as const, content: 'next question after the compaction', timestamp: Date.now() };
    await store.appendMessage(prompt);
    await store.appendMessage(reply('next answer', 812));
    const first = store.getEntry(store.getLeafId()!)!;
    assert.ok(measuresCompaction(first, (id) => store.getEntry(id)), 'the first reply after it re-sends the marker');
    const expected = 812 - estimateTokens(prompt);
    const item = compactionItem(store);
    assert.equal(item.tokensAfter, expected);
    assert.equal(item.tokensAfterEstimated, undefined);
    const slice = conversationSlice(store.getBranch(), store.getBranch().length, 200, () => undefined);
    assert.equal(slice.views.find((v) => v.kind === 'compaction')?.tokensAfter, expected, 'the windowed tail says the same');

    await store.appendMessage({ role: 'user', content: 'another', timestamp: Date.now() });
    await store.appendMessage(reply('another answer', 990));
    assert.ok(!measuresCompaction(store.getEntry(store.getLeafId()!)!, (id) => store.getEntry(id)));
    assert.equal(compactionItem(store).tokensAfter, expected, 'later replies do not change it');

    const reopened = await SessionStore.open(store.file);
    const again = compactionItem(reopened);
    assert.deepEqual([again.tokensBefore, again.tokensAfter, again.tokensAfterEstimated, again.model, again.cost], [2600, expected, undefined, 'fake-small', 0.0125]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('preview, marker and meter agree: same tokens before, and the meter after a compaction is the marker estimate', async () => {
  const h = await harness({ settings: { keepRecentTokens: 60, reserveTokens: 1000 } });
  for (let i = 0; i < 3; i++) {
    h.fake.enqueue({ text: `ANSWER-${i} ${'lorem ipsum '.repeat(160)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
  const preview = h.agent.compactionRunner.preview()!;
  h.fake.enqueue({ text: summaryText('AGREE') }, { text: 'We agreed.' });
  const outcome = await h.agent.compact();
  assert.equal(outcome.status, 'compacted');
  const entry = outcome.status === 'compacted' ? outcome.entry : undefined;
  const details = entry?.details as { tokensAfter: number };
  assert.equal(entry?.tokensBefore, preview.tokensBefore, 'preview and marker: same tokens before');
  const usage = h.agent.usage();
  assert.equal(usage.contextTokens, null, 'no reply since the compaction: the meter estimates');
  assert.equal(usage.estimatedTokens, details.tokensAfter, 'meter ≈ marker estimate');
  const withoutOverhead = buildPreview(preview.preparation).estimatedTokensAfter;
  assert.ok(preview.estimatedTokensAfter > withoutOverhead, 'the preview counts the system prompt and tools after, as before and as the marker does');
});

test('a chosen cut (Compact Up To Here) is previewed like the marker: same tokens before, overhead counted after', async () => {
  const h = await harness({ settings: { keepRecentTokens: 60, reserveTokens: 1000 } });
  for (let i = 0; i < 3; i++) {
    h.fake.enqueue({ text: `ANSWER-${i} ${'lorem ipsum '.repeat(160)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
  const branch = h.store.getBranch();
  const lastUser = [...branch].reverse().find((e) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'user')!;
  const plan = prepareCompactionAt(branch, h.settings, lastUser.id);
  assert.ok(plan.ok);
  const preview = h.agent.compactionRunner.previewOf(plan.preparation);
  assert.ok(preview.estimatedTokensAfter > buildPreview(plan.preparation).estimatedTokensAfter, 'the system prompt and tools are counted after');
  h.fake.enqueue({ text: summaryText('CUT') });
  const outcome = await h.agent.compactionRunner.run({ reason: 'manual', keepFrom: lastUser.id });
  assert.equal(outcome.status, 'compacted');
  assert.equal(outcome.status === 'compacted' ? outcome.entry.tokensBefore : -1, preview.tokensBefore, 'preview and marker: same tokens before');
});
