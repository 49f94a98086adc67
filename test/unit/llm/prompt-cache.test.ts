// A one-off request (a summary from a transcript) sets no Anthropic cache breakpoints: a cache write costs
// 1.25× the input price and nothing would ever read it (issue 25). Other requests keep them. On the wire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/llm/registry';
import { anthropicModel, collect, fastRetry, keys, request, useFakeLlm, user } from './helpers';

const fakeLlm = useFakeLlm();
const tools = [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: {} } }];

test("promptCache 'none' sends no cache_control; by default system, tools and the last block carry one", async () => {
  const fake = fakeLlm();
  fake.enqueue({ text: 'a' }, { text: 'b' });
  const model = anthropicModel(fake.anthropicBaseUrl);
  const provider = createProvider(model, keys(), fastRetry().options);
  await collect(provider, request(model, [user('x '.repeat(2000))], { tools }));
  await collect(provider, request(model, [user('x '.repeat(2000))], { tools, promptCache: 'none' }));
  assert.equal((JSON.stringify(fake.requests[0]!.body).match(/cache_control/g) ?? []).length, 3);
  assert.doesNotMatch(JSON.stringify(fake.requests[1]!.body), /cache_control/);
});
