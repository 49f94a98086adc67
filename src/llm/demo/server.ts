// In-process OpenAI-compatible HTTP server for the offline demo model, bound to 127.0.0.1:0. The demo
// provider is the ordinary OpenAI-compatible provider pointed at it, so the demo exercises the same
// SDK, streaming, usage and error code paths as a real local server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoReply, type DemoRequest } from './script';
import { countTextTokens, loadTokenizer } from '../tokens';
import { DEMO_MODEL } from '../providers/demo';

export interface DemoServer {
  /** OpenAI base URL, e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
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
    const content = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
    n += 3 + countTextTokens(m.role) + countTextTokens(content);
    for (const c of m.tool_calls ?? []) n += 3 + countTextTokens(c.function?.name ?? '') + countTextTokens(c.function?.arguments ?? '');
  }
  if (body.tools?.length) n += countTextTokens(JSON.stringify(body.tools));
  return n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  await loadTokenizer();
  const delay = options.chunkDelayMs ?? 12;
  const size = options.chunkSize ?? 16;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: DEMO_MODEL.id, object: 'model', created: 0, owned_by: 'arbor', max_model_len: DEMO_MODEL.contextWindow }] }));
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found', type: 'not_found' } }));
      return;
    }
    let body: DemoRequest & { stream?: boolean; model?: string; tools?: unknown[] };
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'invalid JSON', type: 'invalid_request_error' } }));
      return;
    }
    const reply = demoReply(body);
    const calls = reply.toolCalls.map((c, i) => ({ id: `call_demo_${Date.now().toString(36)}_${i}`, name: c.name, args: JSON.stringify(c.arguments) }));
    const prompt = promptTokens(body);
    const completion = countTextTokens(reply.text) + calls.reduce((s, c) => s + countTextTokens(c.name) + countTextTokens(c.args), 0);
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: 0 } };
    const finish = calls.length ? 'tool_calls' : 'stop';
    const id = `chatcmpl-demo-${Date.now().toString(36)}`;
    const model = body.model ?? DEMO_MODEL.id;
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created: 0, model, choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content: reply.text, ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) } : {}) } }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let closed = false;
    req.on('close', () => (closed = true));
    const send = async (data: unknown) => {
      if (closed || res.destroyed) return false;
      res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      if (delay) await sleep(delay);
      return true;
    };
    const chunk = (delta: unknown, finish_reason: string | null = null) => ({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason }] });
    if (!(await send(chunk({ role: 'assistant', content: '' })))) return;
    for (let i = 0; i < reply.text.length; i += size) if (!(await send(chunk({ content: reply.text.slice(i, i + size) })))) return;
    for (const [index, c] of calls.entries()) {
      if (!(await send(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] })))) return;
      for (let i = 0; i < c.args.length; i += size) if (!(await send(chunk({ tool_calls: [{ index, function: { arguments: c.args.slice(i, i + size) } }] })))) return;
    }
    if (!(await send(chunk({}, finish)))) return;
    if (!(await send({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage }))) return;
    if (!(await send('[DONE]'))) return;
    res.end();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
