// Context-overflow detection: "the request did not fit into the model's context window", as opposed
// to every other failure. Overflow is never retried; the agent compacts and retries instead. The
// pattern list is the consolidated one (pi's list extended with local servers), and rate-limit and
// throttling texts are excluded first because they often mention "tokens" too.
import type { AssistantMessage } from '../core/messages';
import { errorFacts, type ErrorFacts } from './errors';
import { PROVIDERS } from './providers';

const NOT_OVERFLOW = [
  /rate.?limit/i,
  /too many requests/i,
  /tokens per min/i,
  /^(Throttling|Service unavailable)/i,
  /maximum allowed number of output tokens/i,
];

// Wordings of services reached through compatible endpoints or gateways; each provider in the table
// (providers/<id>.ts) brings its own.
const SHARED_OVERFLOW = [
  /exceeds the context window/i,
  /exceeds (?:the )?(?:model'?s )?maximum context length/i,
  /prompt contains at least \d+ input tokens/i,
  /input length.*exceeds.*context length/i,
  /input token count.*exceeds the maximum/i,
  /too large for model with \d+ maximum context length/i,
  /maximum prompt length is \d+/i,
  /input is too long for requested model/i,
  /exceeded model token limit/i,
  /context window exceeds limit/i,
  /model_context_window_exceeded/i,
  /token limit exceeded/i,
  /too many tokens/i,
];

// OpenAI's 429 "Request too large for <model> … (TPM): Limit M, Requested N": one request above the
// per-minute limit can never succeed by waiting, so it is handled like an overflow (compact, or show
// the limit), never retried. Checked before the rate-limit exclusions, which it would otherwise hit.
let overflowWordings: readonly RegExp[] | undefined;

/** Shared wordings plus every provider's, gathered on first use (the table imports the providers). */
function overflowPatterns(): readonly RegExp[] {
  overflowWordings ??= [...SHARED_OVERFLOW, ...PROVIDERS.flatMap((p) => p.overflowWordings)];
  return overflowWordings;
}

const REQUEST_ABOVE_LIMIT = /request too large\b.*\blimit\b/i;

const NO_BODY = /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i;

/** True when an error message (as stored in `errorMessage`) describes a context overflow. */
export function isOverflowMessage(text: string): boolean {
  if (REQUEST_ABOVE_LIMIT.test(text)) return true;
  if (NOT_OVERFLOW.some((p) => p.test(text))) return false;
  return overflowPatterns().some((p) => p.test(text)) || NO_BODY.test(text.trim());
}

export type ErrorKind =
  | 'overflow'
  | 'rate_limit'
  | 'quota'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'timeout'
  | 'auth'
  | 'aborted'
  | 'invalid_request'
  /** the server answered with a redirect, which Arbor never follows with a key (key-transport.ts) */
  | 'redirect'
  | 'unknown';

const KINDS: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['overflow', 'rate_limit', 'quota', 'overloaded', 'server', 'network', 'timeout', 'auth', 'aborted', 'invalid_request', 'redirect', 'unknown']);

export interface ClassifiedError {
  kind: ErrorKind;
  /** worth retrying after a delay (never true for overflow) */
  retryable: boolean;
  /** server-requested delay (retry-after-ms / retry-after), when given */
  retryAfterMs?: number;
  status?: number;
  code?: string;
  type?: string;
  message: string;
}

/** Parses `retry-after-ms` (exact) or `retry-after` (seconds or HTTP date). */
export function retryAfterFromHeaders(headers: Record<string, string>, now = Date.now()): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers['retry-after'];
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function isAbortError(err: unknown, facts: ErrorFacts): boolean {
  const name = err instanceof Error ? err.name : '';
  return name === 'AbortError' || name === 'APIUserAbortError' || /request was aborted/i.test(facts.message);
}

function kindOf(err: unknown, f: ErrorFacts): ErrorKind {
  const text = [f.code, f.type, f.message].filter(Boolean).join(' ');
  if (isAbortError(err, f)) return 'aborted';
  if (f.code === 'context_length_exceeded' || f.type === 'exceed_context_size_error') return 'overflow';
  if (REQUEST_ABOVE_LIMIT.test(text)) return 'overflow';
  if (f.code === 'insufficient_quota' || f.errorCode === 'enforced_spend_limit_reached') return 'quota';
  if (f.status === 429 || /rate.?limit|too many requests/i.test(text)) return 'rate_limit';
  if (isOverflowMessage(text)) return 'overflow';
  if (f.status === 413 || (f.status === 400 && /\(no body\)/i.test(f.message))) return 'overflow';
  if (f.status === 529 || /overloaded/i.test(text)) return 'overloaded';
  if (f.status === 401 || f.status === 403) return 'auth';
  if (/timed? ?out|timeout/i.test(text)) return 'timeout';
  if (f.status !== undefined && f.status >= 500) return 'server';
  if (f.status === 408 || f.status === 409) return 'server';
  if (f.status !== undefined && f.status >= 300 && f.status < 400) return 'redirect';
  if (f.status !== undefined && f.status >= 400) return 'invalid_request';
  if (/connection|terminated|socket|network|fetch failed|ECONNRESET|ECONNREFUSED|EPIPE|other side closed/i.test(text)) return 'network';
  if (/server.?error|internal.?error|api_error|service.?unavailable/i.test(text)) return 'server';
  return 'unknown';
}

const RETRYABLE: ReadonlySet<ErrorKind> = new Set(['rate_limit', 'overloaded', 'server', 'network', 'timeout']);

/** Whether an error of this kind is worth another attempt (a kind this file does not know: undefined). */
export function isRetryableKind(kind: string): boolean | undefined {
  return KINDS.has(kind as ErrorKind) ? RETRYABLE.has(kind as ErrorKind) : undefined;
}

/** Classifies anything a provider SDK throws, using status, code, type, message and retry headers. */
export function classifyProviderError(err: unknown): ClassifiedError {
  const facts = errorFacts(err);
  const kind = kindOf(err, facts);
  let retryable = RETRYABLE.has(kind);
  const shouldRetry = facts.headers['x-should-retry'];
  if (kind !== 'overflow' && kind !== 'aborted') {
    if (shouldRetry === 'true') retryable = true;
    if (shouldRetry === 'false') retryable = false;
  }
  return {
    kind,
    retryable,
    retryAfterMs: retryAfterFromHeaders(facts.headers),
    status: facts.status,
    code: facts.code,
    type: facts.type,
    message: facts.message,
  };
}

/**
 * pi semantics: an error whose message is an overflow; or a "successful" reply whose reported input
 * already exceeds the window (silent overflow, e.g. z.ai); or a `length` stop with zero output while
 * the input fills the window (the server truncated instead of generating).
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  if (message.stopReason === 'error') {
    if (message.errorMessage && isOverflowMessage(message.errorMessage)) return true;
    if (message.errorKind === 'overflow') return true;
  }
  if (!contextWindow || contextWindow <= 0) return false;
  const input = message.usage.input + message.usage.cacheRead + message.usage.cacheWrite;
  if (message.stopReason === 'stop' && input > contextWindow) return true;
  if (message.stopReason === 'length' && message.usage.output === 0 && input >= 0.99 * contextWindow) return true;
  return false;
}
