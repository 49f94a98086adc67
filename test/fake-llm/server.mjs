#!/usr/bin/env node
// Fake LLM provider server for tests: one node http server on 127.0.0.1 speaking the real wire
// protocols (OpenAI Chat Completions and Responses (./responses.mjs), Anthropic Messages + count_tokens, /v1/models, and the local
// servers' context-window discovery routes), scripted by a FIFO queue of turns, then rules, then echo.
// Plain ESM JavaScript so unit tests (through tsx), the extension-host tests and the UI harness (plain
// node, other process, through the HTTP admin routes) can all use it. Types: server.d.mts.
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { countTokens, encode, decode } from 'gpt-tokenizer/encoding/cl100k_base';
import { responsesHandler } from './responses.mjs';
import { compactionAnswer, compactionReplayError } from './anthropic-compaction.mjs';

const NO_SPECIAL = { disallowedSpecial: new Set() };
const tok = (text) => (text ? countTokens(String(text), NO_SPECIAL) : 0);
const IMAGE_TOKENS = 85;

const DEFAULT_CONFIG = {
  models: {},
  defaultModel: { contextWindow: 128000, maxOutputTokens: 4096 },
  minCacheableTokens: 1024,
  /** when set, requests must carry this key (Bearer or x-api-key), else 401 */
  apiKey: undefined,
  /** OpenAI-compatible reasoning field used for `thinking` turns on chat completions */
  reasoningField: 'reasoning_content',
  /** which local server the discovery routes imitate: vllm | lmstudio | llamacpp | ollama | none */
  discovery: 'none',
  /** reject temperature/top_p/top_k with anthropic-version 2026-10-21, like the real API */
  strictAnthropic: true,
  /** OpenAI chat completions report automatic prompt caching (cached_tokens); off: always 0 */
  openaiPromptCache: false,
};

const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const hash = (s) => createHash('sha256').update(s).digest('hex');
const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

// ---------------------------------------------------------------------------------------------
// Request parsing helpers (both APIs)

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (p && (p.type === 'text' || p.type === 'input_text') ? p.text ?? '' : ''))
    .join('');
}

function contentTokens(content) {
  if (typeof content === 'string') return tok(content);
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const p of content) {
    if (!p) continue;
    if (p.type === 'text') n += tok(p.text);
    else if (p.type === 'image_url' || p.type === 'image') n += IMAGE_TOKENS;
  }
  return n;
}

function openaiPromptTokens(body) {
  let n = 3;
  for (const m of body.messages ?? []) {
    n += 3 + tok(m.role) + contentTokens(m.content);
    for (const c of m.tool_calls ?? []) n += 3 + tok(c.function?.name) + tok(c.function?.arguments);
    if (m.name) n += 1;
  }
  if (body.tools) n += tok(JSON.stringify(body.tools));
  return n;
}

function anthropicSystemText(system) {
  return typeof system === 'string' ? system : textOf(system ?? []);
}

/** Anthropic request flattened into ordered, cacheable blocks: tools → system → message blocks. */
function anthropicBlocks(body) {
  const blocks = [];
  const strip = (b) => {
    const { cache_control, ...rest } = b;
    return rest;
  };
  for (const t of body.tools ?? []) blocks.push({ key: JSON.stringify(strip(t)), tokens: tok(JSON.stringify(strip(t))), cache: !!t.cache_control });
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : body.system ?? [];
  for (const s of system) blocks.push({ key: JSON.stringify(strip(s)), tokens: tok(s.text), cache: !!s.cache_control });
  for (const m of body.messages ?? []) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content ?? [];
    content.forEach((b, i) => {
      let tokens = 0;
      if (b.type === 'text') tokens = tok(b.text);
      else if (b.type === 'image') tokens = IMAGE_TOKENS;
      else if (b.type === 'tool_use') tokens = tok(b.name) + tok(JSON.stringify(b.input ?? {}));
      else if (b.type === 'tool_result') tokens = typeof b.content === 'string' ? tok(b.content) : contentTokens(b.content ?? []);
      // earlier thinking blocks are stripped by the API and count 0
      if (i === 0) tokens += 4;
      blocks.push({ key: m.role + ':' + JSON.stringify(strip(b)), tokens, cache: !!b.cache_control });
    });
  }
  if (body.cache_control && blocks.length) blocks[blocks.length - 1].cache = true;
  return blocks;
}

