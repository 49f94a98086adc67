// Generic remote summarization endpoint: POST {systemPrompt, prompt} → {summary, shortSummary?}.
// The conversation leaves the machine here, so the transport is strict: https, or plain http only to
// this machine (loopback); no credentials of any kind (no Authorization header, no user:pass in the
// URL, no cookies); no redirects (a redirect could lead to a plain-http host); a timeout.

import { isLoopbackHost } from '../llm/key-transport';

export { isLoopbackHost };

export const DEFAULT_REMOTE_TIMEOUT_MS = 120_000;

export class RemoteEndpointRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteEndpointRefused';
  }
}

export interface RemoteSummaryRequest {
  systemPrompt: string;
  prompt: string;
}

export interface RemoteSummaryResponse {
  summary: string;
  shortSummary?: string;
}

export interface RemoteCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/** Validates the endpoint URL against the transport policy; throws RemoteEndpointRefused. */
export function checkRemoteEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new RemoteEndpointRefused(`Remote summarization endpoint "${endpoint}" is not a valid URL.`);
  }
  if (url.username || url.password) {
    throw new RemoteEndpointRefused('Remote summarization endpoint must not contain credentials (user:password@).');
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new RemoteEndpointRefused(
      `Refusing to send the conversation over plain http to ${url.hostname}: use https, or http only to localhost / 127.0.0.1 / ::1.`,
    );
  }
  throw new RemoteEndpointRefused(`Remote summarization endpoint must use https (got ${url.protocol}).`);
}

export async function requestRemoteSummary(
  endpoint: string,
  request: RemoteSummaryRequest,
  options: RemoteCallOptions = {},
): Promise<RemoteSummaryResponse> {
  const url = checkRemoteEndpoint(endpoint);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ systemPrompt: request.systemPrompt, prompt: request.prompt }),
      redirect: 'error',
      credentials: 'omit',
      signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (timeout.aborted) throw new Error(`remote endpoint timed out after ${options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS} ms`);
    throw new Error(`remote endpoint unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new Error(`remote endpoint answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error('remote endpoint answered with invalid JSON');
  }
  return parseRemoteResponse(body);
}

function parseRemoteResponse(body: unknown): RemoteSummaryResponse {
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (typeof record.summary !== 'string' || record.summary.trim() === '') {
    throw new Error('remote endpoint answered without a "summary" string');
  }
  const result: RemoteSummaryResponse = { summary: record.summary };
  if (typeof record.shortSummary === 'string' && record.shortSummary.trim() !== '') result.shortSummary = record.shortSummary;
  return result;
}
