import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApprovalPolicy,
  RESTRICTED_MODE_REASON,
  applyAnswer,
  deniedToolResult,
  parseApprovalSettings,
} from '../../../src/agent/approval';

import { defineJsonTool } from '../../../src/agent/tools/json-tool';
import { textOutput, type AgentTool, type ToolEffect } from '../../../src/agent/tools/types';
import { builtin } from '../tools/builtin';

const trusted = { trusted: true };

function outside(name: string, effect: ToolEffect): AgentTool {
  return defineJsonTool({ name, description: 'x', inputSchema: { type: 'object' }, effect, origin: { kind: 'mcp', server: 's', tool: name }, execute: async () => textOutput('ok') });
}

/** The built-in of that name, or `mystery`: a tool from outside that may do anything. */
function tool(name: string): AgentTool {
  return name === 'mystery' ? outside('mystery', { kind: 'runs' }) : builtin(name as Parameters<typeof builtin>[0]);
}
const untrusted = { trusted: false };

test('defaults come from the effect: reading tools run, tools that change things ask, an outside tool that runs asks', () => {
  const policy = new ApprovalPolicy();
  for (const name of ['read', 'ls', 'find', 'grep']) assert.deepEqual(policy.decide(tool(name), trusted), { kind: 'allow' });
  for (const name of ['write', 'edit', 'bash', 'mystery']) assert.deepEqual(policy.decide(tool(name), trusted), { kind: 'ask' });
  assert.deepEqual(policy.decide(outside('lookup', { kind: 'readOnly' }), trusted), { kind: 'allow' }, 'an outside read-only tool runs without asking');
  assert.deepEqual(policy.decide(outside('put', { kind: 'writesFiles', targets: () => ['a'] }), trusted), { kind: 'ask' });
});

test('settings override per tool; deny carries a reason', () => {
  const policy = new ApprovalPolicy({ settings: { bash: 'deny', edit: 'allow', read: 'ask' } });
  assert.equal(policy.decide(tool('bash'), trusted).kind, 'deny');
  assert.match((policy.decide(tool('bash'), trusted) as { reason: string }).reason, /bash tool is turned off/);
  assert.deepEqual(policy.decide(tool('edit'), trusted), { kind: 'allow' });
  assert.deepEqual(policy.decide(tool('read'), trusted), { kind: 'ask' });
  policy.updateSettings({});
  assert.deepEqual(policy.decide(tool('bash'), trusted), { kind: 'ask' });
});

test('always allow for this session: remembered until reset, never beats deny', () => {
  const policy = new ApprovalPolicy({ settings: { write: 'deny' } });
  assert.equal(applyAnswer(policy, 'edit', { kind: 'approve' }), true);
  assert.deepEqual(policy.decide(tool('edit'), trusted), { kind: 'ask' });
  assert.equal(applyAnswer(policy, 'edit', { kind: 'approveAlways' }), true);
  assert.deepEqual(policy.decide(tool('edit'), trusted), { kind: 'allow' });
  assert.deepEqual(policy.decide(tool('bash'), trusted), { kind: 'ask' });
  policy.rememberAlways('write');
  assert.equal(policy.decide(tool('write'), trusted).kind, 'deny');
  assert.equal(applyAnswer(policy, 'bash', { kind: 'deny' }), false);
  policy.resetSession();
  assert.deepEqual(policy.decide(tool('edit'), trusted), { kind: 'ask' });
});

test('untrusted workspace: every tool that changes things, built-in or not, is off with the restricted-mode reason', () => {
  const policy = new ApprovalPolicy({ settings: { bash: 'allow' } });
  policy.rememberAlways('edit');
  for (const name of ['write', 'edit', 'bash', 'mystery']) {
    assert.deepEqual(policy.decide(tool(name), untrusted), { kind: 'deny', reason: RESTRICTED_MODE_REASON });
  }
  assert.deepEqual(policy.decide(outside('put', { kind: 'writesFiles', targets: () => ['a'] }), untrusted), { kind: 'deny', reason: RESTRICTED_MODE_REASON });
  assert.deepEqual(policy.decide(outside('lookup', { kind: 'readOnly' }), untrusted), { kind: 'allow' });
  assert.equal(RESTRICTED_MODE_REASON, 'Arbor is in restricted mode: this workspace is not trusted, so tools that change files or run commands are off.');
  assert.deepEqual(policy.decide(tool('read'), untrusted), { kind: 'allow' });
  assert.equal(policy.disabledReason(tool('bash'), untrusted), RESTRICTED_MODE_REASON);
  assert.equal(policy.disabledReason(tool('read'), untrusted), undefined);
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
  assert.deepEqual(policy.decide(tool('write'), trusted), { kind: 'allow' });
  assert.deepEqual(policy.decide(tool('write'), trusted, warning), { kind: 'ask' });
  assert.deepEqual(policy.decide(tool('edit'), trusted, warning), { kind: 'ask' });
  assert.equal(policy.decide(tool('bash'), trusted, warning).kind, 'deny');
  assert.deepEqual(policy.decide(tool('write'), untrusted, warning), { kind: 'deny', reason: RESTRICTED_MODE_REASON });
});
