// The chunks of an OpenAI-compatible chat stream and what their usage means. Servers differ: Groq
// reports usage only inside `x_groq`; xAI leaves reasoning tokens out of `completion_tokens` (total =
// prompt + completion + reasoning) where OpenAI and DeepSeek include them; OpenRouter can send its
// usage on the same chunk as an `error` object (docs/architecture.md, providers).
import type { Usage } from '../core/messages';
import { ProviderStreamError, errorFieldBody } from './stream-error';
import type { SseEvent } from './sse';

export interface OpenAIUsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export interface ChunkLike {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: OpenAIUsageLike | null;
  x_groq?: { usage?: OpenAIUsageLike | null } | null;
  /** an error object inside a 200 stream (OpenAI, OpenRouter, llama.cpp, LM Studio) */
  error?: unknown;
}

/** One SSE event as a chunk, or "done" for [DONE]; an `error:` field or unparsable data throws. */
export function parseChunk(sse: SseEvent): ChunkLike | 'done' {
  if (sse.field === 'error') throw new ProviderStreamError(errorFieldBody(sse.data));
  const data = sse.data.trim();
  if (data === '[DONE]') return 'done';
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new Error(`The provider sent a malformed stream chunk: ${data.slice(0, 200)}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`The provider sent a malformed stream chunk: ${data.slice(0, 200)}`);
  return parsed as ChunkLike;
}

export function chunkUsage(chunk: ChunkLike): OpenAIUsageLike | undefined {
  return chunk.usage ?? chunk.x_groq?.usage ?? undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Writes a reported usage into Arbor's usage: cached prompt tokens apart, reasoning counted as output. */
export function applyOpenAIUsage(target: Usage, u: OpenAIUsageLike): void {
  const prompt = count(u.prompt_tokens);
  const completion = count(u.completion_tokens);
  const cached = Math.min(prompt, count(u.prompt_tokens_details?.cached_tokens));
  const reasoning = count(u.completion_tokens_details?.reasoning_tokens);
  const reasoningOutside = reasoning > 0 && count(u.total_tokens) === prompt + completion + reasoning;
  target.input = prompt - cached;
  target.cacheRead = cached;
  target.output = completion + (reasoningOutside ? reasoning : 0);
}
