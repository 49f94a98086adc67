// Issue #14 item 1: an API key is only ever sent over https or to this machine (loopback). A model
// whose base URL is plain http to another host, carries credentials or is not http(s) is refused before
// any request, with an error the user sees. A keyless local server on the LAN stays usable (no key is
// attached). No test traffic leaves the machine: non-loopback hosts are `.invalid`, and every request
// goes through a counting fetch that only forwards to the loopback fake server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server.mjs';
import { createProvider } from '../../../src/llm/registry';
import { requestNativeCompaction } from '../../../src/compaction/openai-native';
import { anthropicModel, collect, fastRetry, keys, openaiModel, request, textOf, user, OPENAI_KEY } from '../../unit/llm/helpers';
import type { ModelInfo } from '../../../src/llm/types';
import { reportFigures } from '../profile';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});

/** Counts every request; forwards only loopback ones (anything else would be a test bug). */
function countingFetch() {
  const urls: string[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    urls.push(url);
    if (!/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) return new Response('{"error":"test refused to forward"}', { status: 599 });
    return fetch(input, init);
  }) as typeof fetch;
  return { urls, impl };
}

const REFUSED_BASES = [
  'http://attacker.invalid/v1',
  'http://10.0.0.5.invalid:8080/v1',
  'http://127.0.0.1.attacker.invalid/v1',
  'https://user:pw@api.attacker.invalid/v1',
  'ftp://attacker.invalid/v1',
];

test('a keyed model with a plain-http (or credentialed, or non-http) base URL makes zero requests and says why', async () => {
  const { urls, impl } = countingFetch();
  let refusals = 0;
  for (const base of REFUSED_BASES) {
    for (const model of [openaiModel(base), anthropicModel(base), openaiModel(base, { provider: 'local', api: 'openai-compatible' })]) {
      const provider = createProvider(model, keys({ openai: OPENAI_KEY, anthropic: OPENAI_KEY, local: OPENAI_KEY }), { ...fastRetry().options, fetch: impl });
      const { message } = await collect(provider, request(model, [user('hi')]));
      assert.equal(message.stopReason, 'error', `${model.api} ${base}`);
      assert.match(message.errorMessage ?? '', /Arbor will not send your API key/, `${model.api} ${base}: ${message.errorMessage}`);
      assert.ok(!(message.errorMessage ?? '').includes(OPENAI_KEY));
      refusals++;
    }
  }
  const native = await requestNativeCompaction({
    model: openaiModel('http://attacker.invalid/v1'), keys: keys(), messages: [user('secret')], fetchImpl: impl, timeoutMs: 2000,
  }).then(() => 'sent', (error: Error) => error.message);
  assert.match(native, /Arbor will not send your API key/);
  assert.deepEqual(urls, [], 'no request was attempted');
  reportFigures('attacks-key-transport', { refusedConfigurations: refusals + 1, requestsMade: urls.length });
});

test('https and loopback http with a key work; keyless http to a LAN server is allowed', async () => {
  const { urls, impl } = countingFetch();
  fake.reset();
  fake.enqueue({ text: 'loopback ok' });
  const model = openaiModel(fake.openaiBaseUrl);
  const { message } = await collect(createProvider(model, keys(), { ...fastRetry().options, fetch: impl }), request(model, [user('hi')]));
  assert.equal(textOf(message), 'loopback ok');
  assert.equal(fake.requests.length, 1, 'the loopback server got the request');

  const lan: ModelInfo = openaiModel('http://ollama.lan.invalid:11434/v1', { provider: 'local', api: 'openai-compatible' });
  const keyless = await collect(createProvider(lan, keys({}), { ...fastRetry().options, retry: { ...fastRetry().options.retry, maxRetries: 0 }, fetch: impl }), request(lan, [user('hi')]));
  assert.doesNotMatch(keyless.message.errorMessage ?? '', /will not send your API key/, 'keyless LAN server is not refused');
  assert.ok(urls.some((u) => u.startsWith('http://ollama.lan.invalid:11434/')), 'the keyless request was attempted');
});
