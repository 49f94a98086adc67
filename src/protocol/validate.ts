// Parsing helpers used on both sides of the webview boundary. They never throw: an invalid message comes
// back as a readable reason, so the receiver can log it and drop it.
import type { z } from 'zod';
import {
  hostToWebviewSchema,
  webviewToHostSchema,
  type HostToWebviewMessage,
  type WebviewToHostMessage,
} from './messages';

export type ParseResult<T> = { ok: true; message: T } | { ok: false; reason: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): ParseResult<T> {
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(raw);
  } catch (error) {
    // Only reachable with values postMessage cannot carry (throwing getters, proxies); refuse them too.
    return { ok: false, reason: `(message): unreadable (${error instanceof Error ? error.message : String(error)})`.slice(0, 500) };
  }
  if (result.success) return { ok: true, message: result.data };
  const reason = result.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(message)'}: ${issue.message}`)
    .join('; ');
  return { ok: false, reason };
}

/** Host side: validates something the webview posted. */
export function parseWebviewMessage(raw: unknown): ParseResult<WebviewToHostMessage> {
  return parseWith(webviewToHostSchema, raw);
}

/** Webview side: validates something the host posted. */
export function parseHostMessage(raw: unknown): ParseResult<HostToWebviewMessage> {
  return parseWith(hostToWebviewSchema, raw);
}

/** A short, log-safe rendering of a rejected message (bounded, so a huge payload cannot flood logs). */
export function describeRaw(raw: unknown, max = 200): string {
  let text: string;
  try {
    text = JSON.stringify(raw) ?? String(raw);
  } catch {
    text = String(raw);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
