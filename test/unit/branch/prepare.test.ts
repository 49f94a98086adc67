import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareBranchEntries } from '../../../src/branch/prepare';
import { computeFileLists } from '../../../src/compaction/file-ops';
import type { SessionEntry } from '../../../src/session/entries';
import { TreeSession, call, chars } from './helpers';

async function withSession(run: (t: TreeSession) => Promise<void>): Promise<void> {
  const t = await TreeSession.create();
  try {
    await run(t);
  } finally {
    await t.dispose();
  }
}

function entriesOf(t: TreeSession, ids: string[]): SessionEntry[] {
  return ids.map((id) => t.store.getEntry(id)!);
}

test('without a budget every message is included, oldest first; tool results are skipped', () =>
  withSession(async (t) => {
    const u = await t.user('please read a');
    const a = await t.assistant('reading', [call('read', { path: 'a.ts' })]);
    const r = await t.toolResult(chars(5000));
    const a2 = await t.assistant('done');
    const label = (await t.store.appendLabelChange(u, 'start')).id;
    const prepared = prepareBranchEntries(entriesOf(t, [u, a, r, a2, label]), 0);
    assert.deepEqual(prepared.includedEntryIds, [u, a, a2]);
    assert.deepEqual(prepared.messages.map((m) => m.role), ['user', 'assistant', 'assistant']);
    assert.ok(!prepared.messages.some((m) => m.role === 'toolResult'));
  }));

test('with a budget the newest messages win and the walk stops at the first that does not fit', () =>
  withSession(async (t) => {
    const ids = [
      await t.user(chars(10)),
      await t.assistant(chars(100)),
      await t.user(chars(100)),
      await t.assistant(chars(100)),
    ];
    const prepared = prepareBranchEntries(entriesOf(t, ids), 250);
    assert.deepEqual(prepared.includedEntryIds, ids.slice(2));
    assert.equal(prepared.totalTokens, 200);
    // the small first message would still fit, but the walk has stopped: no gaps in the kept suffix
    const exact = prepareBranchEntries(entriesOf(t, ids), 300);
    assert.deepEqual(exact.includedEntryIds, ids.slice(1));
    assert.equal(exact.totalTokens, 300);
    assert.deepEqual(prepareBranchEntries(entriesOf(t, ids), 310).includedEntryIds, ids);
  }));

test('0.9 rule: a branch summary that overflows is still included while under 90 % of the budget', () =>
  withSession(async (t) => {
    const s = await t.summary(chars(500));
    const u = await t.user(chars(80));
    const prepared = prepareBranchEntries(entriesOf(t, [s, u]), 100);
    assert.deepEqual(prepared.includedEntryIds, [s, u]);
    assert.equal(prepared.messages[0]!.role, 'branchSummary');
    assert.ok(prepared.totalTokens > 100, 'the budget edge was crossed on purpose');
  }));

test('0.9 rule: at or above 90 % used, the overflowing summary is dropped', () =>
  withSession(async (t) => {
    const s = await t.summary(chars(500));
    const u = await t.user(chars(90));
    const prepared = prepareBranchEntries(entriesOf(t, [s, u]), 100);
    assert.deepEqual(prepared.includedEntryIds, [u]);
    assert.equal(prepared.totalTokens, 90);
  }));

test('0.9 rule does not apply to ordinary messages, and applies to compactions as compactionSummary', () =>
  withSession(async (t) => {
    const big = await t.assistant(chars(500));
    const u = await t.user(chars(10));
    assert.deepEqual(prepareBranchEntries(entriesOf(t, [big, u]), 100).includedEntryIds, [u]);
    const k = await t.compaction(chars(500), big);
    const u2 = await t.user(chars(10));
    const prepared = prepareBranchEntries(entriesOf(t, [big, u, k, u2]), 100);
    assert.deepEqual(prepared.includedEntryIds, [k, u2]);
    const first = prepared.messages[0]!;
    assert.equal(first.role, 'compactionSummary');
    assert.equal((first as { summary: string }).summary, chars(500));
  }));

test('file tracking is cumulative through nested branch summaries; compaction and hook-provided details are not used', () =>
  withSession(async (t) => {
    const outer = await t.summary('earlier branch', { readFiles: ['old-read.ts', 'both.ts'], modifiedFiles: ['old-mod.ts'] });
    const k = await t.compaction('compacted', outer, { readFiles: ['compacted-read.ts'], modifiedFiles: ['compacted-mod.ts'] });
    const hook = await t.summary('from a hook', { readFiles: ['hook.ts'], modifiedFiles: ['hook-mod.ts'] }, true);
    const a = await t.assistant(chars(2000), [call('read', { path: 'new-read.ts' }), call('edit', { path: 'both.ts' }), call('bash', { path: 'ignored.sh' })]);
    const a2 = await t.assistant('write', [call('write', { path: 'new-file.ts' })]);
    // Budget so small that the first assistant message is not included: its files still count.
    const prepared = prepareBranchEntries(entriesOf(t, [outer, k, hook, a, a2]), 10);
    assert.deepEqual(prepared.includedEntryIds, [a2]);
    // A compaction's lists cover history before the common ancestor too; the abandoned branch's own
    // messages are all collected, so their files are counted from the messages themselves.
    assert.deepEqual(computeFileLists(prepared.fileOps), {
      readFiles: ['new-read.ts', 'old-read.ts'],
      modifiedFiles: ['both.ts', 'new-file.ts', 'old-mod.ts'],
    });
  }));

test('custom messages are included; empty branch summaries are not', () =>
  withSession(async (t) => {
    const c = await t.custom('injected note');
    const empty = await t.summary('');
    const prepared = prepareBranchEntries(entriesOf(t, [c, empty]), 0);
    assert.deepEqual(prepared.includedEntryIds, [c]);
    assert.equal(prepared.messages[0]!.role, 'custom');
  }));
