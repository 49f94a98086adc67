// Types for server.mjs (plain JavaScript so non-TS harnesses can run it).

export interface FakeToolCall {
  id?: string;
  name: string;
  input: unknown;
}

export type OverflowFlavor = 'openai' | 'anthropic' | 'llamacpp' | 'lmstudio' | 'vllm' | 'ollama';

export interface FakeError {
  kind: 'rate_limit' | 'overloaded' | 'server' | 'auth' | 'quota' | 'custom';
  status?: number;
  message?: string;
  retryAfterMs?: number;
  retryAfterSeconds?: number;
  shouldRetry?: boolean;
  times?: number;
}

export interface FakeTurn {
  text?: string;
  thinking?: string;
  toolCalls?: FakeToolCall[];
  stop?: 'auto' | 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal' | 'pause_turn' | string;
  /** override reported usage fields (wire names: prompt_tokens… or input_tokens…) */
  usage?: Record<string, unknown>;
  /** OpenAI: report all-zero usage (local servers that do not count) */
  zeroUsage?: boolean;
  /** OpenAI: omit the usage chunk even when include_usage is set */
  omitUsage?: boolean;
  /** force an overflow error body of this flavour */
  overflow?: OverflowFlavor;
  error?: FakeError;
  midStreamError?: { afterChunks: number; message?: string; type?: string; code?: string };
  malformedAfterChunks?: number;
  hangAfterChunks?: number;
  dropAfterChunks?: number;
  endWithoutTerminal?: number;
  delayMs?: number;
  ttfbMs?: number;
  chunkSize?: number;
  /** serve this turn for the next n requests */
  times?: number;
}

/** What the next POST /v1/responses/compact does (default: success). */
export interface FakeCompactBehaviour {
  error?: FakeError;
  /** 200 with a body that is not valid JSON */
  malformed?: boolean;
  /** 200 whose output has no compaction item */
  noCompactionItem?: boolean;
  /** never answer (the socket stays open until the client gives up or reset/close) */
  hang?: boolean;
  ttfbMs?: number;
}

export interface FakeRule {
  when: {
    lastUserIncludes?: string;
    lastUserRegex?: string;
    flags?: string;
    systemIncludes?: string;
    hasToolResult?: boolean;
    model?: string;
    api?: 'openai' | 'anthropic';
  };
  then: FakeTurn;
}

export interface FakeModelConfig {
  contextWindow?: number;
  maxOutputTokens?: number;
  overflowFlavor?: OverflowFlavor;
  strictTotal?: boolean;
  silentTruncate?: boolean;
}

export interface FakeConfig {
  models?: Record<string, FakeModelConfig>;
  defaultModel?: FakeModelConfig;
  minCacheableTokens?: number;
  apiKey?: string;
  reasoningField?: 'reasoning_content' | 'reasoning';
  discovery?: 'vllm' | 'lmstudio' | 'llamacpp' | 'ollama' | 'none';
  strictAnthropic?: boolean;
  /** OpenAI chat completions report automatic prompt caching (cached_tokens) */
  openaiPromptCache?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  api: 'openai' | 'anthropic';
  /** authorization / x-api-key values replaced by "REDACTED" */
  headers: Record<string, string | string[] | undefined>;
  body: any;
  promptTokens: number;
  auth: 'valid' | 'invalid' | 'missing' | 'unchecked';
  time: number;
  /** the usage the answer reported (Anthropic: uncached input, cache writes and reads, output; OpenAI chat: prompt, cached, completion) */
  usage?: Record<string, any>;
}

export interface FakeLlm {
  url: string;
  port: number;
  /** `${url}/v1` for the OpenAI SDK */
  openaiBaseUrl: string;
  /** `url` for the Anthropic SDK (it appends /v1 itself) */
  anthropicBaseUrl: string;
  readonly requests: FakeRequest[];
  readonly queue: FakeTurn[];
  readonly config: FakeConfig;
  enqueue(...turns: (FakeTurn | FakeTurn[])[]): void;
  enqueueCompact(...behaviours: (FakeCompactBehaviour | FakeCompactBehaviour[])[]): void;
  addRule(rule: FakeRule): void;
  configure(config: FakeConfig): void;
  setModel(id: string, config: FakeModelConfig): void;
  reset(): void;
  close(): Promise<void>;
}

export function startFakeLlm(options?: { port?: number; host?: string; config?: FakeConfig }): Promise<FakeLlm>;
export function signThinking(thinking: string): string;
