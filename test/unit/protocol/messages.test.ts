// The shared protocol: every message type parses when well-formed, and the shapes that must not reach a
// handler (unknown keys, wrong types, oversize strings, unsafe numbers, wrong direction) are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONVERSATION_PAGE,
  LIMITS,
  hostToWebviewSchema,
  parseHostMessage,
  parseWebviewMessage,
  webviewToHostSchema,
} from '../../../src/protocol';
import { validHostMessages, validWebviewMessages } from './fixtures';

test('every webview -> host message type has a valid sample that parses unchanged', () => {
  const types = new Set(webviewToHostSchema.options.map((o) => o.shape.type.value));
  for (const message of validWebviewMessages) {
    const parsed = parseWebviewMessage(message);
    assert.ok(parsed.ok, `${message.type}: ${parsed.ok ? '' : parsed.reason}`);
    assert.deepEqual(parsed.message, message);
    types.delete(message.type);
  }
  assert.deepEqual([...types], [], 'samples cover every type');
});

test('every host -> webview message type has a valid sample that parses unchanged', () => {
  const types = new Set(hostToWebviewSchema.options.map((o) => o.shape.type.value));
  for (const message of validHostMessages) {
    const parsed = parseHostMessage(message);
    assert.ok(parsed.ok, `${message.type}: ${parsed.ok ? '' : parsed.reason}`);
    assert.deepEqual(parsed.message, message);
    types.delete(message.type);
  }
  assert.deepEqual([...types], [], 'samples cover every type');
});

test('messages sent the wrong way are refused', () => {
  for (const message of validHostMessages) assert.equal(parseWebviewMessage(message).ok, false, message.type);
  for (const message of validWebviewMessages) assert.equal(parseHostMessage(message).ok, false, message.type);
});

test('an old host state (only the first four fields) still validates', () => {
  const parsed = parseHostMessage({
    type: 'state',
    state: { extensionVersion: '0.1.0', workspaceFolders: [], workspaceTrusted: true, modelLabel: null },
  });
  assert.equal(parsed.ok, true);
});

test('planReady in the state is a boolean: the host decides, the webview only shows', () => {
  const state = { extensionVersion: '0.1.0', workspaceFolders: [], workspaceTrusted: true, modelLabel: null };
  assert.equal(parseHostMessage({ type: 'state', state: { ...state, planReady: true } }).ok, true);
  assert.equal(parseHostMessage({ type: 'state', state: { ...state, planReady: 'yes' } }).ok, false);
});

test('specific refusals with a readable reason', () => {
  const cases: [unknown, RegExp][] = [
    [{ type: 'prompt', text: '' }, /text/],
    [{ type: 'prompt', text: 'x'.repeat(LIMITS.prompt + 1) }, /text/],
    [{ type: 'prompt', text: 'hi', extra: 1 }, /extra|Unrecognized/i],
    [{ type: 'dequeue', index: -1 }, /index/],
    [{ type: 'dequeue', index: 1.5 }, /index/],
    [{ type: 'dequeue', index: Number.NaN }, /index/],
    [{ type: 'navigate', targetId: 'a', mode: 'delete-everything' }, /mode/],
    [{ type: 'navigate', targetId: '', mode: 'none' }, /targetId/],
    [{ type: 'label', entryId: 'e', label: '' }, /label/],
    [{ type: 'label', entryId: 'e', label: 'x'.repeat(LIMITS.label + 1) }, /label/],
    [{ type: 'setThinkingLevel', level: 'ultra' }, /level/],
    [{ type: 'setApprovalMode', mode: 'yolo' }, /mode/],
    [{ type: 'runPlan', mode: 'plan' }, /mode/],
    [{ type: 'approve', toolCallId: 'x'.repeat(LIMITS.id + 1) }, /toolCallId/],
    [{ type: 'rm -rf /' }, /type/],
    [null, /message/],
    ['prompt', /message/],
    [[{ type: 'stop' }], /message/],
  ];
  for (const [raw, reason] of cases) {
    const parsed = parseWebviewMessage(raw);
    assert.equal(parsed.ok, false, JSON.stringify(raw)?.slice(0, 80));
    if (!parsed.ok) assert.match(parsed.reason, reason);
  }
});