function lastUserOpenAI(body) {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return textOf(msgs[i].content);
  return '';
}

function lastUserAnthropic(body) {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    const t = (m.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('');
    if (t) return t;
  }
  return '';
}

// ---------------------------------------------------------------------------------------------
// Turn helpers

function outputTokens(turn) {
  let n = tok(turn.thinking) + tok(turn.text);
  for (const c of turn.toolCalls ?? []) n += tok(c.name) + tok(JSON.stringify(c.input ?? {}));
  return n;
}

function truncateToTokens(text, budget) {
  if (!text) return '';
  const ids = encode(text, NO_SPECIAL);
  return ids.length <= budget ? text : decode(ids.slice(0, Math.max(0, budget)));
}

/** Applies the output budget: returns the turn actually produced and whether it was cut. */
function applyBudget(turn, budget) {
  const total = outputTokens(turn);
  if (budget === undefined || total <= budget) return { turn, truncated: false };
  const thinkingTokens = tok(turn.thinking);
  const thinking = thinkingTokens > budget ? truncateToTokens(turn.thinking, budget) : turn.thinking;
  const left = Math.max(0, budget - tok(thinking));
  return { turn: { ...turn, thinking, text: truncateToTokens(turn.text ?? '', left), toolCalls: [] }, truncated: true };
}

