// Issue #16: Arbor writes `usage` on its own branch-summary entries (pi 1.5's field), so the summarizer
// call counts in the session cost at once and after a reload. Before, the entry had no usage and the
// cost of every summary was lost.
import { accepted } from './outcome';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appHarness } from './helpers';
import { SessionStore } from '../../../src/session/store';
import { entryCost } from '../../../src/session/entry-fields';
import type { BranchSummaryEntry } from '../../../src/session/entries';

function lastSessionCost(changes: readonly { kind: string }[]): number | undefined {
  const usage = changes.filter((c): c is { kind: 'usage'; usage: { sessionCost: number } } => c.kind === 'usage').at(-1);
  return usage?.usage.sessionCost;
}

test('a branch summary records its summarizer usage; the session cost counts it now and after a reload', async () => {
  const h = await appHarness();
  const pricing = { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 0 };
  h.setRaw({ models: [{ provider: 'openai', id: 'fake-gpt', name: 'Fake GPT', api: 'openai-completions', baseUrl: h.fake.openaiBaseUrl, contextWindow: 128000, maxOutputTokens: 1024, pricing }] });
  await h.app.applySettings();
  h.fake.enqueue({ text: 'A1' });
  await h.app.prompt('first question');
  const user = h.app.snapshot().conversation.find((e) => e.kind === 'user')!;
  await h.app.tree.navigate(user.id);
  h.fake.enqueue({ text: 'A2' });
  await h.app.prompt('second question');
  const a1 = h.app.snapshot().tree!.find((n) => n.firstLine === 'A1')!;
  h.fake.enqueue({ text: '## Goal\nSecond question explored.' });
  const result = accepted(await h.app.tree.navigate(a1.id, { summarize: true }));
  const summary = result.summaryEntry as BranchSummaryEntry;
  assert.ok(summary.usage, 'the branch summary entry carries usage');
  assert.ok(summary.usage.input > 0 && summary.usage.cost.total > 0, JSON.stringify(summary.usage));

  const file = h.app.snapshot().session!.file;
  const reopened = await SessionStore.open(file);
  const stored = reopened.getEntry(summary.id) as BranchSummaryEntry;
  assert.deepEqual(stored.usage, summary.usage, 'usage is written to the file');
  const total = reopened.getEntries().reduce((sum, e) => sum + entryCost(e), 0);
  const replies = reopened.getEntries().filter((e) => e.type === 'message').reduce((sum, e) => sum + entryCost(e), 0);
  assert.ok(total > replies, 'the summary adds to what the replies cost');
  assert.ok(Math.abs(lastSessionCost(h.changes)! - total) < 1e-12, `live session cost ${lastSessionCost(h.changes)} = ${total}`);

  const again = await appHarness();
  await again.app.session.openSession(file);
  const reloaded = again.app.snapshot().usage?.sessionCost;
  assert.ok(reloaded !== undefined && Math.abs(reloaded - total) < 1e-12, `after a reload: ${reloaded} = ${total}`);
});
