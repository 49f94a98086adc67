import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArborSettings } from '../../../src/app/settings';
import { parseSlashCommand } from '../../../src/app/slash-commands';

test('settings: valid values apply; each invalid value warns once and falls back', () => {
  const ok = parseArborSettings({ model: 'openai/gpt-5', thinkingLevel: 'high', toolsApproval: { bash: 'allow' }, baseUrls: { openai: 'http://127.0.0.1:9/v1/' } });
  assert.deepEqual(ok.warnings, []);
  assert.equal(ok.settings.thinkingLevel, 'high');
  assert.equal(ok.settings.approval.bash, 'allow');
  assert.equal(ok.settings.models.find((m) => m.id === 'gpt-5')!.baseUrl, 'http://127.0.0.1:9/v1');
  const bad = parseArborSettings({ model: 42, thinkingLevel: 'max', toolsApproval: { bash: 'sometimes' }, baseUrls: { anthropic: 'ftp://x' }, models: [{ provider: 'x' }] });
  assert.equal(bad.settings.model, '');
  assert.equal(bad.settings.thinkingLevel, 'off');
  assert.deepEqual(bad.settings.approval, {});
  assert.equal(bad.settings.baseUrls.anthropic, undefined);
  assert.equal(bad.warnings.length, 5, bad.warnings.join('\n'));
  for (const w of bad.warnings) assert.match(w, /^arbor\./);
});

test('settings: a local base URL adds an OpenAI-compatible model with the detected window', () => {
  const { settings } = parseArborSettings({ baseUrls: { local: 'http://127.0.0.1:8080' }, localContextWindow: 65536, localModelId: 'qwen' });
  const local = settings.models.find((m) => m.provider === 'local')!;
  assert.deepEqual([local.id, local.api, local.baseUrl, local.contextWindow], ['qwen', 'openai-compatible', 'http://127.0.0.1:8080/v1', 65536]);
});

test('settings: a keyed provider base URL over plain http to another host is reported at load time', () => {
  const { warnings, settings } = parseArborSettings({ baseUrls: { openai: 'http://gateway.invalid/v1', anthropic: 'https://gateway.invalid', local: 'http://lan.invalid:8080' } });
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /^arbor\.providers\.openai\.baseUrl: Arbor will not send your API key over plain http to gateway\.invalid/);
  assert.equal(settings.baseUrls.local, 'http://lan.invalid:8080', 'a keyless local server on the LAN is fine');
});

test('slash commands: known ones parse, others are prompts', () => {
  assert.deepEqual(parseSlashCommand('/compact keep the API notes'), { name: 'compact', args: 'keep the API notes' });
  assert.deepEqual(parseSlashCommand(' /compact '), { name: 'compact', args: '' });
  assert.deepEqual(parseSlashCommand('/new'), { name: 'new' });
  assert.deepEqual(parseSlashCommand('/tree'), { name: 'tree' });
  assert.deepEqual(parseSlashCommand('/model openai/gpt-5'), { name: 'model', args: 'openai/gpt-5' });
  assert.equal(parseSlashCommand('/newer'), undefined);
  assert.equal(parseSlashCommand('/new thing'), undefined);
  assert.equal(parseSlashCommand('please /compact'), undefined);
});

test('the editor tools settings: defaults, valid values, and one warning per invalid value', () => {
  const plain = parseArborSettings({});
  assert.deepEqual(plain.settings.editorTools, { diagnosticsAfterEdit: true, vscodeToolsEnabled: [], vscodeToolsReadOnly: [] });
  const set = parseArborSettings({ editorTools: { diagnosticsAfterEdit: false, enabled: [' search ', 'mcp', 'mcp'], readOnly: ['search'] } });
  assert.deepEqual(set.settings.editorTools, { diagnosticsAfterEdit: false, vscodeToolsEnabled: ['search', 'mcp'], vscodeToolsReadOnly: ['search'] });
  assert.deepEqual(set.warnings, []);
  const bad = parseArborSettings({ editorTools: { diagnosticsAfterEdit: 'yes', enabled: 'all', readOnly: ['ok', 3, ''] } });
  assert.deepEqual(bad.settings.editorTools, { diagnosticsAfterEdit: true, vscodeToolsEnabled: [], vscodeToolsReadOnly: ['ok'] });
  assert.deepEqual(bad.warnings, [
    'arbor.tools.diagnosticsAfterEdit: "yes" is not true or false; using the default (true).',
    'arbor.vscodeTools.enabled: "all" is not a list of tool names or tags; using none.',
    'arbor.vscodeTools.readOnly: entries that are not tool names or tags are ignored.',
  ]);
});
