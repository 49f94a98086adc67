// Issue #14 item 6: whatever the loader accepts reaches the chat. A session file whose entries parse but
// carry odd values (ids the protocol cannot carry, numbers out of range, wrong types, a tool call without
// arguments) must not blank the conversation: the host posts every entry, the odd part shown as unreadable,
// and the load report names the problem. A provider whose tool-call ids the webview cannot carry must not
// leave the agent waiting for an approval card that never appears.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHostMessage, CONVERSATION_PAGE, type HostToWebviewMessage } from '../../../src/protocol';
import { toItem, toTreeNode, toUiEvent } from '../../../src/vscode/chat-items';
import type { ApprovalAnswer } from '../../../src/agent/approval';
import type { ApprovalRequest } from '../../../src/agent/events';
import type { ArborApp } from '../../../src/app/arbor-app';
import { appHarness, ScriptedPrompter } from '../../unit/app/helpers';
import { headerLine } from '../session-corpus';
import { convertToLlm } from '../../../src/session/convert';
import { toOpenAIMessages } from '../../../src/llm/convert-openai';
import { toAnthropicMessages } from '../../../src/llm/convert-anthropic';

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 } };
const at = (n: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
const user = (id: string, parentId: string | null, text: string, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'user', content: text, timestamp: n } });
const reply = (id: string, parentId: string, content: unknown[], n: number, extra: Record<string, unknown> = {}) => ({
  type: 'message', id, parentId, timestamp: at(n),
  message: { role: 'assistant', content, api: 'openai-completions', provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: n, ...extra },
});
const LONG_ID = 'e'.repeat(300);

/** A session: a first question, the odd entry (or entries) `odd` builds on it, then the rest of the conversation. */
function sessionLines(odd: (parent: string) => { lines: unknown[]; last: string }): string {
  const middle = odd('u1');
  const lines = [user('u1', null, 'first question', 1), ...middle.lines, user('u9', middle.last, 'the rest is here', 90), reply('a9', 'u9', [{ type: 'text', text: 'final answer' }], 91)];
  return [headerLine(), ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n';
}

/** What the chat view posts after `ready`: the conversation tail and the tree, as the webview parses them. */
function hostPosts(app: ArborApp): { conversation: HostToWebviewMessage; tree: HostToWebviewMessage } {
  const snapshot = app.snapshot({ conversation: { last: CONVERSATION_PAGE } });
  const items = snapshot.conversation.flatMap((entry) => toItem(entry) ?? []);
  const conversation = parseHostMessage({ type: 'conversation', leafId: snapshot.leafId, items, hasEarlier: snapshot.conversationHasEarlier });
  const tree = parseHostMessage({ type: 'tree', leafId: snapshot.leafId, nodes: (snapshot.tree ?? []).map((node) => toTreeNode(node, snapshot.leafId)) });
  assert.ok(conversation.ok, `the webview drops the conversation: ${conversation.ok ? '' : conversation.reason.slice(0, 300)}`);
  assert.ok(tree.ok, `the webview drops the tree: ${tree.ok ? '' : tree.reason.slice(0, 300)}`);
  return { conversation: conversation.message, tree: tree.message };
}

async function openHostile(t: { after(fn: () => Promise<void>): void }, text: string): Promise<ArborApp> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-hostile-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  await writeFile(file, text);
  const h = await appHarness();
  await h.app.session.openSession(file);
  return h.app;
}

type Items = Extract<HostToWebviewMessage, { type: 'conversation' }>['items'];
function itemsOf(message: HostToWebviewMessage): Items {
  assert.equal(message.type, 'conversation');
  return (message as Extract<HostToWebviewMessage, { type: 'conversation' }>).items;
}
const itemText = (item: Items[number]) => JSON.stringify(item);

function assertRestShown(items: Items, count: number): void {
  assert.equal(items.length, count, `items: ${items.map((i) => i.kind).join(', ')}`);
  assert.ok(items.some((i) => i.kind === 'user' && i.text === 'first question'));
  assert.ok(items.some((i) => i.kind === 'user' && i.text === 'the rest is here'));
  assert.ok(items.some((i) => i.kind === 'assistant' && itemText(i).includes('final answer')));
}

function assertReported(app: ArborApp, pattern: RegExp): void {
  const report = app.currentStore!.loadReport;
  const partly = report.filter((p) => p.kind === 'partly-shown');
  assert.ok(partly.some((p) => pattern.test(p.message)), `load report does not name the problem (${pattern}): ${JSON.stringify(report).slice(0, 400)}`);
}

