import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPrunePlan, applyPruning, planPruning, pruneNotice } from '../../../src/compaction/pruning';
import type { SessionEntry } from '../../../src/session/entries';
import { PathBuilder, chars } from './fixtures';

function session(resultTokens: number[], toolName = 'bash'): { b: PathBuilder; ids: string[] } {
  const b = new PathBuilder();
  const ids: string[] = [];
  for (const tokens of resultTokens) {
    b.user('go');
    b.assistant('', [b.toolCall(toolName, {})]);
    ids.push(b.toolResult(chars(tokens), toolName));
  }
  return { b, ids };
}

test('protects the newest 40k tokens of tool output and prunes older output when ≥ 20k is saved', () => {
  const { b, ids } = session([15_000, 15_000, 20_000, 20_000]);
  const plan = planPruning(b.entries);
  assert.deepEqual([...plan.prune.keys()].sort(), [ids[0], ids[1]].sort());
  const noticeTokens = Math.ceil(pruneNotice(15_000).length / 4);
  assert.equal(plan.tokensSaved, 2 * (15_000 - noticeTokens));
  const pruned = applyPrunePlan(b.entries, plan, 42);
  const message = (pruned[b.index(ids[0]!)] as { message: { content: { text: string }[]; prunedAt: number } }).message;
  assert.equal(message.content[0]!.text, '[Output truncated - 15000 tokens]');
  assert.equal(message.prunedAt, 42);
  assert.equal(pruned[b.index(ids[3]!)], b.entries[b.index(ids[3]!)], 'untouched entries are the same objects');
});

test('the newest output is protected even when it alone is larger than the 40k window', () => {
  const { b, ids } = session([30_000, 30_000, 60_000]);
  const plan = planPruning(b.entries);
  assert.equal(plan.prune.has(ids[2]!), false, 'the output the model just produced is never pruned');
  assert.deepEqual([...plan.prune.keys()].sort(), [ids[0], ids[1]].sort());
});

test('read, skill and already-pruned output count toward the protected 40k (only they are never pruned)', () => {
  const b = new PathBuilder();
  const older: string[] = [];
  for (const tokens of [25_000, 25_000]) {
    b.user('go');
    b.assistant('', [b.toolCall('bash', {})]);
    older.push(b.toolResult(chars(tokens), 'bash'));
  }
  b.user('go');
  b.assistant('', [b.toolCall('read', {})]);
  const read = b.toolResult(chars(45_000), 'read');
  const plan = planPruning(b.entries);
  assert.equal(plan.prune.has(read), false);
  assert.deepEqual([...plan.prune.keys()].sort(), [...older].sort(), 'the newest 45k of read output fills the window');
});

test('does nothing when the saving is below 20k', () => {
  const { b } = session([10_000, 20_000, 20_000]);
  assert.equal(planPruning(b.entries).prune.size, 0);
});

test('never prunes read or skill output, nor output already pruned', () => {
  const { b } = session([30_000, 30_000, 30_000], 'read');
  assert.equal(planPruning(b.entries).prune.size, 0);
  const { b: again } = session([30_000, 30_000, 30_000]);
  const once = applyPrunePlan(again.entries, planPruning(again.entries));
  assert.equal(planPruning(once).prune.size, 0);
});

test('only looks at the live context (after the latest compaction)', () => {
  const { b } = session([30_000, 30_000]);
  const keep = b.user('after');
  b.compaction('S', keep);
  b.assistant('', [b.toolCall('bash', {})]);
  b.toolResult(chars(15_000));
  b.assistant('', [b.toolCall('bash', {})]);
  b.toolResult(chars(15_000));
  assert.equal(planPruning(b.entries).prune.size, 0, 'old outputs are already out of the context');
  b.assistant('', [b.toolCall('bash', {})]);
  b.toolResult(chars(30_000));
  b.assistant('', [b.toolCall('bash', {})]);
  b.toolResult(chars(15_000));
  assert.equal(planPruning(b.entries).prune.size, 2, 'live outputs beyond the newest 40k are pruned');
});

test('applyPruning rewrites through the store and returns the tokens saved', async () => {
  const { b, ids } = session([30_000, 30_000, 30_000]);
  let rewritten: SessionEntry[] | undefined;
  const store = {
    getBranch: () => b.entries,
    rewriteEntries: async (mutator: (entries: SessionEntry[]) => SessionEntry[]) => {
      rewritten = mutator([...b.entries]);
    },
  };
  const saved = await applyPruning(store);
  assert.ok(saved >= 20_000);
  assert.ok(rewritten);
  assert.match(JSON.stringify(rewritten![b.index(ids[0]!)]), /Output truncated - 30000 tokens/);
  const noop = { getBranch: () => session([100]).b.entries, rewriteEntries: () => assert.fail('must not rewrite') };
  assert.equal(await applyPruning(noop), 0);
});
