// The offline demo model (src/llm/demo/): needs no key and no network, the fallback of automatic choice.
import type { ModelInfo } from '../types';
import { FREE, type ProviderDescriptor } from './descriptor';

export const DEMO_MODEL: ModelInfo = {
  provider: 'demo',
  id: 'arbor-demo',
  name: 'Arbor Demo (offline)',
  api: 'demo',
  contextWindow: 32_768,
  maxOutputTokens: 4096,
  reasoning: false,
  // takes images so the offline demo shows the whole attach-and-send flow (it only counts them)
  images: true,
  pricing: { ...FREE },
};

export const demo: ProviderDescriptor<'demo'> = {
  id: 'demo',
  displayName: 'Arbor Demo',
  api: 'demo',
  key: 'none',
  keyEnvNames: [],
  overflowWordings: [],
  baseUrlSetting: false,
  models: [DEMO_MODEL],
};
