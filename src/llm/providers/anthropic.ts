// Anthropic's Messages API (src/llm/anthropic-messages.ts). Cache writes are 1.25x input (5-minute
// TTL), cache reads 0.1x input.
import type { ProviderDescriptor } from './descriptor';

/** Claude's tokenizer is not public and counts 5-30% more than cl100k. */
export const CLAUDE_ESTIMATE_MARGIN = 1.25;

export const anthropic: ProviderDescriptor<'anthropic'> = {
  id: 'anthropic',
  displayName: 'Anthropic',
  api: 'anthropic-messages',
  defaultBaseUrl: 'https://api.anthropic.com',
  key: 'required',
  keyEnvNames: ['ANTHROPIC_API_KEY'],
  overflowWordings: [
    /prompt is too long/i,
    /input length and `?max_tokens`? exceed context limit/i,
    /request_too_large/i,
  ],
  sdk: { module: '@anthropic-ai/sdk', chunk: 'anthropic' },
  baseUrlSetting: true,
  autoPickRank: 1,
  estimateMargin: CLAUDE_ESTIMATE_MARGIN,
  models: [
    {
      provider: 'anthropic', id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', api: 'anthropic-messages',
      contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true, images: true,
      pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    },
    {
      provider: 'anthropic', id: 'claude-opus-4-5', name: 'Claude Opus 4.5', api: 'anthropic-messages',
      contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true, images: true,
      pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    },
    {
      provider: 'anthropic', id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', api: 'anthropic-messages',
      contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true, images: true,
      pricing: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    },
  ],
};