test('a 300-character entry id: the entry is shown under a short id, and actions on it reach the real entry', async (t) => {
  const app = await openHostile(t, sessionLines((parent) => ({ lines: [reply(LONG_ID, parent, [{ type: 'text', text: 'long-id reply' }], 2)], last: LONG_ID })));
  const { conversation, tree } = hostPosts(app);
  const items = itemsOf(conversation);
  assertRestShown(items, 4);
  const odd = items.find((i) => itemText(i).includes('long-id reply'))!;
  assert.ok(odd.entryId.length <= 256 && odd.entryId !== LONG_ID);
  const nodes = (tree as Extract<HostToWebviewMessage, { type: 'tree' }>).nodes;
  assert.ok(nodes.some((n) => n.id === odd.entryId), 'the tree names the entry by the same short id');
  assert.equal(nodes.find((n) => n.parentId === odd.entryId)?.kind, 'user', 'the child names its parent by the short id');
  const { realId } = await import('../../../src/present/wire-ids');
  assert.equal(realId(odd.entryId), LONG_ID);
  await app.tree.label(realId(odd.entryId), 'kept');
  assert.equal(app.currentStore!.getLabel(LONG_ID), 'kept');
  assertReported(app, /id/);
});

test('an empty tool-call id: the call and its result are shown, paired', async (t) => {
  const app = await openHostile(t, sessionLines((parent) => ({
    lines: [
      reply('a2', parent, [{ type: 'toolCall', id: '', name: 'read', arguments: { path: 'x' } }], 2, { stopReason: 'toolUse' }),
      { type: 'message', id: 'r3', parentId: 'a2', timestamp: at(3), message: { role: 'toolResult', toolCallId: '', toolName: 'read', content: [{ type: 'text', text: 'file body' }], isError: false, timestamp: 3 } },
    ],
    last: 'r3',
  })));
  const items = itemsOf(hostPosts(app).conversation);
  assertRestShown(items, 5);
  const call = items.find((i) => i.kind === 'assistant' && i.blocks.some((b) => b.type === 'toolCall'));
  const result = items.find((i) => i.kind === 'toolResult');
  assert.ok(call && result && result.kind === 'toolResult');
  const block = call.kind === 'assistant' ? call.blocks.find((b) => b.type === 'toolCall') : undefined;
  assert.equal(block && block.type === 'toolCall' ? block.id : undefined, result.toolCallId, 'call and result keep one id');
  assertReported(app, /tool.call id/i);
});

test('"text": 12345 in a content block: shown as an unreadable part', async (t) => {
  const app = await openHostile(t, sessionLines((parent) => ({ lines: [reply('a2', parent, [{ type: 'text', text: 'readable part' }, { type: 'text', text: 12345 }], 2)], last: 'a2' })));
  const items = itemsOf(hostPosts(app).conversation);
  assertRestShown(items, 4);
  const odd = items.find((i) => itemText(i).includes('readable part'))!;
  assert.match(itemText(odd), /unreadable content: text is a number/);
  assertReported(app, /text is a number/);
});

test('tokensBefore: 1e999 (Infinity after JSON.parse): the compaction is shown with a finite count', async (t) => {
  const text = sessionLines((parent) => ({ lines: [{ type: 'compaction', id: 'c2', parentId: parent, timestamp: at(2), summary: 'the summary', firstKeptEntryId: parent, tokensBefore: 1 }], last: 'c2' }));
  const app = await openHostile(t, text.replace('"tokensBefore":1', '"tokensBefore":1e999'));
  const items = itemsOf(hostPosts(app).conversation);
  assert.ok(items.some((i) => i.kind === 'compaction' && i.summary === 'the summary' && Number.isFinite(i.tokensBefore)));
  assert.ok(items.some((i) => i.kind === 'user' && i.text === 'the rest is here'));
  assertReported(app, /tokensBefore/);
});

test('usage fields as strings: the reply is shown, tokens and cost are numbers', async (t) => {
  const bad = { input: '12', output: 'many', cacheRead: 0, cacheWrite: 0, totalTokens: 'x', cost: { total: 'free' } };
  const app = await openHostile(t, sessionLines((parent) => ({ lines: [reply('a2', parent, [{ type: 'text', text: 'odd usage' }], 2, { usage: bad })], last: 'a2' })));
  const items = itemsOf(hostPosts(app).conversation);
  assertRestShown(items, 4);
  assert.ok(items.some((i) => itemText(i).includes('odd usage')));
  assertReported(app, /usage/);
});

