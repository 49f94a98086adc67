import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApprovalPolicy,
  RESTRICTED_MODE_REASON,
  applyAnswer,
  deniedToolResult,
  parseApprovalSettings,
} from '../../../src/agent/approval';

const trusted = { trusted: true };
const untrusted = { trusted: false };

test('defaults: reading tools run, mutating tools ask, unknown tools ask', () => {
  const policy = new ApprovalPolicy();
  for (const name of ['read', 'ls', 'find', 'grep']) assert.deepEqual(policy.decide(name, trusted), { kind: 'allow' });
  for (const name of ['write', 'edit', 'bash', 'mystery']) assert.deepEqual(policy.decide(name, trusted), { kind: 'ask' });
});

test('settings override per tool; deny carries a reason', () => {
  const policy = new ApprovalPolicy({ settings: { bash: 'deny', edit: 'allow', read: 'ask' } });
  assert.equal(policy.decide('bash', trusted).kind, 'deny');
  assert.match((policy.decide('bash', trusted) as { reason: string }).reason, /bash tool is turned off/);
  assert.deepEqual(policy.decide('edit', trusted), { kind: 'allow' });
  assert.deepEqual(policy.decide('read', trusted), { kind: 'ask' });
  policy.updateSettings({});
  assert.deepEqual(policy.decide('bash', trusted), { kind: 'ask' });
});

test('always allow for this session: remembered until reset, never beats deny', () => {
  const policy = new ApprovalPolicy({ settings: { write: 'deny' } });
  assert.equal(applyAnswer(policy, 'edit', { kind: 'approve' }), true);
  assert.deepEqual(policy.decide('edit', trusted), { kind: 'ask' });
  assert.equal(applyAnswer(policy, 'edit', { kind: 'approveAlways' }), true);
  assert.deepEqual(policy.decide('edit', trusted), { kind: 'allow' });
  assert.deepEqual(policy.decide('bash', trusted), { kind: 'ask' });
  policy.rememberAlways('write');
  assert.equal(policy.decide('write', trusted).kind, 'deny');
  assert.equal(applyAnswer(policy, 'bash', { kind: 'deny' }), false);
  policy.resetSession();
  assert.deepEqual(policy.decide('edit', trusted), { kind: 'ask' });
});

test('untrusted workspace: mutating and unknown tools are off with the restricted-mode reason', () => {
  const policy = new ApprovalPolicy({ settings: { bash: 'allow' } });
  policy.rememberAlways('edit');
  for (const name of ['write', 'edit', 'bash', 'mystery']) {
    assert.deepEqual(policy.decide(name, untrusted), { kind: 'deny', reason: RESTRICTED_MODE_REASON });
  }
  assert.equal(RESTRICTED_MODE_REASON, 'Arbor is in restricted mode: this workspace is not trusted, so write, edit and bash are off.');
  assert.deepEqual(policy.decide('read', untrusted), { kind: 'allow' });
  assert.equal(policy.disabledReason('bash', untrusted), RESTRICTED_MODE_REASON);
  assert.equal(policy.disabledReason('read', untrusted), undefined);
});

test('parseApprovalSettings keeps valid entries and reports bad ones', () => {
  assert.deepEqual(parseApprovalSettings(undefined), { settings: {}, problems: [] });
  const parsed = parseApprovalSettings({ bash: 'allow', edit: 'sometimes', write: 3 });
  assert.deepEqual(parsed.settings, { bash: 'allow' });
  assert.equal(parsed.problems.length, 2);
  assert.match(parsed.problems[0], /"edit" must be "ask", "allow" or "deny"/);
  assert.equal(parseApprovalSettings(['ask']).problems.length, 1);
});

test('a denial becomes an error tool result the model can act on', () => {
  const byUser = deniedToolResult('bash', { by: 'user', feedback: 'use npm test instead' });
  assert.equal(byUser.isError, true);
  const text = byUser.content[0].type === 'text' ? byUser.content[0].text : '';
  assert.match(text, /^The user denied this tool call \(bash\)/);
  assert.match(text, /The user said: use npm test instead/);
  assert.match(text, /Do not retry/);
  const plain = deniedToolResult('edit', { by: 'user' });
  assert.doesNotMatch(plain.content[0].type === 'text' ? plain.content[0].text : '', /The user said/);
  const byPolicy = deniedToolResult('write', { by: 'policy', reason: RESTRICTED_MODE_REASON });
  assert.match(byPolicy.content[0].type === 'text' ? byPolicy.content[0].text : '', /restricted mode/);
  assert.deepEqual(byPolicy.details, { denied: true, by: 'policy', reason: RESTRICTED_MODE_REASON });
});

test('a warning makes allow and "always" ask; deny and restricted mode still refuse', () => {
  const warning = [{ kind: 'protectedPath' as const, message: 'Protected file (.vscode/)' }];
  const policy = new ApprovalPolicy({ settings: { write: 'allow', bash: 'deny' } });
  policy.rememberAlways('edit');
  assert.deepEqual(policy.decide('write', trusted), { kind: 'allow' });
  assert.deepEqual(policy.decide('write', trusted, warning), { kind: 'ask' });
  assert.deepEqual(policy.decide('edit', trusted, warning), { kind: 'ask' });
  assert.equal(policy.decide('bash', trusted, warning).kind, 'deny');
  assert.deepEqual(policy.decide('write', untrusted, warning), { kind: 'deny', reason: RESTRICTED_MODE_REASON });
});
