// Markers tell the truth (issue 17): every compaction entry records in `details` why it ran, the tokens
// estimated right after it, which model wrote the summary and what the summarizer calls cost, so a reload
// shows the same figures. Before the fix the details held only the file lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '../../../src/core/messages';
import { CompactionRunner } from '../../../src/compaction/runner';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import type { Provider, StreamEvent, StreamRequest } from '../../../src/llm/types';
import { SessionStore } from '../../../src/session/store';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { chars, wellFormedSummary } from './fixtures';

/** The fake summarizer, each reply billed 1,000 in / 200 out at $0.25. */
class Billed implements Provider {
  calls = 0;
  private readonly inner = new FakeProvider((req) => (JSON.stringify(req.messages).includes('Write a recap') ? 'We compacted.' : wellFormedSummary('D')));
  async *stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    for await (const event of this.inner.stream(request)) {
      if (event.type !== 'done') yield event;
      else {
        this.calls++;
        const cost = { ...emptyUsage().cost, total: 0.25 };
        yield { ...event, message: { ...event.message, usage: { ...emptyUsage(), input: 1000, output: 200, totalTokens: 1200, cost } } };
      }
    }
  }
}

test('a compaction entry records reason, tokensAfter, the summarizer model and its cost in details', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-details-'));
  try {
    const store = await SessionStore.create({ dir, cwd: dir });
    for (let i = 0; i < 6; i++) {
      await store.appendMessage({ role: 'user', content: `REQUEST-${i} ${chars(400)}`, timestamp: Date.now() });
      await store.appendMessage({
        role: 'assistant', content: [{ type: 'text', text: `ANSWER-${i} ${chars(400)}` }],
        api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason: 'stop', timestamp: Date.now(),
      });
    }
    const provider = new Billed();
    const runner = new CompactionRunner({
      store,
      settings: () => ({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 800 }),
      models: () => ({ current: FAKE_MODEL, available: [FAKE_MODEL] }),
      providerFor: () => provider,
    });
    const outcome = await runner.run({ reason: 'threshold' });
    assert.equal(outcome.status, 'compacted');
    const reopened = await SessionStore.open(store.file);
    const entry = reopened.getBranch().at(-1) as { type: string; tokensBefore: number; details: Record<string, unknown> };
    assert.equal(entry.type, 'compaction');
    const details = entry.details;
    assert.equal(details.reason, 'threshold');
    assert.equal(typeof details.tokensAfter, 'number');
    assert.ok((details.tokensAfter as number) > 0 && (details.tokensAfter as number) < entry.tokensBefore, `tokensAfter ${details.tokensAfter} < ${entry.tokensBefore}`);
    assert.deepEqual(details.summarizer, { provider: 'fake', id: 'fake-1' });
    assert.deepEqual(details.cost, { calls: provider.calls, input: 1000 * provider.calls, output: 200 * provider.calls, total: 0.25 * provider.calls });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
