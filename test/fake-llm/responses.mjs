// The fake server's OpenAI Responses route (POST /v1/responses, streaming only): the same scripted
// turns as Chat Completions, sent as Responses events (output_item added → deltas → done, a reasoning
// item with a fake encrypted_content for `thinking`, function_call items, response.completed with
// usage, or response.incomplete at max_output_tokens). Kept apart from server.mjs to keep it small.
import { randomBytes } from 'node:crypto';

function itemText(item) {
  if (typeof item.content === 'string') return item.content;
  if (Array.isArray(item.content)) return item.content.map((p) => p?.text ?? '').join('');
  return typeof item.output === 'string' ? item.output : (item.arguments ?? item.encrypted_content ?? '');
}

/** Prompt tokens of a Responses request: instructions plus every input item's text. */
export function responsesPromptTokens(body, tok) {
  const input = Array.isArray(body.input) ? body.input : [];
  return tok(body.instructions) + input.reduce((n, item) => n + 4 + tok(itemText(item)), 0);
}

function lastUser(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  for (let i = input.length - 1; i >= 0; i--) if (input[i].role === 'user') return itemText(input[i]);
  return '';
}

/** Builds the handler over the server's helpers (nextTurn, record, sseWriter, …). */
export function responsesHandler(h) {
  return async function handleResponses(req, res, body) {
    const model = body.model ?? 'fake-model';
    const prompt = responsesPromptTokens(body, h.tok);
    h.record(req, '/v1/responses', 'openai', body, prompt);
    const last = (body.input ?? []).at(-1);
    const turn = h.nextTurn({ api: 'openai', model, lastUser: lastUser(body), system: body.instructions ?? '', hasToolResult: last?.type === 'function_call_output' });
    if (turn.ttfbMs) await h.wait(turn.ttfbMs);
    if (turn.error) {
      const e = h.errorResponse('openai', turn.error);
      return h.sendJson(res, e.status, e.body, e.headers);
    }
    const mc = h.modelConfig(model);
    if (turn.overflow !== undefined || prompt > mc.contextWindow) {
      const o = h.overflowResponse(turn.overflow ?? 'openai', prompt, mc.contextWindow, body.max_output_tokens);
      return h.sendJson(res, o.status, o.body);
    }
    const { turn: produced, truncated } = h.applyBudget(turn, body.max_output_tokens ?? mc.maxOutputTokens);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const w = h.sseWriter(req, res, turn, 'openai');
    const id = 'resp_' + randomBytes(8).toString('hex');
    let seq = 0;
    const send = (type, fields) => w.send(type, { type, sequence_number: seq++, ...fields });
    const response = (status, output, usage) => ({ id, object: 'response', status, model, output, usage, ...(status === 'incomplete' ? { incomplete_details: { reason: 'max_output_tokens' } } : {}) });
    if (!(await send('response.created', { response: response('in_progress', [], null) }))) return;
    const output = [];
    const size = turn.chunkSize ?? 8;
    if (produced.thinking) {
      const item = { id: 'rs_' + randomBytes(6).toString('hex'), type: 'reasoning', summary: [{ type: 'summary_text', text: produced.thinking }], encrypted_content: 'fake-reasoning:' + h.hash(produced.thinking).slice(0, 32) };
      if (!(await send('response.output_item.added', { output_index: output.length, item: { ...item, summary: [] } }))) return;
      for (const delta of h.chunkText(produced.thinking, size)) if (!(await send('response.reasoning_summary_text.delta', { item_id: item.id, output_index: output.length, summary_index: 0, delta }))) return;
      if (!(await send('response.output_item.done', { output_index: output.length, item }))) return;
      output.push(item);
    }
    if (produced.text) {
      const item = { id: 'msg_' + randomBytes(6).toString('hex'), type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: produced.text, annotations: [] }] };
      if (!(await send('response.output_item.added', { output_index: output.length, item: { ...item, content: [], status: 'in_progress' } }))) return;
      for (const delta of h.chunkText(produced.text, size)) if (!(await send('response.output_text.delta', { item_id: item.id, output_index: output.length, content_index: 0, delta }))) return;
      if (!(await send('response.output_item.done', { output_index: output.length, item }))) return;
      output.push(item);
    }
    for (const [i, c] of (produced.toolCalls ?? []).entries()) {
      const args = JSON.stringify(c.input ?? {});
      const item = { id: 'fc_' + randomBytes(6).toString('hex'), type: 'function_call', status: 'completed', call_id: c.id ?? `call_${i}_${id.slice(5, 13)}`, name: c.name, arguments: args };
      if (!(await send('response.output_item.added', { output_index: output.length, item: { ...item, arguments: '', status: 'in_progress' } }))) return;
      for (const delta of h.chunkText(args, Math.max(4, Math.ceil(args.length / 3)))) if (!(await send('response.function_call_arguments.delta', { item_id: item.id, output_index: output.length, delta }))) return;
      if (!(await send('response.output_item.done', { output_index: output.length, item }))) return;
      output.push(item);
    }
    const out = h.outputTokens(produced);
    const usage = { input_tokens: prompt, input_tokens_details: { cached_tokens: 0 }, output_tokens: out, output_tokens_details: { reasoning_tokens: produced.thinking ? h.tok(produced.thinking) : 0 }, total_tokens: prompt + out };
    const status = truncated ? 'incomplete' : 'completed';
    if (!(await send(`response.${status}`, { response: response(status, output, usage) }))) return;
    w.end();
  };
}
