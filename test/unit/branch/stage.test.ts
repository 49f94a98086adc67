// "Summarize from here": what the summarizer sees (the stage, nothing before it), the path the model gets
// afterwards (everything before the stage, then one summary), the originals kept, the user's words kept
// verbatim, and every refusal or cancel leaving the file byte for byte as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planStage, summarizeStage, type StagePlan } from '../../../src/branch/stage';
import { loadTemplate } from '../../../src/core/prompts';
import { PIN_CUSTOM_TYPE, pinData } from '../../../src/session/pins';
import { TreeSession, call } from './helpers';
import { sentPrompt, summarizer, waitForRequests } from './llm';
import { useFakeLlm } from '../llm/helpers';

const fakeLlm = useFakeLlm();

/** u1 ─ a1 ─ [stage: u2 ─ a2(read) ─ r2 ─ pin(u2) ─ u3 ─ a3] = leaf */
async function scene() {
  const t = await TreeSession.create();
  const u1 = await t.user('Set up the project.');
  const a1 = await t.assistant('Project set up.');
  const u2 = await t.user('Stage two: write the exporter. Never add runtime dependencies. The id format is ACME-####.');
  await t.assistant('', [call('read', { path: 'src/api.ts' })]);
  await t.toolResult('api source', 'call-read-src/api.ts');
  await t.store.appendCustomEntry(PIN_CUSTOM_TYPE, pinData(u2, true));
  await t.user('Now the tests.');
  const a3 = await t.assistant('Exporter and tests done.');
  return { t, u1, a1, u2, a3 };
}

function planned(t: TreeSession, fromId: string): StagePlan {
  const result = planStage(t.store.getBranch(), fromId);
  assert.equal(result.status, 'planned');
  return (result as { plan: StagePlan }).plan;
}

test('the summarizer sees the stage only; the path becomes what came before plus one summary; the originals stay', async () => {
  const { t, u1, a1, u2, a3 } = await scene();
  try {
    const plan = planned(t, u2);
    assert.equal(plan.parentId, a1);
    assert.equal(plan.leafId, a3);
    assert.deepEqual(
      plan.userWords.verbatim.map((m) => [m.text, m.pinned ?? false]),
      [['Stage two: write the exporter. Never add runtime dependencies. The id format is ACME-####.', true], ['Now the tests.', false]],
      'every message of the user in the stage is kept whole, the pinned one marked',
    );
    fakeLlm().enqueue({ text: '## Goal\nThe exporter.' });
    const outcome = await summarizeStage(t.store, plan, { summarizer: summarizer(fakeLlm()), customInstructions: 'the test plan', label: 'stage 2' });
    assert.equal(outcome.status, 'summarized');
    if (outcome.status !== 'summarized') return;
    const { user } = sentPrompt(fakeLlm().requests[0]!);
    assert.ok(user.includes('Stage two: write the exporter') && user.includes('Now the tests.') && user.includes('Exporter and tests done.'));
    assert.ok(!user.includes('Set up the project.') && !user.includes('Project set up.'), 'nothing before the stage');
    assert.ok(user.includes(loadTemplate('branch/stage-summary').split('\n')[0]!.trim()), 'the stage prompt, not the abandoned-branch one');
    assert.ok(user.endsWith('Additional focus: the test plan'));

    const entry = outcome.entry;
    assert.equal(entry.type, 'branch_summary');
    assert.equal(entry.parentId, a1, 'a new branch off the chosen entry’s parent');
    assert.equal(t.store.getLeafId(), entry.id);
    const details = entry.details as Record<string, unknown>;
    assert.deepEqual(
      { readFiles: details.readFiles, modifiedFiles: details.modifiedFiles, stage: details.stage, verbatim: (details.userWords as { verbatim: unknown }).verbatim },
      { readFiles: ['src/api.ts'], modifiedFiles: [], stage: { fromEntryId: u2, leafId: a3, label: 'stage 2' }, verbatim: plan.userWords.verbatim },
    );
    assert.ok(entry.summary.startsWith(loadTemplate('branch/stage-summary-preamble').trimEnd()));
    // the summarizer lost the user's words: they are in the summary verbatim anyway
    assert.ok(entry.summary.includes(`<user-message entry="${u2}" pinned="true">\nStage two: write the exporter. Never add runtime dependencies. The id format is ACME-####.\n</user-message>`));
    assert.ok(entry.summary.includes('\nNow the tests.\n'), 'an ordinary message too (the classifier would have dropped it)');

    const context = t.store.buildContext().messages;
    assert.deepEqual(context.map((m) => m.role), ['user', 'assistant', 'branchSummary']);
    assert.equal(context[0]!.role === 'user' && context[0]!.content, 'Set up the project.');
    // one click away: the originals are still the other child of a1, ending at a3
    assert.deepEqual(t.store.getBranch(a3).map((e) => e.id).slice(0, 3), [u1, a1, u2]);
    assert.deepEqual(t.store.getChildren(a1).map((e) => e.id), [u2, entry.id]);
  } finally {
    await t.dispose();
  }
});

test('refusals: off the path, a stage holding a compaction, nothing but metadata after the entry', async () => {
  const t = await TreeSession.create();
  try {
    const u1 = await t.user('one');
    const a1 = await t.assistant('two');
    const other = await t.user('other branch');
    t.at(a1);
    await t.user('three');
    const c = await t.compaction('## Goal\nx', u1);
    await t.assistant('four');
    const label = (await t.store.appendLabelChange(a1, 'done')).id;
    const path = t.store.getBranch();
    assert.equal(planStage(path, other).status, 'refused');
    assert.deepEqual(planStage(path, u1), { status: 'refused', why: 'spans-compaction', message: 'The stage contains a compaction: summarize from an entry after it.' });
    assert.equal((planStage(path, c) as { why?: string }).why, 'spans-compaction');
    assert.equal((planStage(path, label) as { why?: string }).why, 'nothing-to-summarize');
    assert.equal(planStage(path, path.at(-2)!.id).status, 'planned');
  } finally {
    await t.dispose();
  }
});

test('a cancel while summarizing, a failure and a leaf that moved leave the file byte-identical', async () => {
  const { t, u2 } = await scene();
  try {
    const before = await t.bytes();
    const controller = new AbortController();
    fakeLlm().enqueue({ text: 'this never completes', chunkSize: 2, hangAfterChunks: 1 });
    const running = summarizeStage(t.store, planned(t, u2), { summarizer: summarizer(fakeLlm()), signal: controller.signal });
    await waitForRequests(fakeLlm(), 1);
    controller.abort();
    assert.deepEqual(await running, { status: 'cancelled' });
    fakeLlm().enqueue({ error: { kind: 'server', status: 400, message: 'bad request body', shouldRetry: false } });
    assert.equal((await summarizeStage(t.store, planned(t, u2), { summarizer: summarizer(fakeLlm()) })).status, 'failed');
    const plan = planned(t, u2);
    t.at(u2);
    assert.equal((await summarizeStage(t.store, plan, { summarizer: summarizer(fakeLlm()) })).status, 'refused');
    assert.deepEqual(await t.bytes(), before);
  } finally {
    await t.dispose();
  }
});
