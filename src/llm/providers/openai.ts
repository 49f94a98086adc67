// OpenAI's own API through Chat Completions (src/llm/openai-completions.ts).
import { OpenAICompletionsProvider } from '../openai-completions';
import type { ProviderDescriptor } from './descriptor';

export const openai: ProviderDescriptor = {
  id: 'openai',
  displayName: 'OpenAI',
  api: 'openai-completions',
  defaultBaseUrl: 'https://api.openai.com/v1',
  key: 'required',
  keyEnvNames: ['OPENAI_API_KEY'],
  overflowWordings: [
    /context[_ ]length[_ ]exceeded/i,
    /maximum context length is \d+/i,
    /reduce the length of the messages/i,
  ],
  sdk: { module: 'openai', chunk: 'openai' },
  baseUrlSetting: true,
  autoPickRank: 2,
  models: [
    {
      provider: 'openai', id: 'gpt-5', name: 'GPT-5', api: 'openai-completions',
      contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true,
      pricing: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    },
    {
      provider: 'openai', id: 'gpt-5-mini', name: 'GPT-5 mini', api: 'openai-completions',
      contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true,
      pricing: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
    },
    {
      provider: 'openai', id: 'gpt-4.1', name: 'GPT-4.1', api: 'openai-completions',
      contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: false,
      pricing: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    },
  ],
  create: (model, keys, options) => new OpenAICompletionsProvider(model, keys, options),
};
