import type { AssistantMessage, LlmMessage, UserMessage } from '../../../src/core/messages';
import type { ModelInfo, Provider, StreamEvent, StreamRequest } from '../../../src/llm/types';
import type { ProviderOptions } from '../../../src/llm/provider-options';
import { after, before, beforeEach } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server.mjs';

export const OPENAI_KEY = 'sk-test-OPENAI-secret-1234567890';
export const ANTHROPIC_KEY = 'sk-ant-test-ANTHROPIC-secret-0987654321';

export function keys(map: Record<string, string | undefined> = { openai: OPENAI_KEY, anthropic: ANTHROPIC_KEY }) {
  return { getKey: async (provider: string) => map[provider] };
}

/** One fake LLM server for the calling test file, reset before each test; call the getter inside tests. */
export function useFakeLlm(): () => FakeLlm {
  let fake: FakeLlm | undefined;
  before(async () => {
    fake = await startFakeLlm();
  });
  after(async () => {
    await fake?.close();
  });
  beforeEach(() => fake?.reset());
  return () => fake!;
}

/** Retry options with a recording, instant sleep: no real 2 s waits in tests. */
export function fastRetry() {
  const delays: number[] = [];
  const options: ProviderOptions = {
    idleTimeoutMs: 2000,
    retry: {
      sleep: async (ms: number, signal?: AbortSignal) => {
        delays.push(ms);
        if (signal?.aborted) return;
      },
    },
  };
  return { delays, options };
}

export function openaiModel(baseUrl: string, overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    provider: 'openai', id: 'fake-gpt', name: 'Fake GPT', api: 'openai-completions', baseUrl,
    contextWindow: 128_000, maxOutputTokens: 1024, reasoning: false,
    pricing: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    ...overrides,
  };
}

export function anthropicModel(baseUrl: string, overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    provider: 'anthropic', id: 'fake-claude', name: 'Fake Claude', api: 'anthropic-messages', baseUrl,
    contextWindow: 200_000, maxOutputTokens: 4096, reasoning: true,
    pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    ...overrides,
  };
}

export function user(text: string): UserMessage {
  return { role: 'user', content: text, timestamp: Date.now() };
}

export function request(model: ModelInfo, messages: LlmMessage[], extra: Partial<StreamRequest> = {}): StreamRequest {
  return { model, systemPrompt: 'You are a test assistant.', messages, ...extra };
}

export async function collect(provider: Provider, req: StreamRequest): Promise<{ events: StreamEvent[]; message: AssistantMessage }> {
  const events: StreamEvent[] = [];
  for await (const event of provider.stream(req)) events.push(event);
  const done = events.filter((e) => e.type === 'done');
  if (done.length !== 1) throw new Error(`expected exactly one done event, got ${done.length}`);
  if (events[events.length - 1]!.type !== 'done') throw new Error('done must be the last event');
  return { events, message: (done[0] as { message: AssistantMessage }).message };
}

export function textOf(message: AssistantMessage): string {
  return message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
