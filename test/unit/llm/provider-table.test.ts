// The provider table (src/llm/providers/) is the one place that names providers: its consumers and the
// manifest must agree with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PROVIDERS, providerApis, sdkChunks, keyedProviders, baseUrlProviders, autoPickOrder } from '../../../src/llm/providers';
import { createProvider } from '../../../src/llm/registry';
import { envKeyResolver } from '../../../src/llm/keys';
import { BUILTIN_MODELS, resolveModels } from '../../../src/llm/models';
import { isOverflowMessage } from '../../../src/llm/overflow';
import { MACHINE_SCOPED_SETTINGS, readRawSettings } from '../../../src/app/settings-read';
import { PROVIDER_BASE_URL_KEYS } from '../../../src/app/settings';
import { staticKeyResolver } from '../../../src/llm/keys';

const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
const nls = JSON.parse(readFileSync(new URL('../../../package.nls.json', import.meta.url), 'utf8'));
const properties = (manifest.contributes.configuration as { properties: Record<string, any> }[]).reduce<Record<string, any>>((all, c) => ({ ...all, ...c.properties }), {});

test('every base URL setting in the table is contributed, machine scoped, described, and read', () => {
  const ids = baseUrlProviders().map((p) => p.id);
  assert.deepEqual(ids, ['openai', 'anthropic', 'local']);
  assert.deepEqual([...PROVIDER_BASE_URL_KEYS], ids);
  const raw = readRawSettings(() => ({ get: () => undefined, inspect: (key) => ({ globalValue: `https://${key}` }) }));
  for (const id of ids) {
    const setting = `arbor.providers.${id}.baseUrl`;
    assert.equal(properties[setting]?.scope, 'machine', setting);
    assert.ok(nls[String(properties[setting].markdownDescription).slice(1, -1)], `${setting} has its nls text`);
    assert.ok(MACHINE_SCOPED_SETTINGS.includes(setting));
    assert.equal(raw.baseUrls?.[id], `https://providers.${id}.baseUrl`, `${setting} is read`);
  }
  assert.equal(Object.keys(properties).filter((k) => k.startsWith('arbor.providers.')).length, ids.length, 'no setting for a provider outside the table');
});

test('the manifest api enum names only wire APIs of the table, and every keyed one', () => {
  const apis = providerApis();
  const enumValues: string[] = properties['arbor.models'].items.properties.api.enum;
  for (const api of enumValues) assert.ok(apis.includes(api as never), api);
  for (const p of keyedProviders()) assert.ok(enumValues.includes(p.api), p.api);
  assert.equal(resolveModels([{ provider: 'x', id: 'y', api: 'nope' }]).problems.length, 1);
});

test('each api is created by its descriptor; built-ins, env keys, SDK chunks and overflow wordings come from the table', async () => {
  for (const p of PROVIDERS) for (const m of p.models) assert.ok(BUILTIN_MODELS.some((b) => b.provider === m.provider && b.id === m.id));
  for (const model of BUILTIN_MODELS) assert.ok(createProvider(model, staticKeyResolver({})));
  assert.deepEqual(sdkChunks(), { openai: 'openai', '@anthropic-ai/sdk': 'anthropic' });
  const env = envKeyResolver({ OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', ARBOR_OTHER_API_KEY: 'x' });
  assert.deepEqual([await env.getKey('openai'), await env.getKey('anthropic'), await env.getKey('other')], ['o', 'a', 'x']);
  const samples = [
    "This model's maximum context length is 8192 tokens.", 'prompt is too long: 210000 tokens > 200000 maximum',
    'Context size has been exceeded.', 'The decoder prompt (length 9000) is longer than the maximum model length of 8192.',
    'model_max_prompt_tokens_exceeded',
  ];
  for (const text of samples) assert.ok(isOverflowMessage(text), text);
  assert.deepEqual(autoPickOrder().map((p) => p.id), ['anthropic', 'openai', 'vscode-lm']);
});
