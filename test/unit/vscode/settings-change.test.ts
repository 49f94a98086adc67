// The settings module's change event names the settings that changed (src/vscode/settings/settings-change.ts),
// compared on the parsed values, so a listener can tell a model change from a compaction one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultArborSettings } from '../../../src/app/settings';
import { changedSettings } from '../../../src/vscode/settings/settings-change';

test('a re-read that changes nothing names nothing', () => {
  assert.deepEqual(changedSettings(defaultArborSettings(), defaultArborSettings()), []);
});

test('each changed group is named, nested values included', () => {
  const before = defaultArborSettings();
  const after = defaultArborSettings();
  after.model = 'openai/gpt-5';
  after.compaction = { ...after.compaction, enabled: !after.compaction.enabled };
  assert.deepEqual(changedSettings(before, after).sort(), ['compaction', 'model']);
});

test('a base URL added to one provider names baseUrls', () => {
  const after = defaultArborSettings();
  after.baseUrls = { local: 'http://127.0.0.1:8080' };
  assert.deepEqual(changedSettings(defaultArborSettings(), after), ['baseUrls']);
});
