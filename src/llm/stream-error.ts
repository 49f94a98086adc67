// An error object that arrives inside a 200 stream (an OpenAI-style `{"error": …}` chunk, LM Studio's
// error string, llama.cpp's `error:` field) turned into an Error shaped like the SDKs' APIError, so
// classifyProviderError reads its status, code, type and message the same way (src/llm/overflow.ts).

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function messageOf(body: unknown): string {
  if (typeof body === 'string' && body) return body;
  const m = record(body)?.message;
  return typeof m === 'string' && m ? m : `The provider reported an error in the stream: ${JSON.stringify(body) ?? String(body)}`;
}

export class ProviderStreamError extends Error {
  readonly status?: number;
  readonly code?: string;
  readonly type?: string;
  /** the error body, as the SDKs keep it */
  readonly error: unknown;

  constructor(body: unknown) {
    super(messageOf(body));
    this.name = 'ProviderStreamError';
    this.error = body;
    const fields = record(body);
    const code = fields?.code;
    // llama.cpp and OpenRouter put the HTTP status they would have sent into `code`.
    if (typeof code === 'number' && code >= 400 && code <= 599) this.status = code;
    if (typeof code === 'string' && code) this.code = code;
    if (typeof fields?.type === 'string' && fields.type) this.type = fields.type;
  }
}

/** The body of an `error:` SSE field: JSON when it parses, the raw text otherwise. */
export function errorFieldBody(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
