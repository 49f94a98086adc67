// Background compaction through the agent (issue 17): a conversation that walks into the band below the
// threshold gets its summary written ahead of time, and the threshold compaction commits it without
// another summarizer call; when that background summary failed, the normal threshold compaction runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyUsage, type AssistantMessage } from '../../../src/core/messages';
import type { Provider, StreamEvent, StreamRequest } from '../../../src/llm/types';
import { fileEntries, harness, summaryText } from './session-helpers';
import { AUTO_CONTINUE_CUSTOM_TYPE } from '../../../src/agent/context-maintainer';
import type { AutoCompactionQuestion, CompactionConfirmer } from '../../../src/agent/auto-compaction-confirm';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction';

const WINDOW = 12_000; // reserveTokens 2000 → threshold 10,000; keepRecentTokens 3000 → band from 8,500

/** Reports chars/4 of each request as its prompt tokens; summarizer calls fail while `failSummaries` > 0. */
class CountingModel implements Provider {
  summarizerCalls = 0;
  /** `summaryMs`: each summary call takes this long (turns take no time), as with fast turns */
  constructor(public failSummaries = 0, private readonly summaryMs = 0) {}

  async *stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const prompt = Math.ceil(JSON.stringify([request.systemPrompt, request.messages, request.tools ?? []]).length / 4);
    // the transcript form (the summarizer's system prompt) or the continuation of the conversation
    const summarizer = request.systemPrompt.includes('context checkpoints') || JSON.stringify(request.messages.at(-1)).includes('<kept-start>');
    if (summarizer) this.summarizerCalls++;
    const reply: AssistantMessage = {
      role: 'assistant', content: [{ type: 'text', text: summarizer ? summaryText(`S${this.summarizerCalls}`) : 'ok' }],
      api: 'openai-completions', provider: request.model.provider, model: request.model.id,
      usage: { ...emptyUsage(), input: prompt, output: 5, totalTokens: prompt + 5 }, stopReason: 'stop', timestamp: Date.now(),
    };
    yield { type: 'start' };
    if (summarizer && this.summaryMs > 0) await new Promise((resolve) => setTimeout(resolve, this.summaryMs));
    if (summarizer && this.failSummaries > 0) {
      this.failSummaries--;
      yield { type: 'done', message: { ...reply, content: [], stopReason: 'error', errorMessage: 'invalid request' } };
      return;
    }
    yield { type: 'done', message: reply };
  }
}

async function converse(failSummaries: number, autoContinue = false, confirmer?: CompactionConfirmer, summaryMs = 0) {
  const provider = new CountingModel(failSummaries, summaryMs);
  const logs: string[] = [];
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, remoteEnabled: false, reserveTokens: 2000, keepRecentTokens: 3000, autoContinue, warnBeforeAuto: confirmer !== undefined };
  const h = await harness({
    model: { contextWindow: WINDOW },
    settings,
    deps: {
      providerFactory: () => provider, log: (m) => logs.push(m),
      ...(confirmer ? { compaction: { settings: () => settings, retry: { baseDelayMs: 1, sleep: async () => {} }, confirmer } } : {}),
    },
  });
  let callsAtThreshold: number | undefined;
  for (let i = 0; i < 14 && !h.store.getBranch().some((e) => e.type === 'compaction'); i++) {
    callsAtThreshold = provider.summarizerCalls;
    await h.agent.prompt(`step ${i}: ${'words to fill the context '.repeat(150)}`);
  }
  return { provider, logs, h, callsAtThreshold: callsAtThreshold ?? 0 };
}

test('through the agent: the summary is written in the band and committed at the threshold with no new summarizer call', async () => {
  const { provider, logs, h, callsAtThreshold } = await converse(0);
  const entries = await fileEntries(h.store);
  assert.equal(entries.filter((e) => e === 'compaction').length, 1, entries.join(','));
  assert.ok(logs.some((l) => l.startsWith('background compaction: summarizing')), logs.join('\n'));
  assert.ok(logs.some((l) => l.startsWith('background compaction: committing')), logs.join('\n'));
  assert.equal(provider.summarizerCalls, callsAtThreshold, `the threshold turn made no summarizer call\n${logs.join("\n")}`);
});

test('through the agent: a failed background summary is only logged, and the threshold compacts as usual', async () => {
  const { logs, h } = await converse(1);
  const entries = await fileEntries(h.store);
  assert.equal(entries.filter((e) => e === 'compaction').length, 1, entries.join(','));
  assert.ok(logs.some((l) => l.startsWith('background compaction failed')), logs.join('\n'));
  assert.ok(!h.events.some((e) => e.type === 'error'), 'no error shown to the user');
});

test('through the agent: a summary committed in the band, below the threshold, does not make a finished run go on (no auto-continue)', async () => {
  const { logs, h } = await converse(0, true);
  const commit = logs.map((l) => /committing the summary written at \d+ tokens \(now (\d+)\)/.exec(l)).find((m) => m);
  assert.ok(commit, logs.join('\n'));
  assert.ok(Number(commit[1]) < 10_000, `committed below the threshold (${commit[1]})`);
  const hidden = h.store.getBranch().filter((e) => e.type === 'custom_message' && e.customType === AUTO_CONTINUE_CUSTOM_TYPE);
  assert.equal(hidden.length, 0, 'no hidden continue message');
});

test('through the agent, with warnBeforeAuto: no early commit, so the user is asked once, at the threshold, not before', async () => {
  const asked: AutoCompactionQuestion[] = [];
  const confirmer: CompactionConfirmer = { confirm: async (question) => (asked.push(question), 'compact') };
  const { logs, h } = await converse(0, false, confirmer);
  const entries = await fileEntries(h.store);
  assert.equal(entries.filter((e) => e === 'compaction').length, 1, entries.join(','));
  assert.equal(asked.length, 1, JSON.stringify(asked));
  assert.ok(asked[0]!.contextTokens >= asked[0]!.threshold, `asked at ${asked[0]!.contextTokens}, threshold ${asked[0]!.threshold}`);
  assert.ok(logs.some((l) => l.startsWith('background compaction: committing')), 'the background summary is still what is committed');
});


test('through the agent: right after a background commit the next summary starts when the context is in the band (issue 25: the next threshold comes one summary time later at fast turns)', async () => {
  const { logs } = await converse(0, false, undefined, 150);
  const committed = logs.findIndex((l) => l.startsWith('background compaction: committing'));
  assert.ok(committed >= 0, logs.join('\n'));
  assert.ok(logs.slice(committed + 1).some((l) => l.startsWith('background compaction: summarizing')), `no prompt came after the commit, yet the next summary started\n${logs.join('\n')}`);
});
