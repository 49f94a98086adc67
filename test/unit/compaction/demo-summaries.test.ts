// The offline demo model's compaction summaries as the user sees them (issue 25): compactions of a session
// that holds an earlier branch summary, through the runner, the demo provider answering the summary, the
// split-turn and the recap requests. Before the fix the recap was a whole "## Goal" document (every node
// was named "Compaction: Goal") and the branch summary's text, tags and "[x]" landed in "In Progress".
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '../../../src/core/messages';
import { SessionStore } from '../../../src/session/store';
import { CompactionRunner } from '../../../src/compaction/runner';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { createProvider } from '../../../src/llm/registry';
import { DEMO_MODEL, configureDemoServer, disposeDemoModel } from '../../../src/llm/demo';
import { entrySummaryLine } from '../../../src/app/view-model';
import type { CompactionEntry } from '../../../src/session/entries';

after(async () => {
  await disposeDemoModel();
});

const BRANCH_SUMMARY = '## Goal\nTry the streaming approach\n\n## Progress\n### Done\n- [x] BRANCH-ONLY: measured the streaming parser\n\n### In Progress\n- [ ] BRANCH-ONLY: compare memory';

async function turn(store: SessionStore, request: string): Promise<void> {
  await store.appendMessage({ role: 'user', content: `${request} ${'detail '.repeat(150)}`, timestamp: Date.now() });
  await store.appendMessage({
    role: 'assistant',
    content: [{ type: 'text', text: `Done: ${request}. ${'answer '.repeat(150)}` }],
    api: 'demo', provider: 'demo', model: DEMO_MODEL.id, usage: emptyUsage(), stopReason: 'stop', timestamp: Date.now(),
  });
}

/** Summary requests the demo provider was sent (the recap comes in the summary's answer: one per compaction). */
let requests = 0;

function runnerFor(store: SessionStore): CompactionRunner {
  configureDemoServer({ chunkDelayMs: 0 });
  const demo = createProvider(DEMO_MODEL, { get: async () => undefined } as never);
  const provider: typeof demo = { ...demo, stream: (request) => (requests++, demo.stream(request)) };
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 400 };
  return new CompactionRunner({
    store,
    settings: () => settings,
    models: () => ({ current: DEMO_MODEL, available: [DEMO_MODEL] }),
    providerFor: () => provider,
    retry: { baseDelayMs: 1, sleep: async () => {} },
  });
}

function section(summary: string, heading: string): string {
  const start = summary.indexOf(`${heading}\n`);
  assert.ok(start >= 0, `no ${heading} in ${summary}`);
  const rest = summary.slice(start + heading.length + 1);
  const end = rest.search(/^#{2,3} /m);
  return end === -1 ? rest : rest.slice(0, end);
}

test('demo model: compactions read as text, name their node from the goal and keep an earlier summary out of "In Progress"', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-demo-summaries-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const runner = runnerFor(store);
  for (const request of ['Write a CSV parser for invoices', 'Add tests for quoted fields']) await turn(store, request);
  // The user came back from another branch with its summary, then went on.
  await store.branchWithSummary(store.getLeafId(), BRANCH_SUMMARY);
  await turn(store, 'Handle empty lines');
  requests = 0;
  const first = await runner.run({ reason: 'manual' });
  assert.equal(first.status, 'compacted', JSON.stringify(first));
  assert.equal(requests, 1, 'one request: the recap is the answer\'s last section');
  for (const request of ['Support semicolon separators', 'Report the line of a bad row']) await turn(store, request);
  const second = await runner.run({ reason: 'manual' });
  assert.equal(second.status, 'compacted', JSON.stringify(second));
  const entries = store.getBranch().filter((e): e is CompactionEntry => e.type === 'compaction');
  assert.equal(entries.length, 2);
  for (const entry of entries) {
    const shown = `${entry.summary}\n${entry.shortSummary ?? ''}`;
    assert.doesNotMatch(shown, /<\/?summary>|<\/?conversation>/, 'no prompt tags in what the user reads');
    assert.doesNotMatch(section(entry.summary, '### In Progress'), /BRANCH-ONLY|compacted into|summary of a branch/, entry.summary);
    assert.ok(entry.shortSummary, 'a recap was written');
    assert.doesNotMatch(entry.shortSummary!, /^#|\n#/m, `the recap is prose, not a document: ${entry.shortSummary}`);
    assert.match(entry.shortSummary!, /^We worked on: Write a CSV parser for invoices/);
    assert.doesNotMatch(entry.summary, /## Recap/, 'the recap section is cut from the stored summary');
    assert.notEqual(entrySummaryLine(entry), 'Goal');
    assert.match(entrySummaryLine(entry), /^Write a CSV parser for invoices/, entry.summary);
  }
  // The earlier summary's finished work carries over as finished work.
  assert.match(section(entries[0]!.summary, '### Done'), /BRANCH-ONLY: measured the streaming parser/);
  assert.match(section(entries[1]!.summary, '### In Progress'), /Support semicolon separators/, 'the newest summarized request is the one in progress');
});
