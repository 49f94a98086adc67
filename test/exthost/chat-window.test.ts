// The chat view sends the conversation windowed: on ready only the tail of a long active path, earlier
// pages on request, each answer carrying its request's number (seq); stale or hostile page requests are
// refused without a reply or a side effect; a label
// change patches items (`labels`) instead of re-sending the conversation.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CONVERSATION_PAGE, LIMITS, parseHostMessage, type HostToWebviewMessage } from '../../src/protocol';
import type { ArborApi } from '../../src/vscode/api';
import { activateArbor, waitFor } from './helpers';

const TURNS = 400;

/** TURNS turns on one branch: question, a read call, its result, an answer (1,600 entries). */
async function writeLongSession(dir: string): Promise<string> {
  let clock = Date.UTC(2025, 2, 1);
  const at = () => new Date((clock += 1000)).toISOString();
  const lines: Record<string, unknown>[] = [{ type: 'session', version: 3, id: 'exthost-window', timestamp: at(), cwd: dir }];
  let parentId: string | null = null;
  const add = (id: string, message: Record<string, unknown>) => {
    lines.push({ type: 'message', id, parentId, timestamp: at(), message: { timestamp: clock, ...message } });
    parentId = id;
  };
  const reply = (content: unknown[]) => ({ role: 'assistant', content, api: 'openai-completions', provider: 'fake', model: 'fake-gpt', stopReason: 'stop' });
  for (let turn = 0; turn < TURNS; turn++) {
    add(`u${turn}`, { role: 'user', content: `question ${turn}` });
    add(`c${turn}`, reply([{ type: 'toolCall', id: `call${turn}`, name: 'read', arguments: { path: `f${turn}.ts` } }]));
    add(`r${turn}`, { role: 'toolResult', toolCallId: `call${turn}`, toolName: 'read', content: [{ type: 'text', text: `file ${turn}` }], isError: false });
    add(`a${turn}`, reply([{ type: 'text', text: `answer ${turn}` }]));
  }
  const file = join(dir, 'long-window.jsonl');
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

function postsSince(api: ArborApi, start: number): HostToWebviewMessage[] {
  return api.chatView.postsSince(start);
}

suite('chat view: windowed conversation', () => {
  let dir: string;
  let api: ArborApi;
  let fullIds: string[];

  suiteSetup(async () => {
    api = await activateArbor();
    dir = await mkdtemp(join(tmpdir(), 'arbor-exthost-window-'));
    await api.app.session.openSession(await writeLongSession(dir));
    fullIds = api.app.snapshot({ tree: false }).conversation.map((view) => view.id);
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to resolve', () => api.chatView.isResolved);
  });

  suiteTeardown(async () => {
    await api.app.session.newSession();
    await rm(dir, { recursive: true, force: true });
  });

  test('ready is answered with the tail of the path and hasEarlier, not the whole conversation', async () => {
    assert.equal(fullIds.length, TURNS * 4);
    const start = api.chatView.postCount;
    assert.equal(await api.chatView.receive({ type: 'ready', protocolVersion: 4 }), true);
    const conversation = postsSince(api, start).find((post) => post.type === 'conversation');
    assert.ok(conversation?.type === 'conversation');
    assert.ok(parseHostMessage(conversation).ok);
    assert.equal(conversation.hasEarlier, true);
    assert.equal(conversation.leafId, `a${TURNS - 1}`);
    assert.deepEqual(conversation.items.map((item) => item.entryId), fullIds.slice(-CONVERSATION_PAGE));
  });

  test('loadEarlier is answered with the page before beforeId, under its seq; walking back reaches the first message', async () => {
    const leafId = `a${TURNS - 1}`;
    let beforeId = fullIds[fullIds.length - CONVERSATION_PAGE]!;
    const loaded: string[] = [];
    // numbers as a webview picks them: anywhere in the bound, the largest one included
    const seqs = [LIMITS.seq, 0, 17, 123_456];
    for (let hasEarlier = true, n = 0; hasEarlier; n++) {
      const seq = seqs[n % seqs.length]!;
      const start = api.chatView.postCount;
      assert.equal(await api.chatView.receive({ type: 'loadEarlier', seq, leafId, beforeId, count: LIMITS.page }), true);
      const page = postsSince(api, start).find((post) => post.type === 'conversationPage');
      assert.ok(page?.type === 'conversationPage', `a page before ${beforeId}`);
      assert.ok(parseHostMessage(page).ok);
      assert.deepEqual([page.seq, page.leafId, page.beforeId], [seq, leafId, beforeId], 'the answer names its request');
      loaded.unshift(...page.items.map((item) => item.entryId));
      hasEarlier = page.hasEarlier;
      beforeId = page.items[0]!.entryId;
    }
    assert.deepEqual(loaded, fullIds.slice(0, -CONVERSATION_PAGE));
  });

  test('stale, off-path and oversized page requests get no answer and change nothing', async () => {
    const leafId = `a${TURNS - 1}`;
    const before = { ...api.chatView.stats };
    const start = api.chatView.postCount;
    const stale = [
      { type: 'loadEarlier', seq: 1, leafId: 'no-such-leaf', beforeId: 'u3', count: 10 },
      { type: 'loadEarlier', seq: 2, leafId, beforeId: 'no-such-entry', count: 10 },
      { type: 'loadEarlier', seq: 3, leafId: 'u3', beforeId: 'a10', count: 10 },
    ];
    for (const raw of stale) assert.equal(await api.chatView.receive(raw), true, 'well-formed: accepted, then refused');
    const invalid = [
      { type: 'loadEarlier', seq: 4, leafId, beforeId: 'u3', count: LIMITS.page + 1 },
      { type: 'loadEarlier', seq: 5, leafId, beforeId: 'u3', count: 0 },
      { type: 'loadEarlier', seq: 6, leafId, beforeId: 'u3' },
      { type: 'loadEarlier', seq: 7, leafId: null, beforeId: 'u3', count: 10 },
      // the request number is required, an integer within LIMITS.seq
      { type: 'loadEarlier', leafId, beforeId: 'u3', count: 10 },
      { type: 'loadEarlier', seq: -1, leafId, beforeId: 'u3', count: 10 },
      { type: 'loadEarlier', seq: 1.5, leafId, beforeId: 'u3', count: 10 },
      { type: 'loadEarlier', seq: LIMITS.seq + 1, leafId, beforeId: 'u3', count: 10 },
      { type: 'loadEarlier', seq: '8', leafId, beforeId: 'u3', count: 10 },
    ];
    for (const raw of invalid) assert.equal(await api.chatView.receive(raw), false, JSON.stringify(raw));
    assert.equal(api.chatView.stats.refusedPages, before.refusedPages + stale.length);
    assert.equal(api.chatView.stats.rejected, before.rejected + invalid.length);
    assert.equal(api.chatView.stats.failed, before.failed, 'no handler threw');
    assert.deepEqual(postsSince(api, start), [], 'nothing was posted in reply');
    assert.equal(api.app.snapshot({ tree: false, conversation: false }).leafId, leafId, 'the session did not move');
  });

  test('a label on an early entry is sent as a labels patch, not as a new conversation', async () => {
    const start = api.chatView.postCount;
    assert.equal(await api.chatView.receive({ type: 'label', entryId: 'u2', label: 'early' }), true);
    await waitFor('the labels message', () => postsSince(api, start).some((post) => post.type === 'labels'));
    const posts = postsSince(api, start);
    const labels = posts.find((post) => post.type === 'labels');
    assert.ok(labels?.type === 'labels');
    assert.deepEqual(labels.labels, [{ entryId: 'u2', label: 'early' }]);
    assert.equal(labels.leafId, api.app.snapshot({ tree: false, conversation: false }).leafId);
    assert.ok(!posts.some((post) => post.type === 'conversation'), 'no conversation re-post (it would drop earlier pages)');
  });
});
