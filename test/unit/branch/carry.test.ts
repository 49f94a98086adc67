import { test } from 'node:test';
import assert from 'node:assert/strict';
import { insertBranchSummary, forkBranch, NothingToCarry } from '../../../src/branch/carry';
import { BranchSummaryCancelled, UnknownNavigationTarget } from '../../../src/branch/errors';
import { loadTemplate } from '../../../src/core/prompts';
import { TreeSession, call } from './helpers';
import { sentPrompt, summarizer, waitForRequests } from './llm';
import { useFakeLlm } from '../llm/helpers';

const fakeLlm = useFakeLlm();

/** root ─ a ─ (other: o1 ─ o2) and (current: c1 ─ c2 = leaf) */
async function scene() {
  const t = await TreeSession.create();
  const root = await t.user('start');
  const a = await t.assistant('ok');
  const o1 = await t.user('explore the other idea');
  const o2 = await t.assistant('it failed', [call('read', { path: 'other.ts' })]);
  t.at(a);
  const c1 = await t.user('current work');
  const c2 = await t.assistant('going on');
  return { t, root, a, o1, o2, c1, c2 };
}

test('carries the other branch summary into the current leaf without leaving it', async () => {
  const { t, a, o1, o2, c2 } = await scene();
  try {
    fakeLlm().enqueue({ text: '## Goal\nThe other idea.' });
    const result = await insertBranchSummary(t.store, o2, { summarizer: summarizer(fakeLlm()), customInstructions: 'why it failed' });
    assert.equal(result.commonAncestorId, a);
    assert.deepEqual(result.summarizedEntryIds, [o1, o2]);
    const entry = result.summaryEntry;
    assert.equal(entry.parentId, c2);
    assert.equal(entry.fromId, c2);
    assert.equal(t.store.getLeafId(), entry.id);
    assert.ok(entry.summary.startsWith(`${loadTemplate('branch/carry-summary-preamble').trimEnd()}\n\n## Goal\nThe other idea.`));
    assert.ok(entry.summary.endsWith('<read-files>\nother.ts\n</read-files>'));
    const { user } = sentPrompt(fakeLlm().requests[0]!);
    assert.ok(user.includes('explore the other idea') && !user.includes('current work') && !user.includes('[User]: start'));
    assert.ok(user.endsWith('Additional focus: why it failed'));
    const context = t.store.buildContext().messages;
    assert.deepEqual(context.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'branchSummary']);
  } finally {
    await t.dispose();
  }
});

test('a source on the current path has nothing to carry; an unknown source is an error', async () => {
  const { t, a, c2 } = await scene();
  try {
    await assert.rejects(insertBranchSummary(t.store, a, { summarizer: summarizer(fakeLlm()) }), NothingToCarry);
    await assert.rejects(insertBranchSummary(t.store, c2, { summarizer: summarizer(fakeLlm()) }), NothingToCarry);
    await assert.rejects(insertBranchSummary(t.store, 'missing', { summarizer: summarizer(fakeLlm()) }), UnknownNavigationTarget);
    assert.equal(fakeLlm().requests.length, 0);
  } finally {
    await t.dispose();
  }
});

test('cancelling a carry leaves the file byte-identical and the leaf where it was', async () => {
  const { t, o2, c2 } = await scene();
  try {
    const before = await t.bytes();
    fakeLlm().enqueue({ text: 'hangs', chunkSize: 2, hangAfterChunks: 1 });
    const controller = new AbortController();
    const pending = insertBranchSummary(t.store, o2, { summarizer: summarizer(fakeLlm()), signal: controller.signal });
    await waitForRequests(fakeLlm(), 1);
    controller.abort();
    await assert.rejects(pending, BranchSummaryCancelled);
    assert.equal(t.store.getLeafId(), c2);
    assert.deepEqual(await t.bytes(), before);
  } finally {
    await t.dispose();
  }
});

test('forkBranch (from the catalog) copies the current path into a new session', async () => {
  const { t, root, a, c1, c2 } = await scene();
  try {
    const forked = await forkBranch(t.store, c2);
    assert.deepEqual(forked.getBranch().map((e) => e.id), [root, a, c1, c2]);
    assert.equal(forked.header.parentSession, t.store.file);
  } finally {
    await t.dispose();
  }
});
