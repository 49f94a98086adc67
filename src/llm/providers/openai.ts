// OpenAI's own API: the Responses API by default (src/llm/openai-responses.ts: reasoning replayed across
// turns, native compaction), Chat Completions for a model whose `api` says `openai-completions`.
import type { ProviderDescriptor } from './descriptor';

export const openai: ProviderDescriptor<'openai'> = {
  id: 'openai',
  displayName: 'OpenAI',
  api: 'openai-responses',
  alsoServes: ['openai-completions'],
  defaultBaseUrl: 'https://api.openai.com/v1',
  key: 'required',
  keyEnvNames: ['OPENAI_API_KEY'],
  overflowWordings: [
    /context[_ ]length[_ ]exceeded/i,
    /maximum context length is \d+/i,
    /reduce the length of the messages/i,
    /your input exceeds the context window/i,
  ],
  sdk: { module: 'openai', chunk: 'openai' },
  baseUrlSetting: true,
  autoPickRank: 2,
  models: [
    {
      provider: 'openai', id: 'gpt-5', name: 'GPT-5', api: 'openai-responses',
      contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true, images: true, nativeCompaction: true,
      pricing: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    },
    {
      provider: 'openai', id: 'gpt-5-mini', name: 'GPT-5 mini', api: 'openai-responses',
      contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true, images: true, nativeCompaction: true,
      pricing: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
    },
    {
      provider: 'openai', id: 'gpt-4.1', name: 'GPT-4.1', api: 'openai-responses',
      contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: false, images: true, nativeCompaction: true,
      pricing: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    },
  ],
};
