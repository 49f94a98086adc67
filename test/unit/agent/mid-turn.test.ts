// Mid-turn maintenance (issue 17; omp's `midTurnEnabled`): a long tool loop passes the threshold between
// steps, so the threshold is checked between tool-loop steps too. A 40-step run of big tool output in a
// small window never overflows: compactions happen between steps and the run finishes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyUsage, type AssistantMessage } from '../../../src/core/messages';
import type { Provider, StreamEvent, StreamRequest } from '../../../src/llm/types';
import { fileEntries, harness, summaryText } from './session-helpers';

const WINDOW = 12_000;
const STEPS = 40;

/** Counts prompt tokens as chars/4 of what it is sent and answers like a server with a 12k window. */
class WindowedToolLoop implements Provider {
  agentSteps = 0;
  overflows = 0;
  summaries = 0;

  async *stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const prompt = Math.ceil(JSON.stringify([request.systemPrompt, request.messages, request.tools ?? []]).length / 4);
    yield { type: 'start' };
    yield { type: 'done', message: this.answer(request, prompt) };
  }

  private answer(request: StreamRequest, prompt: number): AssistantMessage {
    const reply = (content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason']): AssistantMessage => ({
      role: 'assistant', content, api: 'openai-completions', provider: request.model.provider, model: request.model.id,
      usage: { ...emptyUsage(), input: prompt, output: 20, totalTokens: prompt + 20 }, stopReason, timestamp: Date.now(),
    });
    if (prompt > WINDOW) {
      this.overflows++;
      return { ...reply([], 'error'), usage: emptyUsage(), errorMessage: `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${prompt} tokens.` };
    }
    if (request.systemPrompt.includes('context checkpoints')) {
      this.summaries++;
      return reply([{ type: 'text', text: summaryText(`S${this.summaries}`) }], 'stop');
    }
    if (this.agentSteps >= STEPS) return reply([{ type: 'text', text: 'all 40 steps done' }], 'stop');
    this.agentSteps++;
    return reply([{ type: 'toolCall', id: `call_${this.agentSteps}`, name: 'read', arguments: { path: `big${this.agentSteps % 3}.txt` } }], 'toolUse');
  }
}

test('a 40-step tool loop with big outputs in a small window never overflows: compactions run between steps', async () => {
  const provider = new WindowedToolLoop();
  const files = Object.fromEntries([0, 1, 2].map((i) => [`big${i}.txt`, `${i} ${'lorem ipsum dolor sit amet '.repeat(220)}`]));
  const h = await harness({
    files,
    model: { contextWindow: WINDOW },
    settings: { reserveTokens: 2000, keepRecentTokens: 3000 },
    deps: { providerFactory: () => provider },
  });
  await h.agent.prompt('read the big files forty times');
  const entries = await fileEntries(h.store);
  assert.equal(provider.overflows, 0, 'no request was larger than the window');
  assert.ok(!entries.includes('assistant:error'));
  assert.equal(provider.agentSteps, STEPS);
  // A background summary that became due may be committed after the last reply (below the threshold).
  assert.equal(entries.filter((e) => e !== 'compaction').at(-1), 'assistant:stop', 'the run finished');
  const compactions = entries.filter((e) => e === 'compaction').length;
  assert.ok(compactions >= 2, `compactions between steps: ${compactions}`);
  assert.ok(!h.events.some((e) => e.type === 'error'), JSON.stringify(h.events.filter((e) => e.type === 'error')));
});
