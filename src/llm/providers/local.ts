// An OpenAI-compatible server on the user's machine (llama.cpp, LM Studio, vLLM, Ollama): the model
// `local/<id>` comes from `arbor.providers.local.baseUrl` (src/app/settings.ts), its context window from
// the server (src/llm/context-window.ts). Models the user adds with a `baseUrl` use this wire too.
import type { ProviderDescriptor } from './descriptor';

export const local: ProviderDescriptor<'local'> = {
  id: 'local',
  displayName: 'Local OpenAI-compatible server',
  api: 'openai-compatible',
  key: 'optional',
  keyEnvNames: ['ARBOR_LOCAL_API_KEY'],
  overflowWordings: [
    // llama.cpp
    /exceeds the available context size/i,
    /exceed_context_size_error/i,
    /context size has been exceeded/i,
    /trying to keep the first \d+ tokens when context the overflows/i,
    /cannot truncate prompt with n_keep/i,
    // vLLM
    /is longer than the maximum model length/i,
    /is longer than the model'?s context length/i,
    // LM Studio
    /greater than the context length/i,
    /context length is only \d+ tokens/i,
    // Ollama
    /prompt too long; exceeded (?:max )?context length/i,
  ],
  sdk: { module: 'openai', chunk: 'openai' },
  baseUrlSetting: true,
  models: [],
};
