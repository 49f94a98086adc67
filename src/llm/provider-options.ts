import { DEFAULT_RETRY, type RetryOptions } from './retry';
import type { LanguageModelHost } from './vscode-lm/host';

export interface ProviderOptions {
  /** no data for this long ends the stream with an error (default 120 s) */
  idleTimeoutMs?: number;
  /** retry policy; tests inject a fast `sleep` */
  retry?: Partial<RetryOptions>;
  /** overrides model.baseUrl */
  baseUrl?: string;
  /** custom fetch passed to the SDK (tests, proxies) */
  fetch?: typeof fetch;
  /** VS Code's language models, passed in by the extension (absent in Node: those models then fail) */
  languageModels?: LanguageModelHost;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

export interface ResolvedProviderOptions {
  idleTimeoutMs: number;
  retry: RetryOptions;
  baseUrl?: string;
  fetch?: typeof fetch;
}

export function resolveProviderOptions(options: ProviderOptions | undefined): ResolvedProviderOptions {
  return {
    idleTimeoutMs: options?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY, ...(options?.retry ?? {}) },
    baseUrl: options?.baseUrl,
    fetch: options?.fetch,
  };
}
