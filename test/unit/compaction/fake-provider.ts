// A Provider object that records every request and answers from a script, for summarizer tests.
import { emptyUsage, type AssistantMessage } from '../../../src/core/messages';
import type { ModelInfo, Provider, StreamEvent, StreamRequest } from '../../../src/llm/types';

export const FAKE_MODEL: ModelInfo = {
  provider: 'fake',
  id: 'fake-1',
  name: 'Fake',
  api: 'openai-completions',
  contextWindow: 200_000,
  maxOutputTokens: 32_000,
  reasoning: false,
  pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

export type Answer = string | { error: string } | { aborted: true } | { throw: string };

export class FakeProvider implements Provider {
  readonly requests: StreamRequest[] = [];
  constructor(private readonly script: (request: StreamRequest, index: number) => Answer | Promise<Answer>) {}

  /** Text of the last user message of request `i`. */
  prompt(i: number): string {
    const messages = this.requests[i]!.messages;
    const last = messages[messages.length - 1]!;
    const content = last.content as { type: string; text?: string }[];
    return content.map((c) => c.text ?? '').join('');
  }

  async *stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const index = this.requests.length;
    this.requests.push(request);
    yield { type: 'start' };
    const answer = await this.script(request, index);
    if (typeof answer === 'object' && 'throw' in answer) throw new Error(answer.throw);
    const message: AssistantMessage = {
      role: 'assistant',
      content: typeof answer === 'string' ? [{ type: 'text', text: answer }] : [],
      api: 'openai-completions',
      provider: 'fake',
      model: request.model.id,
      usage: { ...emptyUsage(), input: 100, output: 10, totalTokens: 110 },
      stopReason: typeof answer === 'string' ? 'stop' : 'error' in answer ? 'error' : 'aborted',
      timestamp: Date.now(),
    };
    if (typeof answer === 'object' && 'error' in answer) message.errorMessage = answer.error;
    yield { type: 'done', message };
  }
}
