// The offline demo model's OpenAI-compatible endpoint, served in-process: a `fetch` the SDK is given (the
// provider's `fetch` option) answers /v1/models and /v1/chat/completions (streamed as SSE) without any
// socket, so nothing listens on a port that VS Code would forward. The demo provider is the ordinary
// OpenAI-compatible provider pointed at it, so the demo exercises the same SDK, streaming, usage and
// error code paths as a real local server.
import { demoReply, imageCount, withoutImageData, type DemoRequest } from './script';
import { countTextTokens, IMAGE_TOKENS, loadTokenizer } from '../tokens';
import { DEMO_MODEL } from '../providers/demo';

/** The base URL the demo provider is given; no request to it leaves the process. */
export const DEMO_BASE_URL = 'http://arbor-demo.invalid/v1';

export interface DemoServer {
  /** OpenAI base URL (DEMO_BASE_URL) */
  baseUrl: string;
  /** answers requests to `baseUrl` in-process */
  fetch: typeof fetch;
  close(): Promise<void>;
}

export interface DemoServerOptions {
  /** pause between streamed chunks, so the demo looks like streaming (0 in tests) */
  chunkDelayMs?: number;
  chunkSize?: number;
}

function promptTokens(body: DemoRequest & { tools?: unknown[] }): number {
  let n = 3;
  for (const m of body.messages ?? []) {
    const content = typeof m.content === 'string' ? m.content : JSON.stringify(withoutImageData(m.content));
    n += 3 + countTextTokens(m.role) + countTextTokens(content) + imageCount(m.content) * IMAGE_TOKENS;
    for (const c of m.tool_calls ?? []) n += 3 + countTextTokens(c.function?.name ?? '') + countTextTokens(c.function?.arguments ?? '');
  }
  if (body.tools?.length) n += countTextTokens(JSON.stringify(body.tools));
  return n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


type DemoBody = DemoRequest & { stream?: boolean; model?: string; tools?: unknown[] };

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
}

function requestUrl(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

async function requestBody(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<string> {
  if (typeof init?.body === 'string') return init.body;
  if (init?.body) return new Response(init.body).text();
  return typeof input === 'object' && 'text' in input ? input.text() : '';
}

/** The reply to one chat request, as the chunks an OpenAI-compatible server would stream. */
function replyChunks(body: DemoBody, size: number): { chunks: unknown[]; whole: unknown } {
  const reply = demoReply(body);
  const calls = reply.toolCalls.map((c, i) => ({ id: `call_demo_${Date.now().toString(36)}_${i}`, name: c.name, args: JSON.stringify(c.arguments) }));
  const prompt = promptTokens(body);
  const completion = countTextTokens(reply.text) + calls.reduce((s, c) => s + countTextTokens(c.name) + countTextTokens(c.args), 0);
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: 0 } };
  const finish = calls.length ? 'tool_calls' : 'stop';
  const id = `chatcmpl-demo-${Date.now().toString(36)}`;
  const model = body.model ?? DEMO_MODEL.id;
  const whole = { id, object: 'chat.completion', created: 0, model, choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content: reply.text, ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) } : {}) } }], usage };
  return { chunks: streamedChunks({ id, model, size }, reply.text, calls, finish, usage), whole };
}

function streamedChunks({ id, model, size }: { id: string; model: string; size: number }, text: string, calls: { id: string; name: string; args: string }[], finish: string, usage: unknown): unknown[] {
  const chunk = (delta: unknown, finish_reason: string | null = null) => ({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason }] });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (let i = 0; i < text.length; i += size) out.push(chunk({ content: text.slice(i, i + size) }));
  for (const [index, c] of calls.entries()) {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (let i = 0; i < c.args.length; i += size) out.push(chunk({ tool_calls: [{ index, function: { arguments: c.args.slice(i, i + size) } }] }));
  }
  out.push(chunk({}, finish), { id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage }, '[DONE]');
  return out;
}

/** An SSE body that sends one chunk per `delay` ms and stops when the request is aborted. */
function sseStream(chunks: unknown[], delay: number, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      if (signal?.aborted || index >= chunks.length) return controller.close();
      if (delay && index > 0) await sleep(delay);
      const data = chunks[index++];
      controller.enqueue(encoder.encode(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`));
    },
  });
}

export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  await loadTokenizer();
  const delay = options.chunkDelayMs ?? 12;
  const size = options.chunkSize ?? 16;
  const demoFetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
    const path = new URL(requestUrl(input)).pathname.replace(/\/+$/, '');
    if (method === 'GET' && path === '/v1/models') {
      return json(200, { object: 'list', data: [{ id: DEMO_MODEL.id, object: 'model', created: 0, owned_by: 'arbor', max_model_len: DEMO_MODEL.contextWindow }] });
    }
    if (method !== 'POST' || path !== '/v1/chat/completions') return json(404, { error: { message: 'not found', type: 'not_found' } });
    let body: DemoBody;
    try {
      body = JSON.parse(await requestBody(input, init));
    } catch {
      return json(400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    }
    const { chunks, whole } = replyChunks(body, size);
    if (!body.stream) return json(200, whole);
    return new Response(sseStream(chunks, delay, init?.signal), { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
  };
  return { baseUrl: DEMO_BASE_URL, fetch: demoFetch as typeof fetch, close: async () => undefined };
}
