// Older vLLM servers answer errors as {"object":"error","message":…} with no `error` key. The openai
// SDK reads only `error`, so it reported "400 status code (no body)": the real text was lost and the
// no-body overflow rule (src/llm/overflow.ts) compacted on a configuration error. This fetch wrapper
// moves such a body under `error` before the SDK reads it; every other response passes untouched.

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** `{"message":…}` without an `error` key becomes `{"error":{"message":…}}`; anything else is kept. */
export function nestErrorBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isRecord(parsed) || 'error' in parsed || typeof parsed.message !== 'string') return text;
  return JSON.stringify({ error: parsed });
}

export function withNestedErrorBody(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok) return response;
    const text = await response.text();
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(nestErrorBody(text), { status: response.status, statusText: response.statusText, headers });
  };
}
