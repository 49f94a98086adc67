// The fake LLM server driven through the real OpenAI SDK provider, for summary tests.
import { createProvider } from '../../../src/llm/registry';
import type { ModelInfo } from '../../../src/llm/types';
import type { FakeLlm, FakeRequest } from '../../fake-llm/server.mjs';
import { fastRetry, keys, openaiModel } from '../llm/helpers';
import type { BranchSummarizerDeps } from '../../../src/branch/navigate';

export function summarizer(fake: FakeLlm, overrides: Partial<ModelInfo> = {}, reserveTokens = 16384): BranchSummarizerDeps {
  const model = openaiModel(fake.openaiBaseUrl, overrides);
  return { provider: createProvider(model, keys(), fastRetry().options), model, reserveTokens };
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p: { text?: string }) => p.text ?? '').join('');
  return '';
}

/** System prompt and the single user message of a recorded chat-completions request. */
export function sentPrompt(request: FakeRequest): { system: string; user: string } {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => text(m.content)).join('\n');
  const users = messages.filter((m) => m.role === 'user');
  if (users.length !== 1) throw new Error(`expected one user message, got ${users.length}`);
  return { system, user: text(users[0]!.content) };
}

/** Waits until the fake server has received `count` requests (for aborting mid-stream). */
export async function waitForRequests(fake: FakeLlm, count: number, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (fake.requests.length < count) {
    if (Date.now() - start > timeoutMs) throw new Error(`fake server got ${fake.requests.length} requests, expected ${count}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