test('host messages with unsafe numbers or oversize arrays are refused', () => {
  const usage = { contextTokens: 1, estimatedTokens: 1, contextWindow: 1, thresholdTokens: 1, sessionCost: 0, branchCost: 0, branchTokens: 0 };
  assert.equal(parseHostMessage({ type: 'agentEvent', event: { type: 'usage', usage } }).ok, true);
  for (const bad of [Number.POSITIVE_INFINITY, Number.NaN, -1, 1e300]) {
    assert.equal(parseHostMessage({ type: 'agentEvent', event: { type: 'usage', usage: { ...usage, contextWindow: bad } } }).ok, false, String(bad));
  }
  const queued = Array.from({ length: LIMITS.list + 1 }, () => 'q');
  assert.equal(parseHostMessage({ type: 'agentEvent', event: { type: 'queued', messages: queued } }).ok, false);
});

test('windowed conversation: page sizes and counts are bounded, hasEarlier is required, pages name their request', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'user', entryId: `u${i}`, timestamp: i, text: 'q' }));
  assert.equal(parseHostMessage({ type: 'conversation', leafId: 'u0', items: items(LIMITS.page), hasEarlier: true }).ok, true);
  assert.equal(parseHostMessage({ type: 'conversation', leafId: 'u0', items: items(LIMITS.page + 1), hasEarlier: true }).ok, false);
  assert.match(reasonOf(parseHostMessage({ type: 'conversation', leafId: 'u0', items: items(1) })), /hasEarlier/);
  const page = { type: 'conversationPage', seq: 3, leafId: 'u0', beforeId: 'u1', items: items(2), hasEarlier: false };
  assert.equal(parseHostMessage(page).ok, true);
  assert.equal(parseHostMessage({ ...page, items: items(LIMITS.page + 1) }).ok, false);
  assert.equal(parseHostMessage({ ...page, leafId: null }).ok, false);
  assert.equal(parseHostMessage({ ...page, beforeId: '' }).ok, false);
  assert.ok(CONVERSATION_PAGE >= 1 && CONVERSATION_PAGE <= LIMITS.page, 'the tail fits one message');

  const request = { type: 'loadEarlier', seq: 3, leafId: 'a1', beforeId: 'u1', count: 200 };
  assert.equal(parseWebviewMessage(request).ok, true);
  for (const count of [0, -1, 1.5, LIMITS.page + 1, Number.NaN, Number.POSITIVE_INFINITY, '200']) {
    assert.match(reasonOf(parseWebviewMessage({ ...request, count })), /count/, String(count));
  }
  assert.match(reasonOf(parseWebviewMessage({ ...request, leafId: null })), /leafId/);
  assert.match(reasonOf(parseWebviewMessage({ ...request, beforeId: 'x'.repeat(LIMITS.id + 1) })), /beforeId/);
  assert.equal(parseWebviewMessage({ ...request, items: [] }).ok, false, 'unknown keys are refused');

  // The request number is required both ways and is a bounded integer (the webview wraps at LIMITS.seq).
  assert.equal(parseWebviewMessage({ ...request, seq: 0 }).ok, true);
  assert.equal(parseWebviewMessage({ ...request, seq: LIMITS.seq }).ok, true);
  assert.equal(parseHostMessage({ ...page, seq: LIMITS.seq }).ok, true);
  const { seq: _request, ...unnumbered } = request;
  const { seq: _page, ...unnumberedPage } = page;
  assert.match(reasonOf(parseWebviewMessage(unnumbered)), /seq/, 'a request without its number');
  assert.match(reasonOf(parseHostMessage(unnumberedPage)), /seq/, 'an answer without its number');
  for (const seq of [-1, 1.5, LIMITS.seq + 1, Number.NaN, Number.POSITIVE_INFINITY, '3', null]) {
    assert.match(reasonOf(parseWebviewMessage({ ...request, seq })), /seq/, `request seq ${String(seq)}`);
    assert.match(reasonOf(parseHostMessage({ ...page, seq })), /seq/, `page seq ${String(seq)}`);
  }

  assert.equal(parseHostMessage({ type: 'labels', leafId: null, labels: [{ entryId: 'e', label: '' }] }).ok, false, 'removal is an absent label, not an empty one');
  assert.equal(parseHostMessage({ type: 'labels', leafId: 'l', labels: Array.from({ length: LIMITS.list + 1 }, () => ({ entryId: 'e' })) }).ok, false);
});

function reasonOf(parsed: { ok: boolean; reason?: string }): string {
  return parsed.ok ? '(accepted)' : parsed.reason ?? '';
}
