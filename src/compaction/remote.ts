// Generic remote summarization endpoint: POST {systemPrompt, prompt} → {summary, shortSummary?}.
// The conversation leaves the machine here, so the transport is strict: https, or plain http only to
// this machine (loopback); no credentials of any kind (no Authorization header, no user:pass in the
// URL, no cookies); no redirects (a redirect could lead to a plain-http host); a timeout. The answer is
// read with a size cap and a stall deadline (bounded-body.ts), each reported as its own clear error.

import { isLoopbackHost } from '../llm/key-transport';
import { describeBytes, readBoundedBody, type BodyLimits, type BodyRead } from './bounded-body';

export { isLoopbackHost };

export const DEFAULT_REMOTE_TIMEOUT_MS = 120_000;
/** A summary is text for a prompt; an answer larger than this is refused (never buffered whole). */
export const DEFAULT_REMOTE_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Headers arrived, then no byte of the body for this long: reported as a timeout. */
export const DEFAULT_REMOTE_STALL_TIMEOUT_MS = 30_000;

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
  /** the whole request, answer included */
  timeoutMs?: number;
  /** longest silence while reading the answer */
  stallTimeoutMs?: number;
  maxResponseBytes?: number;
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
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`remote endpoint answered HTTP ${response.status}`);
  }
  const limits = {
    maxBytes: options.maxResponseBytes ?? DEFAULT_REMOTE_MAX_RESPONSE_BYTES,
    stallMs: options.stallTimeoutMs ?? DEFAULT_REMOTE_STALL_TIMEOUT_MS,
  };
  const read = await readBoundedBody(response, limits, signal);
  if (!read.ok) {
    if (options.signal?.aborted) throw new Error('remote summarization was cancelled');
    throw new Error(describeFailedRead(read, limits, options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS));
  }
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    throw new Error('remote endpoint answered with invalid JSON');
  }
  return parseRemoteResponse(body);
}

function describeFailedRead(read: Exclude<BodyRead, { ok: true }>, limits: BodyLimits, timeoutMs: number): string {
  switch (read.reason) {
    case 'too-large':
      return `remote endpoint answer is larger than ${describeBytes(limits.maxBytes)}; not used`;
    case 'stalled':
      return `remote endpoint timed out: no data for ${limits.stallMs} ms while sending its answer`;
    case 'aborted':
      return `remote endpoint timed out after ${timeoutMs} ms (the answer was not complete)`;
    case 'failed':
      return `remote endpoint connection failed while sending its answer: ${read.detail}`;
  }
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
