// Errors carry the action that fixes them (issue #19): decided from the error kind and the provider table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorActions } from '../../../src/app/error-actions';
import { parseHostMessage } from '../../../src/protocol';

test('an auth error of a keyed provider offers Set API Key for that provider', () => {
  assert.deepEqual(errorActions('auth', 'anthropic'), [{ kind: 'setApiKey', provider: 'anthropic' }]);
  assert.deepEqual(errorActions('auth', 'local'), [{ kind: 'setApiKey', provider: 'local' }]);
});

test('an unreachable server offers its base URL setting; other errors and keyless providers offer nothing', () => {
  assert.deepEqual(errorActions('network', 'local'), [{ kind: 'openSettings', setting: 'arbor.providers.local.baseUrl' }]);
  assert.deepEqual(errorActions('auth', 'vscode-lm'), []);
  assert.deepEqual(errorActions('rate_limit', 'openai'), []);
  assert.deepEqual(errorActions('auth', 'my-own-provider'), []);
  assert.deepEqual(errorActions(undefined, 'openai'), []);
});

test('the actions pass the protocol in an error event and a notice; a foreign setting id does not', () => {
  const actions = [...errorActions('auth', 'openai'), ...errorActions('network', 'local')];
  assert.equal(parseHostMessage({ type: 'agentEvent', event: { type: 'error', message: 'x', kind: 'auth', actions } }).ok, true);
  assert.equal(parseHostMessage({ type: 'notice', level: 'warning', message: 'x', actions }).ok, true);
  const foreign = { type: 'notice', level: 'warning', message: 'x', actions: [{ kind: 'openSettings', setting: 'terminal.integrated.shell' }] };
  assert.equal(parseHostMessage(foreign).ok, false);
});
