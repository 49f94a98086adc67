// Where an API key may travel (issue #14, docs/reliability.md "Threat model"): over https to any host,
// or over plain http only to this machine (loopback). A base URL with credentials in it, or one that is
// not http(s), is refused too. The check runs before any request is made, so a refused URL never sees
// a socket; a keyless request (a local server without a key) may use plain http on the LAN.
// This is the one home of the loopback rule; remote summarization (src/compaction/remote.ts) uses it.

/** 127.0.0.0/8, ::1 and `localhost` (hostnames as `URL` normalises them, brackets allowed). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  const parts = host.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

export type KeyTransportProblem = 'invalid-url' | 'credentials' | 'protocol' | 'plain-http';

export type KeyTransportVerdict = { ok: true; url: URL } | { ok: false; problem: KeyTransportProblem; message: string };

function refuse(problem: KeyTransportProblem, keyAttached: boolean, detail: string): KeyTransportVerdict {
  const lead = keyAttached ? 'Arbor will not send your API key' : 'Arbor will not connect';
  return { ok: false, problem, message: `${lead} ${detail}` };
}

function parse(baseUrl: string): URL | undefined {
  try {
    return new URL(baseUrl);
  } catch {
    return undefined;
  }
}

/**
 * May a request (with the key when `keyAttached`) go to `baseUrl`? https anywhere; http to loopback, or
 * to any host when no key is attached; never credentials in the URL; nothing but http(s).
 */
export function checkKeyTransport(baseUrl: string, keyAttached: boolean): KeyTransportVerdict {
  const url = parse(baseUrl);
  if (!url) return refuse('invalid-url', keyAttached, `to ${JSON.stringify(baseUrl)}: it is not a valid URL.`);
  if (url.username || url.password) {
    return refuse('credentials', keyAttached, `to ${url.hostname}: the base URL contains a user name or password; remove the "user:password@" part.`);
  }
  if (url.protocol === 'https:') return { ok: true, url };
  if (url.protocol !== 'http:') return refuse('protocol', keyAttached, `to a ${url.protocol}// URL (${url.hostname}); use https or a loopback address.`);
  if (!keyAttached || isLoopbackHost(url.hostname)) return { ok: true, url };
  return refuse('plain-http', keyAttached, `over plain http to ${url.hostname}; use https or a loopback address (localhost, 127.0.0.1, ::1).`);
}

/**
 * The provider SDKs' fetch, checked again per request (the SDK builds the final URL) and never
 * following a redirect, which could lead the key to another host: a 3xx answer becomes an error
 * response that says so and must not be retried (x-should-retry: false; overflow.ts classifies it as
 * `redirect`), instead of a "fetch failed" that looks like a network error worth retrying.
 */
export function keyGuardedFetch(inner: typeof fetch, keyAttached: boolean): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const verdict = checkKeyTransport(target, keyAttached);
    if (!verdict.ok) throw new Error(verdict.message);
    const response = await inner(input, { ...init, redirect: 'manual' });
    return isRedirect(response) ? await refusedRedirect(response, verdict.url) : response;
  }) as typeof fetch;
}

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** The error answer the SDK sees instead of a redirect (the redirect's own body is dropped unread). */
async function refusedRedirect(response: Response, from: URL): Promise<Response> {
  await response.body?.cancel().catch(() => undefined);
  const status = response.status >= 300 && response.status < 400 ? response.status : 307;
  const location = response.headers.get('location');
  const to = location === null ? undefined : hostOf(location, from);
  const message = `${from.hostname} answered with a redirect (HTTP ${status})${to ? ` to ${to}` : ''}. Arbor does not follow redirects, so nothing was sent there and your API key stayed here. If that address is the right one, set it as the base URL.`;
  return new Response(JSON.stringify({ error: { message, type: 'redirect_refused', code: 'redirect_refused' } }), {
    status,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
  });
}

function hostOf(location: string, base: URL): string | undefined {
  try {
    return new URL(location, base).host;
  } catch {
    return undefined;
  }
}