function chunkText(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function matches(rule, ctx) {
  const w = rule.when ?? {};
  if (w.lastUserIncludes !== undefined && !ctx.lastUser.includes(w.lastUserIncludes)) return false;
  if (w.lastUserRegex !== undefined && !new RegExp(w.lastUserRegex, w.flags ?? '').test(ctx.lastUser)) return false;
  if (w.systemIncludes !== undefined && !ctx.system.includes(w.systemIncludes)) return false;
  if (w.hasToolResult !== undefined && w.hasToolResult !== ctx.hasToolResult) return false;
  if (w.model !== undefined && w.model !== ctx.model) return false;
  if (w.api !== undefined && w.api !== ctx.api) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Errors

function overflowResponse(flavor, prompt, window, maxTokens) {
  switch (flavor) {
    case 'anthropic':
      return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${prompt} tokens > ${window} maximum` }, request_id: 'req_' + randomBytes(6).toString('hex') } };
    case 'llamacpp':
      return { status: 400, body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: prompt, n_ctx: window } } };
    case 'lmstudio':
      return { status: 400, body: { error: `The number of tokens to keep from the initial prompt is greater than the context length (n_keep: ${prompt}>= n_ctx: ${window}). Try to load the model with a larger context length, or provide a shorter input.` } };
    case 'vllm':
      return { status: 400, body: { object: 'error', message: `This model's maximum context length is ${window} tokens. However, you requested ${maxTokens} output tokens and your prompt contains at least ${prompt} input tokens, for a total of at least ${prompt + maxTokens} tokens. Please reduce the length of the input prompt or the number of requested output tokens.`, type: 'BadRequestError', param: null, code: 400 } };
    case 'ollama':
      return { status: 400, body: { error: `prompt too long; exceeded max context length by ${prompt - window} tokens` } };
    case 'openai':
    default:
      return { status: 400, body: { error: { message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } };
  }
}

function errorResponse(api, e) {
  const headers = {};
  if (e.retryAfterMs !== undefined) {
    headers['retry-after-ms'] = String(e.retryAfterMs);
    headers['retry-after'] = String(Math.ceil(e.retryAfterMs / 1000));
  }
  if (e.retryAfterSeconds !== undefined) headers['retry-after'] = String(e.retryAfterSeconds);
  if (e.shouldRetry !== undefined) headers['x-should-retry'] = String(e.shouldRetry);
  const anthropic = api === 'anthropic';
  const kinds = {
    rate_limit: { status: 429, type: anthropic ? 'rate_limit_error' : 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again later.' },
    overloaded: { status: anthropic ? 529 : 503, type: anthropic ? 'overloaded_error' : 'server_error', code: null, message: 'Overloaded' },
    server: { status: 500, type: anthropic ? 'api_error' : 'server_error', code: null, message: 'The server had an error while processing your request.' },
    auth: { status: 401, type: anthropic ? 'authentication_error' : 'invalid_request_error', code: 'invalid_api_key', message: 'Invalid API key.' },
    quota: { status: 429, type: anthropic ? 'rate_limit_error' : 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.' },
    custom: { status: e.status ?? 400, type: 'invalid_request_error', code: null, message: e.message ?? 'Bad request' },
  };
  const k = kinds[e.kind] ?? kinds.custom;
  const status = e.status ?? k.status;
  const message = e.message ?? k.message;
  if (anthropic && e.kind === 'rate_limit') headers['anthropic-ratelimit-requests-remaining'] = '0';
  if (!anthropic && e.kind === 'rate_limit') headers['x-ratelimit-remaining-requests'] = '0';
  const body = anthropic
    ? { type: 'error', error: { type: k.type, message, ...(e.kind === 'quota' ? { details: { error_code: 'enforced_spend_limit_reached' } } : {}) }, request_id: 'req_' + randomBytes(6).toString('hex') }
    : { error: { message, type: k.type, param: null, code: k.code } };
  return { status, headers, body };
}

// ---------------------------------------------------------------------------------------------
// The server

export async function startFakeLlm(options = {}) {
  const state = {
    queue: [],
    compactQueue: [],
    rules: [],
    requests: [],
    cache: new Map(),
    openaiCache: new Set(),
    config: { ...clone(DEFAULT_CONFIG), ...(options.config ?? {}) },
  };
  const sockets = new Set();
  const hanging = new Set();

  function modelConfig(id) {
    return { ...state.config.defaultModel, ...(state.config.models?.[id] ?? {}) };
  }

  function nextTurn(ctx) {
    const head = state.queue[0];
    if (head) {
      const times = head.times ?? head.error?.times ?? 1;
      if (times > 1) {
        head.times = times - 1;
        if (head.error) head.error.times = undefined;
      } else state.queue.shift();
      return clone({ ...head, times: undefined });
    }
    const rule = state.rules.find((r) => matches(r, ctx));
    // `then` may be a function of the request (ctx: lastUser, system, model, api) for answers that depend on it
    if (rule) return clone(typeof rule.then === 'function' ? rule.then(ctx) : rule.then);
    return { text: `echo: ${ctx.lastUser}` };
  }

  function record(req, path, api, body, promptTokens) {
    const headers = { ...req.headers };
    let auth = 'unchecked';
    const given = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '') || req.headers['x-api-key'];
    if (state.config.apiKey !== undefined) auth = !given ? 'missing' : given === state.config.apiKey ? 'valid' : 'invalid';
    if (headers.authorization) headers.authorization = 'REDACTED';
    if (headers['x-api-key']) headers['x-api-key'] = 'REDACTED';
    const entry = { method: req.method, path, api, headers, body: clone(body), promptTokens, auth, time: Date.now() };
    state.requests.push(entry);
    return entry;
  }

  function sendJson(res, status, body, headers = {}) {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_' + randomBytes(6).toString('hex'), ...headers });
    res.end(JSON.stringify(body));
  }

  /** SSE writer that honours pacing and the failure modes of a turn. */
  function sseWriter(req, res, turn, api) {
    let count = 0;
    let stopped = false;
    req.on('close', () => {
      stopped = true;
    });
    const writeRaw = (text) => {
      if (stopped || res.destroyed || res.writableEnded) return false;
      res.write(text);
      return true;
    };
    return {
      get stopped() {
        return stopped || res.destroyed || res.writableEnded;
      },
      /** returns false when the stream must not continue */
      async send(eventName, data) {
        if (this.stopped) return false;
        if (turn.delayMs && count > 0) await wait(turn.delayMs);
        if (this.stopped) return false;
        if (turn.midStreamError && count === turn.midStreamError.afterChunks) {
          const message = turn.midStreamError.message ?? 'Overloaded';
          if (api === 'anthropic') writeRaw(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: turn.midStreamError.type ?? 'overloaded_error', message } })}\n\n`);
          else writeRaw(`data: ${JSON.stringify({ error: { message, type: turn.midStreamError.type ?? 'server_error', code: turn.midStreamError.code ?? null } })}\n\n`);
          res.end();
          stopped = true;
          return false;
        }
        if (turn.malformedAfterChunks !== undefined && count === turn.malformedAfterChunks) {
          writeRaw(api === 'anthropic' ? 'event: content_block_delta\ndata: {"type":"content_block_delta", broken\n\n' : 'data: {"choices":[{"delta": broken\n\n');
          res.end();
          stopped = true;
          return false;
        }
        if (turn.hangAfterChunks !== undefined && count === turn.hangAfterChunks) {
          hanging.add(res);
          stopped = true;
          return false;
        }
        if (turn.dropAfterChunks !== undefined && count === turn.dropAfterChunks) {
          setTimeout(() => req.socket.destroy(), 20);
          stopped = true;
          return false;
        }
        if (turn.endWithoutTerminal !== undefined && count === turn.endWithoutTerminal) {
          res.end();
          stopped = true;
          return false;
        }
        count++;
        return writeRaw(eventName ? `event: ${eventName}\ndata: ${JSON.stringify(data)}\n\n` : `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      },
      end() {
        if (!this.stopped) res.end();
      },
    };
  }

  async function handleOpenAI(req, res, body) {
    const model = body.model ?? 'fake-model';
    const prompt = openaiPromptTokens(body);
    const recorded = record(req, '/v1/chat/completions', 'openai', body, prompt);
    const ctx = { api: 'openai', model, lastUser: lastUserOpenAI(body), system: (body.messages ?? []).filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content)).join('\n'), hasToolResult: (body.messages ?? []).at(-1)?.role === 'tool' };
    const turn = nextTurn(ctx);
    if (turn.ttfbMs) await wait(turn.ttfbMs);
    if (turn.error) {
      const e = errorResponse('openai', turn.error);
      return sendJson(res, e.status, e.body, e.headers);
    }
    const mc = modelConfig(model);
    const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? mc.maxOutputTokens;
    const overflowFlavor = turn.overflow ?? mc.overflowFlavor ?? 'openai';
    const over = turn.overflow !== undefined || prompt > mc.contextWindow || (mc.strictTotal && prompt + maxTokens > mc.contextWindow);
    let promptReported = prompt;
    if (over) {
      if (mc.silentTruncate && turn.overflow === undefined) promptReported = mc.contextWindow;
      else {
        const o = overflowResponse(overflowFlavor, prompt, mc.contextWindow, maxTokens);
        return sendJson(res, o.status, o.body);
      }
    }
    const { turn: produced, truncated } = applyBudget(turn, maxTokens);
    const completion = outputTokens(produced);
    const hasTools = (produced.toolCalls ?? []).length > 0;
    const finish = turn.stop && turn.stop !== 'auto' ? turn.stop : truncated ? 'length' : hasTools ? 'tool_calls' : 'stop';
    const cachedTokens = state.config.openaiPromptCache ? Math.min(openaiCachedTokens(body), promptReported) : 0;
    let usage = { prompt_tokens: promptReported, completion_tokens: completion, total_tokens: promptReported + completion, prompt_tokens_details: { cached_tokens: cachedTokens }, completion_tokens_details: { reasoning_tokens: produced.thinking ? tok(produced.thinking) : 0 } };
    if (turn.usage) usage = { ...usage, ...turn.usage };
    if (turn.zeroUsage) usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    recorded.usage = usage;
    const id = 'chatcmpl-' + randomBytes(8).toString('hex');
    const created = Math.floor(Date.now() / 1000);
    const toolCalls = (produced.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${hash(id + i).slice(0, 12)}`, name: c.name, args: JSON.stringify(c.input ?? {}) }));

    if (!body.stream) {
      const reasoning = produced.thinking ? { [state.config.reasoningField]: produced.thinking } : {};
      return sendJson(res, 200, {
        id, object: 'chat.completion', created, model, system_fingerprint: 'fp_fake',
        choices: [{ index: 0, message: { role: 'assistant', content: produced.text ?? null, refusal: null, ...reasoning, ...(toolCalls.length ? { tool_calls: toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) } : {}) }, logprobs: null, finish_reason: finish }],
        usage,
      });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const w = sseWriter(req, res, turn, 'openai');
    const chunk = (delta, finish_reason = null) => ({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices: [{ index: 0, delta, logprobs: null, finish_reason }], ...(body.stream_options?.include_usage ? { usage: null } : {}) });
    const size = turn.chunkSize ?? 8;
    if (!(await w.send(null, chunk({ role: 'assistant', content: '', refusal: null })))) return;
    for (const piece of chunkText(produced.thinking ?? '', size)) if (!(await w.send(null, chunk({ [state.config.reasoningField]: piece })))) return;
    for (const piece of chunkText(produced.text ?? '', size)) if (!(await w.send(null, chunk({ content: piece })))) return;
    for (const [index, c] of toolCalls.entries()) {
      if (!(await w.send(null, chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] })))) return;
      for (const piece of chunkText(c.args, Math.max(4, Math.ceil(c.args.length / 3)))) {
        if (!(await w.send(null, chunk({ tool_calls: [{ index, function: { arguments: piece } }] })))) return;
      }
    }
    if (!(await w.send(null, chunk({}, finish)))) return;
    if (body.stream_options?.include_usage && !turn.omitUsage) {
      if (!(await w.send(null, { id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices: [], usage }))) return;
    }
    if (!(await w.send(null, '[DONE]'))) return;
    w.end();
  }

  function anthropicUsage(body, turnUsage) {
    const blocks = anthropicBlocks(body);
    const total = blocks.reduce((s, b) => s + b.tokens, 0);
    const prefixTokens = [];
    const prefixKeys = [];
    let acc = 0;
    let keyAcc = '';
    for (const b of blocks) {
      acc += b.tokens;
      keyAcc = hash(keyAcc + '\u0000' + b.key);
      prefixTokens.push(acc);
      prefixKeys.push(keyAcc);
    }
    const breakpoints = blocks.map((b, i) => (b.cache ? i : -1)).filter((i) => i >= 0);
    let read = 0;
    for (const bp of breakpoints) {
      for (let i = bp; i >= Math.max(0, bp - 20); i--) {
        if (state.cache.has(prefixKeys[i])) {
          read = Math.max(read, prefixTokens[i]);
          break;
        }
      }
    }
    let written = read;
    for (const bp of breakpoints) {
      if (prefixTokens[bp] < state.config.minCacheableTokens) continue;
      if (!state.cache.has(prefixKeys[bp])) state.cache.set(prefixKeys[bp], prefixTokens[bp]);
      written = Math.max(written, prefixTokens[bp]);
    }
    const usage = { input_tokens: total - written, cache_creation_input_tokens: written - read, cache_read_input_tokens: read };
    return { total, usage: { ...usage, ...(turnUsage ?? {}) } };
  }

  /**
   * OpenAI's automatic prompt caching: the longest prefix (whole messages, after the tools, per model) an
   * earlier request sent, counted when it reaches minCacheableTokens, in 128-token steps.
   */
  function openaiCachedTokens(body) {
    let tokens = 3 + (body.tools ? tok(JSON.stringify(body.tools)) : 0);
    let key = hash(`${body.model}\u0000${JSON.stringify(body.tools ?? [])}`);
    let cached = 0;
    const keys = [];
    for (const m of body.messages ?? []) {
      tokens += 3 + tok(m.role) + contentTokens(m.content) + (m.tool_calls ?? []).reduce((n, c) => n + 3 + tok(c.function?.name) + tok(c.function?.arguments), 0);
      key = hash(`${key}\u0000${JSON.stringify(m)}`);
      if (state.openaiCache.has(key)) cached = tokens;
      keys.push(key);
    }
    for (const k of keys) state.openaiCache.add(k);
    return cached < state.config.minCacheableTokens ? 0 : Math.floor(cached / 128) * 128;
  }

  async function handleAnthropic(req, res, body) {
    const model = body.model ?? 'fake-claude';
    const strict = state.config.strictAnthropic && req.headers['anthropic-version'] === '2026-10-21';
    const promptTotal = anthropicBlocks(body).reduce((s, b) => s + b.tokens, 0);
    const recorded = record(req, '/v1/messages', 'anthropic', body, promptTotal);
    const compaction = body.compaction ? compactionAnswer(req, body) : compactionReplayError(req, body);
    if (compaction) return sendJson(res, compaction.status, compaction.body);
    if (strict && ['temperature', 'top_p', 'top_k'].some((k) => body[k] !== undefined)) {
      return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'temperature, top_p and top_k are not supported in API version 2026-10-21' } });
    }
    for (const m of body.messages ?? []) {
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (b.type === 'thinking' && b.signature !== signThinking(b.thinking)) {
          return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'Invalid `signature` in `thinking` block' } });
        }
      }
    }
    const ctx = { api: 'anthropic', model, lastUser: lastUserAnthropic(body), system: anthropicSystemText(body.system), hasToolResult: Array.isArray(body.messages?.at(-1)?.content) && body.messages.at(-1).content.some((b) => b.type === 'tool_result') };
    const turn = nextTurn(ctx);
    if (turn.ttfbMs) await wait(turn.ttfbMs);
    if (turn.error) {
      const e = errorResponse('anthropic', turn.error);
      return sendJson(res, e.status, e.body, e.headers);
    }
    const mc = modelConfig(model);
    if (turn.overflow !== undefined || promptTotal > mc.contextWindow) {
      const o = overflowResponse(turn.overflow ?? 'anthropic', promptTotal, mc.contextWindow, body.max_tokens);
      return sendJson(res, o.status, o.body);
    }
    const thinkingOn = body.thinking && body.thinking.type !== 'disabled';
    const wanted = thinkingOn ? turn : { ...turn, thinking: undefined };
    const budget = Math.min(body.max_tokens ?? mc.maxOutputTokens, mc.contextWindow - promptTotal);
    const { turn: produced, truncated } = applyBudget(wanted, budget);
    const windowBound = truncated && mc.contextWindow - promptTotal < (body.max_tokens ?? Infinity);
    const hasTools = (produced.toolCalls ?? []).length > 0;
    const stopMap = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' };
    const stop = turn.stop && turn.stop !== 'auto' ? stopMap[turn.stop] ?? turn.stop : truncated ? (windowBound ? 'model_context_window_exceeded' : 'max_tokens') : hasTools ? 'tool_use' : 'end_turn';
    const { usage: inUsage } = anthropicUsage(body, turn.usage);
    const output = outputTokens(produced);
    // what this request is billed for, read by bench/compaction-cost.mjs
    recorded.usage = { ...inUsage, output_tokens: output };
    const id = 'msg_' + randomBytes(10).toString('hex');
    const toolUses = (produced.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `toolu_${hash(id + i).slice(0, 20)}`, name: c.name, input: c.input ?? {} }));
    const content = [];
    if (produced.thinking) content.push({ type: 'thinking', thinking: produced.thinking, signature: signThinking(produced.thinking) });
    if (produced.text) content.push({ type: 'text', text: produced.text });
    for (const t of toolUses) content.push({ type: 'tool_use', ...t });

    if (!body.stream) {
      return sendJson(res, 200, { id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { ...inUsage, output_tokens: output } });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': 'req_' + randomBytes(6).toString('hex') });
    const w = sseWriter(req, res, turn, 'anthropic');
    const size = turn.chunkSize ?? 8;
    if (!(await w.send('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...inUsage, output_tokens: 1 } } }))) return;
    if (!(await w.send('ping', { type: 'ping' }))) return;
    let index = 0;
    for (const block of content) {
      if (block.type === 'thinking') {
        if (!(await w.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }))) return;
        for (const piece of chunkText(block.thinking, size)) if (!(await w.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }))) return;
        if (!(await w.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }))) return;
      } else if (block.type === 'text') {
        if (!(await w.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }))) return;
        for (const piece of chunkText(block.text, size)) if (!(await w.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }))) return;
      } else {
        if (!(await w.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }))) return;
        const json = JSON.stringify(block.input);
        if (!(await w.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }))) return;
        for (const piece of chunkText(json, Math.max(4, Math.ceil(json.length / 3)))) if (!(await w.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }))) return;
      }
      if (!(await w.send('content_block_stop', { type: 'content_block_stop', index }))) return;
      index++;
    }
    if (!(await w.send('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output } }))) return;
    if (!(await w.send('message_stop', { type: 'message_stop' }))) return;
    w.end();
  }

  function handleModels(req, res) {
    const ids = Object.keys(state.config.models ?? {});
    if (ids.length === 0) ids.push('fake-model');
    record(req, '/v1/models', req.headers['anthropic-version'] ? 'anthropic' : 'openai', undefined, 0);
    if (req.headers['anthropic-version']) {
      const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' }));
      return sendJson(res, 200, { data, has_more: false, first_id: ids[0], last_id: ids.at(-1) });
    }
    const data = ids.map((id) => {
      const entry = { id, object: 'model', created: 1700000000, owned_by: 'fake' };
      const cw = modelConfig(id).contextWindow;
      if (state.config.discovery === 'vllm') entry.max_model_len = cw;
      return entry;
    });
    return sendJson(res, 200, { object: 'list', data });
  }

  function handleDiscovery(req, res, path, body) {
    const d = state.config.discovery;
    const ids = Object.keys(state.config.models ?? {});
    const first = ids[0] ?? 'fake-model';
    if (path === '/props' && d === 'llamacpp') {
      return sendJson(res, 200, { default_generation_settings: { n_ctx: modelConfig(first).contextWindow }, total_slots: 1, model_path: `/models/${first}.gguf` });
    }
    if (path === '/api/v0/models' && d === 'lmstudio') {
      return sendJson(res, 200, { object: 'list', data: (ids.length ? ids : [first]).map((id) => ({ id, object: 'model', type: 'llm', state: 'loaded', max_context_length: modelConfig(id).contextWindow * 4, loaded_context_length: modelConfig(id).contextWindow })) });
    }
    if (path === '/api/show' && d === 'ollama') {
      const id = body?.model ?? body?.name ?? first;
      return sendJson(res, 200, { details: { family: 'llama' }, model_info: { 'general.architecture': 'llama', 'llama.context_length': modelConfig(id).contextWindow } });
    }
    if (path === '/api/tags' && d === 'ollama') {
      return sendJson(res, 200, { models: (ids.length ? ids : [first]).map((id) => ({ name: id, model: id })) });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  /**
   * OpenAI native compaction (llm-providers §2.4): echoes the input's user messages and appends one
   * opaque `compaction` item. Behaviour per request from the compaction queue (enqueueCompact), else
   * success: `error` (HTTP error body), `malformed` (invalid JSON), `noCompactionItem`, `hang` (headers
   * never sent), `ttfbMs`.
   */
  async function handleResponsesCompact(req, res, body) {
    const input = Array.isArray(body.input) ? body.input : [];
    const promptTokens = tok(body.instructions) + input.reduce((n, item) => n + 4 + tok(typeof item.content === 'string' ? item.content : textOf(item.content)) + tok(item.output) + tok(item.arguments), 0);
    record(req, '/v1/responses/compact', 'openai', body, promptTokens);
    const behaviour = state.compactQueue.shift() ?? {};
    if (behaviour.ttfbMs) await wait(behaviour.ttfbMs);
    if (behaviour.hang) {
      hanging.add(res);
      return;
    }
    if (behaviour.error) {
      const e = errorResponse('openai', behaviour.error);
      return sendJson(res, e.status, e.body, e.headers);
    }
    if (behaviour.malformed) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"id":"cmp_broken","output":[{"type":"compaction", broken');
    }
    const users = input.filter((item) => item && item.type === 'message' && item.role === 'user');
    const output = users.map((item) => ({ type: 'message', role: 'user', content: typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content }));
    if (!behaviour.noCompactionItem) {
      output.push({ type: 'compaction', id: 'cmp_item_' + randomBytes(6).toString('hex'), encrypted_content: 'fake:' + hash(JSON.stringify(input)).slice(0, 48) });
    }
    const outputTokens = 64;
    return sendJson(res, 200, {
      id: 'cmp_' + randomBytes(8).toString('hex'),
      object: 'response.compaction',
      created_at: Math.floor(Date.now() / 1000),
      output,
      usage: { input_tokens: promptTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: promptTokens + outputTokens },
    });
  }

  function handleCountTokens(req, res, body) {
    const total = anthropicBlocks(body).reduce((s, b) => s + b.tokens, 0);
    record(req, '/v1/messages/count_tokens', 'anthropic', body, total);
    return sendJson(res, 200, { input_tokens: total });
  }

  const api = {
    enqueue(...turns) {
      for (const t of turns.flat()) state.queue.push(clone(t));
    },
    /** behaviours for the next /v1/responses/compact requests (FIFO; success when empty) */
    enqueueCompact(...behaviours) {
      for (const b of behaviours.flat()) state.compactQueue.push(clone(b));
    },
    addRule(rule) {
      // a `then` function (in-process callers only) is kept as is; anything else is copied
      state.rules.push(typeof rule.then === 'function' ? { ...clone({ ...rule, then: undefined }), then: rule.then } : clone(rule));
    },
    configure(config) {
      state.config = { ...state.config, ...clone(config) };
    },
    setModel(id, modelConfig) {
      state.config.models = { ...state.config.models, [id]: { ...(state.config.models?.[id] ?? {}), ...modelConfig } };
    },
    reset() {
      state.queue = [];
      state.rules = [];
      state.requests = [];
      state.compactQueue = [];
      state.cache.clear();
      state.openaiCache.clear();
      state.config = { ...clone(DEFAULT_CONFIG), ...(options.config ?? {}) };
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
  };

  async function handleAdmin(req, res, path, body) {
    const route = path.replace(/^\/__(admin|fake)\//, '');
    if (req.method === 'GET' && route === 'requests') return sendJson(res, 200, state.requests);
    if (req.method === 'GET' && route === 'state') return sendJson(res, 200, { queue: state.queue, rules: state.rules, config: state.config });
    if (req.method === 'POST' && route === 'enqueue') {
      api.enqueue(Array.isArray(body) ? body : body?.turns ?? [body]);
      return sendJson(res, 200, { ok: true, queued: state.queue.length });
    }
    if (req.method === 'POST' && route === 'compact') {
      api.enqueueCompact(Array.isArray(body) ? body : [body ?? {}]);
      return sendJson(res, 200, { ok: true, queued: state.compactQueue.length });
    }
    if (req.method === 'POST' && route === 'rules') {
      for (const r of Array.isArray(body) ? body : [body]) api.addRule(r);
      return sendJson(res, 200, { ok: true, rules: state.rules.length });
    }
    if (req.method === 'POST' && route === 'config') {
      api.configure(body ?? {});
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'script') {
      if (body?.turns) state.queue = clone(body.turns);
      if (body?.rules) state.rules = clone(body.rules);
      if (body?.config) api.configure(body.config);
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'reset') {
      api.reset();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { error: `unknown admin route ${route}` });
  }

  function unauthorized(req) {
    if (state.config.apiKey === undefined) return false;
    const given = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '') || req.headers['x-api-key'];
    return given !== state.config.apiKey;
  }

  const handleResponses = responsesHandler({ tok, wait, hash, nextTurn, record, sendJson, sseWriter, errorResponse, modelConfig, overflowResponse, applyBudget, chunkText, outputTokens });

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = url.pathname.replace(/\/+$/, '') || '/';
      let raw = '';
      for await (const chunk of req) raw += chunk;
      let body;
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          return sendJson(res, 400, { error: { message: 'invalid JSON body', type: 'invalid_request_error' } });
        }
      }
      if (path.startsWith('/__admin/') || path.startsWith('/__fake/')) return await handleAdmin(req, res, path, body);
      const isApi = path.startsWith('/v1/');
      if (isApi && unauthorized(req)) {
        record(req, path, req.headers['anthropic-version'] ? 'anthropic' : 'openai', body, 0);
        const e = errorResponse(req.headers['anthropic-version'] ? 'anthropic' : 'openai', { kind: 'auth' });
        return sendJson(res, e.status, e.body);
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') return await handleOpenAI(req, res, body ?? {});
      if (req.method === 'POST' && path === '/v1/responses') return await handleResponses(req, res, body ?? {});
      if (req.method === 'POST' && path === '/v1/responses/compact') return await handleResponsesCompact(req, res, body ?? {});
      if (req.method === 'POST' && path === '/v1/messages') return await handleAnthropic(req, res, body ?? {});
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') return handleCountTokens(req, res, body ?? {});
      if (req.method === 'GET' && path === '/v1/models') return handleModels(req, res);
      if (['/props', '/api/v0/models', '/api/show', '/api/tags'].includes(path)) return handleDiscovery(req, res, path, body);
      return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err?.stack ?? err), type: 'fake_server_error' } });
      else res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address();
  const url = `http://127.0.0.1:${address.port}`;

  return {
    url,
    port: address.port,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    get requests() {
      return state.requests;
    },
    get queue() {
      return state.queue;
    },
    get config() {
      return state.config;
    },
    ...api,
    async close() {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Deterministic stand-in for Anthropic's thinking signature, verified when thinking is sent back. */
export function signThinking(thinking) {
  return 'fakesig_' + hash('thinking:' + (thinking ?? '')).slice(0, 32);
}

// CLI: node test/fake-llm/server.mjs --port N [--config file.json]
// (no top-level await: tsx may load this file as CommonJS from TypeScript tests)
async function main() {
  const args = process.argv.slice(2);
  const portIndex = args.indexOf('--port');
  const port = portIndex >= 0 ? Number(args[portIndex + 1]) : 0;
  const configIndex = args.indexOf('--config');
  let config;
  if (configIndex >= 0) {
    const { readFileSync } = await import('node:fs');
    config = JSON.parse(readFileSync(args[configIndex + 1], 'utf8'));
  }
  const fake = await startFakeLlm({ port, config });
  console.log(fake.url);
  const stop = async () => {
    await fake.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
