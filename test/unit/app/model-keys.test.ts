// The model picker marks models whose provider needs a key that is not set (issue #19).
import { accepted } from './outcome';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelChoice } from '../../../src/app/model-choice';
import { parseArborSettings } from '../../../src/app/settings';
import { staticKeyResolver } from '../../../src/llm/keys';

function choice(keys: Record<string, string | undefined>) {
  const settings = parseArborSettings({ baseUrls: { local: 'http://127.0.0.1:11434/v1' } }).settings;
  const resolver = staticKeyResolver(keys);
  return { models: new ModelChoice({ settings: () => settings, keys: resolver, agent: () => undefined, changed: () => undefined }), settings, keys };
}

test('models of a provider without a key are marked; keyless and local providers never are', async () => {
  const { models, settings } = choice({ openai: 'sk-test' });
  await models.applySettings(settings);
  const byProvider = new Map(models.available().map((m) => [m.provider, m.keyMissing]));
  assert.equal(byProvider.get('openai'), false);
  assert.equal(byProvider.get('anthropic'), true);
  assert.equal(byProvider.get('demo'), false);
  assert.equal(byProvider.get('local'), false);
});

test('a key stored later unmarks the provider once settings are applied again', async () => {
  const { models, settings, keys } = choice({});
  await models.applySettings(settings);
  assert.ok(models.available().filter((m) => m.provider === 'openai').every((m) => m.keyMissing));
  keys.openai = 'sk-now';
  await models.applySettings(settings);
  assert.ok(models.available().filter((m) => m.provider === 'openai').every((m) => !m.keyMissing));
});

test('choosing a model without a key says so in the returned view', async () => {
  const { models, settings } = choice({ openai: 'sk-test' });
  await models.applySettings(settings);
  const anthropic = models.available().find((m) => m.provider === 'anthropic')!;
  assert.equal(accepted(await models.set(anthropic.key)).keyMissing, true);
  const openai = models.available().find((m) => m.provider === 'openai')!;
  assert.equal(accepted(await models.set(openai.key)).keyMissing, false);
});

test('a settings change still reading keys does not undo a model chosen meanwhile (Select Model twice in a row)', async () => {
  let settings = parseArborSettings({}).settings;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const keys = { getKey: async (provider: string) => { await gate; return provider === 'openai' ? 'sk-test' : undefined; } };
  const models = new ModelChoice({ settings: () => settings, keys, agent: () => undefined, changed: () => undefined });
  // Select Model: openai saved in arbor.model → its settings change starts and waits for the keys …
  await models.set('openai/gpt-5-mini');
  settings = parseArborSettings({ model: 'openai/gpt-5-mini' }).settings;
  const firstChange = models.applySettings(settings);
  // … while the user picks the demo model, whose own settings change comes after.
  await models.set('demo/arbor-demo');
  release();
  await firstChange;
  assert.equal(modelKeyOf(models.current), 'demo/arbor-demo', 'the later choice stands');
  settings = parseArborSettings({ model: 'demo/arbor-demo' }).settings;
  await models.applySettings(settings);
  assert.equal(modelKeyOf(models.current), 'demo/arbor-demo');
});

function modelKeyOf(model: { provider: string; id: string }): string {
  return `${model.provider}/${model.id}`;
}
