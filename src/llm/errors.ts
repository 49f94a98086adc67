// Reads the fields that matter for classification out of any error a provider SDK (or fetch) throws,
// without importing the SDKs: both SDKs' APIError carry `status`, `code`, `type`, `headers` and `error`
// (the parsed body), so duck typing keeps this module free of the lazily loaded SDK code.

import { maskEchoes, MIN_RUN } from './secret-echoes';

export interface ErrorFacts {
  status?: number;
  code?: string;
  type?: string;
  /** Anthropic 2026-10-21 `error.details.error_code` */
  errorCode?: string;
  /** best human-readable message (the API's own message when available) */
  message: string;
  headers: Record<string, string>;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

function readHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw) return out;
  if (typeof (raw as Headers).forEach === 'function' && typeof (raw as Headers).get === 'function') {
    (raw as Headers).forEach((value, key) => (out[key.toLowerCase()] = value));
    return out;
  }
  const record = asRecord(raw);
  if (record) for (const [k, v] of Object.entries(record)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
}

/** The nested API error object, whatever the provider's body shape. */
function innerError(body: unknown): Record<string, unknown> | undefined {
  const record = asRecord(body);
  if (!record) return undefined;
  const nested = asRecord(record.error);
  return nested ?? record;
}

/**
 * The SDKs print a body they cannot read a top-level message from as raw JSON (an Anthropic `error`
 * event mid-stream: `{"type":"error","error":{…}}`); the API's own message reads better.
 */
function withoutRawBody(baseMessage: string, apiMessage: string): string {
  const raw = /^(\d{3} )?\s*[{[]/.exec(baseMessage);
  return raw ? `${raw[1] ?? ''}${apiMessage}` : baseMessage;
}

export function errorFacts(err: unknown): ErrorFacts {
  const record = asRecord(err) ?? {};
  const body = record.error;
  const inner = innerError(body);
  const details = asRecord(inner?.details);
  const status = typeof record.status === 'number' ? record.status : undefined;
  const code = str(record.code) ?? str(inner?.code);
  const type = str(record.type) ?? str(inner?.type);
  const apiMessage =
    str(record.apiMessage) ?? str(inner?.message) ?? (typeof body === 'string' ? body : undefined) ?? undefined;
  const baseMessage = err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
  const readable = apiMessage ? withoutRawBody(baseMessage, apiMessage) : baseMessage;
  const message = apiMessage && !readable.includes(apiMessage) ? `${readable}: ${apiMessage}` : readable;
  const cause = asRecord(record.cause);
  const causeMessage = cause && typeof cause.message === 'string' ? cause.message : undefined;
  return {
    status,
    code,
    type,
    errorCode: str(details?.error_code) ?? str(record.errorCode),
    message: causeMessage && !message.includes(causeMessage) ? `${message} (${causeMessage})` : message,
    headers: readHeaders(record.headers),
  };
}

/** Removes every known secret from a text that may end up in an event, a log or a session file. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  // Short secrets only whole; long ones also in part and encoded (secret-echoes.ts).
  for (const secret of secrets) if (secret && secret.length >= 4 && secret.length < MIN_RUN) out = out.split(secret).join('[REDACTED]');
  out = maskEchoes(out, secrets.filter((s): s is string => !!s && s.length >= MIN_RUN), '[REDACTED]');
  // Defence in depth: anything that looks like a bearer token or a well-known key prefix.
  return out
    .replace(/(authorization["':\s]+bearer\s+)[^\s"',}]+/gi, '$1[REDACTED]')
    .replace(/\b(sk-(?:ant-)?[A-Za-z0-9_-]{8,})/g, '[REDACTED]');
}
