// Public surface of the llm layer (no SDK is evaluated by importing this: they load on first request).
export * from './types';
export { createProvider, type ProviderOptions } from './registry';
export { BUILTIN_MODELS, DEMO_MODEL, resolveModels, findModel, modelKey, costFor, type ModelSettingsResult, type UserModelSetting } from './models';
export { loadTokenizer, isTokenizerLoaded, countTextTokens, estimateMessageTokens, calculateContextTokens, contextTokens, applyModelMargin, CLAUDE_ESTIMATE_MARGIN, type ContextTokens } from './tokens';
export { isContextOverflow, isOverflowMessage, classifyProviderError, retryAfterFromHeaders, type ClassifiedError, type ErrorKind } from './overflow';
export { DEFAULT_RETRY, abortableSleep, type RetryOptions } from './retry';
export { envKeyResolver, chainKeyResolvers, staticKeyResolver, envKeyNames } from './keys';
export { detectContextWindow, type DetectedContextWindow, type DetectOptions } from './context-window';
export { redactSecrets } from './errors';
export { PROVIDERS, providerById, providerForApi, type ProviderDescriptor } from './providers';
export { getDemoProvider, disposeDemoModel, configureDemoServer } from './demo';
