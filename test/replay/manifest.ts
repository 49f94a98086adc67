// The replay manifests: one JSON file per recorded case (test/replay/fixtures/<case>.manifest.json)
// naming the wire API, the responses the server gives request after request, and everything the
// provider must make of them. Loading validates the shape so a typo fails loudly, not silently.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderApi } from '../../src/llm/types';
import type { ScriptedResponse } from './replay-server';

export const FIXTURE_DIR = join(__dirname, 'fixtures');

export interface ExpectedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface Expectation {
  text: string;
  thinking?: string;
  toolCalls: { id: string; name: string; arguments: Record<string, unknown> }[];
  /** exact token counts, or "estimated" for servers that report none */
  usage?: ExpectedUsage | 'estimated';
  stopReason: string;
  /** message.errorKind; null: none */
  errorKind: string | null;
  errorIncludes?: string;
  errorMessage?: string;
  /** isContextOverflow(message, contextWindow) */
  overflow?: boolean;
  /** usage.reasoning (Responses: output_tokens_details.reasoning_tokens, counted in output too) */
  reasoningTokens?: number;
  /** HTTP requests made (1 + retries) */
  requests: number;
  /** the retry delays asked for */
  delays?: number[];
  /** a content block the next request must carry back in the assistant message */
  nextTurnSends?: Record<string, unknown>;
}

export interface ReplayCase {
  name: string;
  about: string;
  api: Exclude<ProviderApi, 'demo'>;
  contextWindow?: number;
  responses: ScriptedResponse[];
  expect: Expectation;
}

interface RawResponse {
  status: number;
  body: string;
  headers?: Record<string, string>;
  end?: 'close' | 'reset';
}

function loadResponse(raw: RawResponse): ScriptedResponse {
  return { status: raw.status, headers: raw.headers, end: raw.end, body: readFileSync(join(FIXTURE_DIR, raw.body)) };
}

function loadCase(file: string): ReplayCase {
  const raw = JSON.parse(readFileSync(join(FIXTURE_DIR, file), 'utf8'));
  const name = file.replace(/\.manifest\.json$/, '');
  for (const key of ['about', 'api', 'responses', 'expect']) if (!(key in raw)) throw new Error(`${file}: missing "${key}"`);
  for (const key of ['text', 'toolCalls', 'stopReason', 'errorKind', 'requests']) if (!(key in raw.expect)) throw new Error(`${file}: expect lacks "${key}"`);
  return { ...raw, name, responses: (raw.responses as RawResponse[]).map(loadResponse) };
}

export function loadReplayCases(): ReplayCase[] {
  return readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.manifest.json')).sort().map(loadCase);
}
