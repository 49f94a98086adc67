// Issue #24 item 5: retries are owned by one layer, and a redirect never carries the key anywhere.
// One `arbor-session compact` against a host answering 307 made 17 requests per provider on 9bd794a (29 in
// the attack run): the compaction's candidate loop retried, and each of its attempts was a provider call
// retrying again. Loopback servers count every request: the redirecting one, and the host it points to
// (a different host name, `localhost`), which must see nothing, let alone a key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactionRunner } from '../../../src/compaction/runner';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { createProvider } from '../../../src/llm/registry';
import type { KeyResolver, ModelInfo } from '../../../src/llm/types';
import { SessionStore } from '../../../src/session/store';
import { BUILTIN_MODELS, findModel } from '../../../src/llm/models';
import { reportFigures } from '../profile';

const root = join(__dirname, '../../..');
const OPENAI_KEY = 'sk-test-OPENAI-4c1d9e7f2a';
const ANTHROPIC_KEY = 'sk-ant-test-ANTHROPIC-8b3f0e6d1c';

interface Counting {
  server: Server;
  port: number;
  requests: { path: string; key: string }[];
}

/** A loopback server that counts requests and answers each with `answer`. */
async function countingServer(answer: (req: IncomingMessage) => { status: number; headers?: Record<string, string> }): Promise<Counting> {
  const requests: Counting['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', key: String(req.headers.authorization ?? req.headers['x-api-key'] ?? '') });
    req.resume();
    const { status, headers } = answer(req);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(status >= 400 ? '{"error":{"message":"unavailable, try later","type":"server_error"}}' : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, requests };
}

function sessionFile(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-retry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const lines: object[] = [{ type: 'session', version: 3, id: 's1', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/w' }];
  for (let i = 0; i < 6; i++) {
    const text = `turn ${i} ${'lorem ipsum '.repeat(300)}`;
    const message = i % 2 === 0 ? { role: 'user', content: text, timestamp: i } : { role: 'assistant', content: [{ type: 'text', text }], api: 'x', provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: i };
    lines.push({ type: 'message', id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: `2025-01-01T00:00:0${i + 1}.000Z`, message });
  }
  const file = join(dir, 's.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

function cli(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY };
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], { cwd: root, env });
    let err = '';
    child.stdout.on('data', (d) => (err += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, err }));
  });
}

const figures: Record<string, number> = {};
/** The summary requests (the native /responses/compact request is one request of its own, never retried). */
const summaryRequests = (c: Counting) => c.requests.filter((r) => !r.path.endsWith('/responses/compact')).length;

for (const model of ['openai/gpt-5-mini', 'anthropic/claude-sonnet-4-5']) {
  test(`arbor-session compact (${model}) against a host answering 307: one request, the redirect not followed, a clear error`, async (t) => {
    const elsewhere = await countingServer(() => ({ status: 500 }));
    const redirecting = await countingServer((req) => ({ status: 307, headers: { location: `http://localhost:${elsewhere.port}${req.url ?? '/'}` } }));
    t.after(() => {
      elsewhere.server.close();
      redirecting.server.close();
    });
    const run = await cli(['compact', sessionFile(t), '--model', model, '--base-url', `http://127.0.0.1:${redirecting.port}/v1`, '--keep-recent-tokens', '1200']);
    const name = model.split('/')[0]!;
    figures[`${name}307Requests`] = redirecting.requests.length;
    figures[`${name}RedirectTargetRequests`] = elsewhere.requests.length;
    assert.equal(elsewhere.requests.length, 0, 'the host the redirect points to saw no request');
    assert.equal(summaryRequests(redirecting), 1, `${redirecting.requests.length} requests: ${run.err}`);
    assert.notEqual(run.code, 0);
    assert.match(run.err, /redirect/i, run.err);
    assert.ok(!run.err.includes(OPENAI_KEY) && !run.err.includes(ANTHROPIC_KEY), 'no key in the error');
  });
}

test('a compaction against a host failing with 503: the compaction retries, the provider does not retry again', async (t) => {
  const failing = await countingServer(() => ({ status: 503 }));
  t.after(() => failing.server.close());
  const file = sessionFile(t);
  const keys: KeyResolver = { getKey: async (provider) => (provider === 'openai' ? OPENAI_KEY : provider === 'anthropic' ? ANTHROPIC_KEY : undefined) };
  for (const ref of ['openai/gpt-5-mini', 'anthropic/claude-sonnet-4-5']) {
    failing.requests.length = 0;
    const model: ModelInfo = { ...findModel(BUILTIN_MODELS, ref)!, baseUrl: `http://127.0.0.1:${failing.port}/v1` };
    const store = await SessionStore.open(file);
    const runner = new CompactionRunner({
      store,
      settings: () => ({ ...DEFAULT_COMPACTION_SETTINGS, strategy: 'context-full', keepRecentTokens: 1200 }),
      models: () => ({ current: model, available: [model] }),
      // the providers as the extension and the CLI make them (their own retry policy), without real waits
      providerFor: (m) => createProvider(m, keys, { retry: { sleep: async () => undefined } }),
      retry: { sleep: async () => undefined },
    });
    const outcome = await runner.run({ reason: 'manual' });
    assert.equal(outcome.status, 'failed');
    const name = ref.split('/')[0]!;
    figures[`${name}503Requests`] = summaryRequests(failing);
    assert.equal(summaryRequests(failing), 4, `${ref}: one layer's retries (1 + 3), not one layer's times the other's`);
  }
});

test('figures', () => {
  reportFigures('attacks/retry-layers', figures);
});
