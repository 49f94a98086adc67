#!/usr/bin/env node
// Writes test/replay/pi-1.6/<case>.json: what pi 1.6.0's own OpenAI Responses provider makes of the bytes
// of every openai-responses replay case (its first scripted response), so the replay layer can compare
// Arbor's assembled message with pi's (CONTRIBUTING.md, "Regenerating the pi fixtures"). pi's `stream`
// (the openai SDK's SSE reader and pi's processResponsesStream) is pointed at a loopback server that
// answers with the fixture body, so both sides parse exactly the same bytes.
//
// Run with Node >= 22.19 and pi 1.6.0's unpacked npm package:
//   PI_PACKAGE=/tmp/pi16/package node22 scripts/make-pi-responses-fixtures.mjs
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const fixtures = join(root, 'test', 'replay', 'fixtures');
const outDir = join(root, 'test', 'replay', 'pi-1.6');

function piPackage() {
  const dir = process.env.PI_PACKAGE;
  if (!dir) {
    console.error('set PI_PACKAGE to the unpacked @earendil-works/pi-coding-agent@1.6.0 package folder');
    process.exit(2);
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (pkg.version !== '1.6.0') console.warn(`warning: pi ${pkg.version}, the fixtures are named for 1.6.0`);
  return { dir, version: pkg.version };
}

/** The bundle chunk holding pi-ai's OpenAI Responses provider (its file name carries a content hash). */
async function loadResponsesProvider(dir) {
  const chunks = join(dir, 'dist', 'bundle', 'chunks');
  const file = readdirSync(chunks).find((f) => /^openai-responses-[A-Z0-9]+\.js$/.test(f));
  if (!file) throw new Error(`no openai-responses chunk in ${chunks}`);
  const mod = await import(pathToFileURL(join(chunks, file)).href);
  if (typeof mod.stream !== 'function') throw new Error(`${file} exports no stream()`);
  return mod.stream;
}

function serve(status, body) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': status === 200 ? 'text/event-stream' : 'application/json' });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const model = (baseUrl) => ({
  id: 'replay-model', name: 'replay', api: 'openai-responses', provider: 'openai', baseUrl, reasoning: true,
  input: ['text'], cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 }, contextWindow: 128000, maxTokens: 2048,
});

async function piParse(stream, status, body) {
  const server = await serve(status, body);
  const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
  try {
    const context = { systemPrompt: 'Replay.', messages: [{ role: 'user', content: 'hello', timestamp: 0 }] };
    let final;
    for await (const event of stream(model(baseUrl), context, { apiKey: 'sk-replay-openai-0000000000', maxRetries: 0 })) {
      if (event.type === 'done') final = event.message;
      if (event.type === 'error') final = event.error;
    }
    return final;
  } finally {
    server.close();
  }
}

/** What the replay test compares: the content blocks, token counts, stop reason and error. */
function comparable(message) {
  const { input, output, cacheRead, cacheWrite, reasoning, totalTokens } = message.usage;
  return {
    content: message.content,
    usage: { input, output, cacheRead, cacheWrite, reasoning, totalTokens },
    stopReason: message.stopReason,
    ...(message.errorMessage ? { errorMessage: message.errorMessage } : {}),
    ...(message.diagnostics ? { diagnostics: message.diagnostics.map(({ timestamp: _t, ...rest }) => rest) } : {}),
  };
}

const { dir, version } = piPackage();
const stream = await loadResponsesProvider(dir);
mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.manifest.json')).sort()) {
  const manifest = JSON.parse(readFileSync(join(fixtures, file), 'utf8'));
  if (manifest.api !== 'openai-responses' || !manifest.pi) continue;
  const first = manifest.responses[0];
  const message = await piParse(stream, first.status, readFileSync(join(fixtures, first.body)));
  const name = file.replace(/\.manifest\.json$/, '');
  const out = { case: name, body: first.body, pi: version, message: comparable(message) };
  writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(out, null, 1)}\n`);
  console.log(`${name}: ${message.stopReason}, ${message.content.length} blocks`);
}
