// The one provider interface. Every provider (OpenAI, Anthropic, OpenAI-compatible, the offline demo
// model) streams a request as events and always ends with exactly one `done` event carrying a final,
// normalized assistant message. Failures never throw out of `stream()`: they end as a final message
// with stopReason "error" or "aborted" and an `errorMessage`.
import type { AssistantMessage, LlmMessage, ToolCall, Usage } from '../core/messages';

export type ThinkingLevel = 'off' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export type ProviderApi = 'openai-responses' | 'openai-completions' | 'anthropic-messages' | 'openai-compatible' | 'vscode-lm' | 'demo';

export interface ModelInfo {
  /** provider id, one of the table in providers/index.ts or a user-defined one */
  provider: string;
  /** model id sent on the wire */
  id: string;
  name: string;
  api: ProviderApi;
  /** base URL override (OpenAI-compatible servers, tests) */
  baseUrl?: string;
  contextWindow: number;
  maxOutputTokens: number;
  reasoning: boolean;
  /** reads image input (src/llm/image-input.ts); absent = text only */
  images?: boolean;
  /** USD per million tokens */
  pricing: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** "provider/id" of a larger-window model to switch to instead of compacting (context promotion) */
  promoteTo?: string;
  /** the provider's native compaction works for this model (docs/architecture.md "Native compaction") */
  nativeCompaction?: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
}

export interface StreamRequest {
  model: ModelInfo;
  systemPrompt: string;
  messages: LlmMessage[];
  tools?: ToolDefinition[];
  /** 'none': the tools stay in the request (so a provider's prompt cache still hits) but must not be called */
  toolChoice?: 'auto' | 'none';
  maxTokens?: number;
  thinkingLevel?: ThinkingLevel;
  /** 'none': no cache breakpoints (a one-off request whose prefix is never sent again: a cache write costs more) */
  promptCache?: 'none';
  signal?: AbortSignal;
  /**
   * true: the caller retries a failed request itself (compaction's candidate loop), so the provider makes
   * one attempt. Retries are owned by one layer, never multiplied (docs/reliability.md, "retries").
   */
  callerRetries?: boolean;
}

export type StreamEvent =
  | { type: 'start' }
  | { type: 'text_delta'; contentIndex: number; delta: string }
  | { type: 'thinking_delta'; contentIndex: number; delta: string }
  | { type: 'toolcall_start'; contentIndex: number; id: string; name: string }
  | { type: 'toolcall_delta'; contentIndex: number; delta: string }
  | { type: 'toolcall_end'; contentIndex: number; toolCall: ToolCall }
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: 'done'; message: AssistantMessage };

export interface Provider {
  stream(request: StreamRequest): AsyncIterable<StreamEvent>;
}

/** Resolves API keys; implemented over SecretStorage in the extension, over env vars in tests/CLI. */
export interface KeyResolver {
  getKey(provider: string): Promise<string | undefined>;
}

/** Convenience: run a stream to completion and return its final message. */
export async function complete(provider: Provider, request: StreamRequest): Promise<AssistantMessage> {
  let final: AssistantMessage | undefined;
  for await (const event of provider.stream(request)) if (event.type === 'done') final = event.message;
  if (!final) throw new Error('provider stream ended without a final message');
  return final;
}

export type { Usage };