test('a tool call without arguments: no throw on the host, shown with empty arguments', async (t) => {
  const app = await openHostile(t, sessionLines((parent) => ({ lines: [reply('a2', parent, [{ type: 'text', text: 'calling' }, { type: 'toolCall', id: 'c1', name: 'read' }], 2)], last: 'a2' })));
  const items = itemsOf(hostPosts(app).conversation);
  assertRestShown(items, 4);
  assert.ok(items.some((i) => i.kind === 'assistant' && i.blocks.some((b) => b.type === 'toolCall' && Object.keys(b.arguments).length === 0)));
  assertReported(app, /arguments/);
  // what the next request sends: the provider conversions treat the missing arguments as {}
  const messages = convertToLlm(app.currentStore!.buildContext().messages);
  const openai = toOpenAIMessages('system', messages).find((m) => m.role === 'assistant') as { tool_calls?: { function: { arguments: string } }[] };
  assert.equal(openai.tool_calls?.[0]?.function.arguments, '{}');
  const anthropic = JSON.stringify(toAnthropicMessages(messages));
  assert.match(anthropic, /"type":"tool_use","id":"c1","name":"read","input":\{\}/);
});

/** Answers like the chat webview: only an approval request the webview can parse gets an answer. */
class WebviewLikePrompter extends ScriptedPrompter {
  readonly shown: string[] = [];
  override ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> {
    this.asked.push(request);
    const event = toUiEvent({ type: 'approval_request', request });
    const parsed = parseHostMessage({ type: 'agentEvent', event });
    if (parsed.ok) {
      this.shown.push(request.toolCallId);
      return Promise.resolve({ kind: 'approve' });
    }
    return new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ kind: 'deny' }), { once: true }));
  }
}

for (const [name, id] of [['300-character', 'k'.repeat(300)], ['empty', ''], ['odd-character', 'call 1\n<b>']] as const) {
  test(`a provider's ${name} tool-call id: the run completes, approval shown under a valid id`, async () => {
    const prompter = new WebviewLikePrompter();
    const h = await appHarness({ prompter });
    h.fake.enqueue({ toolCalls: [{ id, name: 'write', input: { path: 'a.txt', content: 'hi\n' } }] }, { text: 'Done.' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      h.app.prompt('write it').then(() => 'done'),
      new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), 5_000))),
    ]);
    clearTimeout(timer);
    if (outcome === 'hung') await h.app.stop();
    assert.equal(outcome, 'done', `the agent waited for an approval the webview dropped (asked: ${prompter.asked.length}, shown: ${prompter.shown.length})`);
    assert.equal(prompter.shown.length, 1);
    const shownId = prompter.shown[0]!;
    assert.match(shownId, /^[A-Za-z0-9_-]{1,64}$/);
    const conv = h.app.snapshot().conversation;
    const result = conv.find((e) => e.kind === 'toolResult');
    assert.equal(result?.toolCallId, shownId, 'the persisted result references the new id');
    assert.ok(conv.some((e) => e.kind === 'assistant' && e.toolCalls?.some((c) => c.id === shownId)), 'the persisted call carries the new id');
  });
}

test('tool-call ids: invalid and duplicate ids in one reply are replaced, valid ones kept', async () => {
  const { withValidToolCallIds } = await import('../../../src/agent/tool-call-ids');
  const call = (id: string) => ({ type: 'toolCall' as const, id, name: 'read', arguments: {} });
  const reply = { role: 'assistant' as const, content: [call('ok_1'), call('ok_1'), call(''), call('x'.repeat(65)), call('a b'), call('call_1|fc_1'), call('a|b|c')], api: 'x', provider: 'p', model: 'm', usage: { ...usage, cost: { ...usage.cost } }, stopReason: 'toolUse' as const, timestamp: 1 };
  const { message, replaced } = withValidToolCallIds(reply);
  const ids = message.content.map((b) => (b.type === 'toolCall' ? b.id : ''));
  assert.equal(ids[0], 'ok_1');
  assert.equal(new Set(ids).size, 7, `ids stay distinct: ${ids}`);
  assert.equal(ids[5], 'call_1|fc_1', "the Responses API's call_id|item_id is kept");
  assert.notEqual(ids[6], 'a|b|c');
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{1,64}(\|[A-Za-z0-9_-]{1,64})?$/);
  assert.deepEqual(replaced.map((r) => r.reason), ['a duplicate', 'empty', '65 characters long', 'has characters outside [A-Za-z0-9_-]', 'has characters outside [A-Za-z0-9_-]']);
  assert.equal(reply.content[2]!.id, '', 'the provider reply itself is not changed');
});

test('defence in depth: an approval request the webview could not show is named, so the prompter denies it', async () => {
  const { approvalRequestProblem } = await import('../../../src/vscode/chat-items');
  assert.equal(approvalRequestProblem({ toolCallId: 'c'.repeat(300), toolName: 'bash', args: { command: 'ls' } }), undefined, 'a long id travels as a stand-in');
  const broken = { toolCallId: 'c1', toolName: 42 as unknown as string, args: { command: 'ls' } };
  assert.match(approvalRequestProblem(broken) ?? '', /cannot be shown|toolName/);
});
