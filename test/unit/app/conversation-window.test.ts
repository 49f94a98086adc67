// The app's windowed conversation: the tail snapshot and earlier pages equal the whole conversation, and
// page requests that are stale (the path changed) or name entries off the path are refused with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentMessage } from '../../../src/core/messages';
import type { ConversationEntry } from '../../../src/app/view-model';
import { appHarness, type AppHarness } from './helpers';

const TURNS = 300;

/** A session file of TURNS turns (question, tool call, its result, answer) plus a side branch off turn 0. */
async function writeLongSession(h: AppHarness): Promise<string> {
  let clock = Date.UTC(2025, 0, 1);
  const lines: Record<string, unknown>[] = [{ type: 'session', version: 3, id: 'long', timestamp: new Date(clock).toISOString(), cwd: h.ws }];
  let parentId: string | null = null;
  const add = (id: string, message: Record<string, unknown>, sideOf?: string) => {
    lines.push({ type: 'message', id, parentId: sideOf ?? parentId, timestamp: new Date((clock += 1000)).toISOString(), message: { timestamp: clock, ...message } });
    if (!sideOf) parentId = id;
  };
  const assistant = (content: unknown[]) => ({ role: 'assistant', content, api: 'openai-completions', provider: 'openai', model: 'fake-gpt', stopReason: 'stop' });
  for (let turn = 0; turn < TURNS; turn++) {
    add(`u${turn}`, { role: 'user', content: `question ${turn}` });
    if (turn === 0) add('side', { role: 'user', content: 'a side branch' }, 'u0');
    add(`c${turn}`, assistant([{ type: 'toolCall', id: `call${turn}`, name: 'read', arguments: { path: `f${turn}` } }]));
    add(`r${turn}`, { role: 'toolResult', toolCallId: `call${turn}`, toolName: 'read', content: [{ type: 'text', text: `file ${turn}` }], isError: turn % 7 === 0 });
    add(`a${turn}`, assistant([{ type: 'text', text: `answer ${turn}` }]));
  }
  await mkdir(h.sessionsDir, { recursive: true });
  const file = join(h.sessionsDir, 'long.jsonl');
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

async function openLong(): Promise<{ h: AppHarness; full: ConversationEntry[] }> {
  const h = await appHarness();
  await h.app.session.openSession(await writeLongSession(h));
  return { h, full: h.app.snapshot({ tree: false }).conversation };
}

test('the tail snapshot is the newest views of the whole conversation, paired the same way', async () => {
  const { h, full } = await openLong();
  assert.equal(full.length, TURNS * 4);
  const tail = h.app.snapshot({ tree: false, conversation: { last: 202 } });
  assert.equal(tail.conversationHasEarlier, true);
  assert.deepEqual(tail.conversation, full.slice(-202));
  // the window starts on a tool result: it still knows its call (before the window) …
  assert.equal(tail.conversation[0]!.id, `r${TURNS - 51}`);
  assert.equal(tail.conversation[0]!.callEntryId, `c${TURNS - 51}`);
  assert.equal(h.app.snapshot({ tree: false }).conversationHasEarlier, false, 'the whole conversation has nothing before it');
  const all = h.app.snapshot({ tree: false, conversation: { last: 10_000 } });
  assert.deepEqual([all.conversation.length, all.conversationHasEarlier], [full.length, false]);
  assert.deepEqual(h.app.views.conversationTail(3), { leafId: `a${TURNS - 1}`, views: full.slice(-3), hasEarlier: true });
});

test('earlier pages walked back from the tail add up to the whole conversation', async () => {
  const { h, full } = await openLong();
  const leafId = h.app.snapshot({ tree: false }).leafId!;
  const tail = h.app.views.conversationTail(200);
  const loaded = [...tail.views];
  let hasEarlier = tail.hasEarlier;
  while (hasEarlier) {
    const page = h.app.views.conversationBefore({ leafId, beforeId: loaded[0]!.id, count: 333 });
    assert.ok(page.ok, page.ok ? '' : page.reason);
    assert.equal(page.leafId, leafId);
    // … and a page ending on a call knows its result (after the page)
    const last = page.views.at(-1)!;
    if (last.kind === 'assistant' && last.toolCalls!.length > 0) assert.ok(last.toolCalls![0]!.resultEntryId);
    loaded.unshift(...page.views);
    hasEarlier = page.hasEarlier;
  }
  assert.deepEqual(loaded, full);
});

test('page requests for another path, off-path or unknown entries, or nonsense counts are refused', async () => {
  const { h } = await openLong();
  const leafId = h.app.snapshot({ tree: false }).leafId!;
  const refused = (request: { leafId: string; beforeId: string; count: number }) => {
    const page = h.app.views.conversationBefore(request);
    assert.equal(page.ok, false, JSON.stringify(request));
    return page.ok ? '' : page.reason;
  };
  assert.match(refused({ leafId: 'no-such-leaf', beforeId: 'u5', count: 10 }), /not on the active path/);
  assert.match(refused({ leafId: 'side', beforeId: 'u0', count: 10 }), /not on the active path/);
  assert.match(refused({ leafId, beforeId: 'no-such-entry', count: 10 }), /not on the path ending at/);
  assert.match(refused({ leafId, beforeId: 'side', count: 10 }), /not on the path ending at/);
  assert.match(refused({ leafId: 'u5', beforeId: 'a9', count: 10 }), /a9 is not on the path ending at u5/, 'beforeId after the shown leaf');
  for (const count of [0, -3, Number.NaN]) assert.match(refused({ leafId, beforeId: 'u5', count }), /count/);
  // a request from a webview that shows an older, shorter path (its leaf is on the active path) is fine
  const page = h.app.views.conversationBefore({ leafId: 'a5', beforeId: 'u5', count: 2 });
  assert.ok(page.ok);
  assert.deepEqual(page.views.map((v) => v.id), ['r4', 'a4']);
  assert.equal(page.hasEarlier, true);
});

test('after a branch switch a request for the old path is stale; after an append it is still answered', async () => {
  const { h } = await openLong();
  const oldLeaf = h.app.snapshot({ tree: false }).leafId!;
  await h.app.tree.branchAt('a100');
  const stale = h.app.views.conversationBefore({ leafId: oldLeaf, beforeId: 'u50', count: 10 });
  assert.equal(stale.ok, false);
  const shown = h.app.views.conversationBefore({ leafId: 'a100', beforeId: 'u50', count: 4 });
  assert.ok(shown.ok);
  assert.deepEqual(shown.views.map((v) => v.id), ['u49', 'c49', 'r49', 'a49']);
  const appended = await h.app.currentStore!.appendMessage({ role: 'user', content: 'one more', timestamp: Date.now() } as AgentMessage);
  assert.equal(h.app.snapshot({ tree: false }).leafId, appended.id);
  const afterAppend = h.app.views.conversationBefore({ leafId: 'a100', beforeId: 'a100', count: 2 });
  assert.ok(afterAppend.ok, afterAppend.ok ? '' : afterAppend.reason);
  assert.deepEqual(afterAppend.views.map((v) => v.id), ['c100', 'r100']);
  const fromNewLeaf = h.app.views.conversationBefore({ leafId: appended.id, beforeId: appended.id, count: 1 });
  assert.ok(fromNewLeaf.ok);
  assert.deepEqual(fromNewLeaf.views.map((v) => v.id), ['a100']);
});

test('without a session there is no tail and every page request is refused', async () => {
  const h = await appHarness();
  assert.deepEqual(h.app.views.conversationTail(200), { leafId: null, views: [], hasEarlier: false });
  const page = h.app.views.conversationBefore({ leafId: 'a', beforeId: 'b', count: 1 });
  assert.deepEqual(page, { ok: false, reason: 'no session is open' });
});

test('after a rewrite of the file (pruning), pages and the tail show the rewritten entries, not cached ones', async () => {
  const { h } = await openLong();
  const leafId = h.app.snapshot({ tree: false }).leafId!;
  // build and cache the path index, then rewrite tool results in place (what pruning does)
  assert.equal(h.app.views.conversationBefore({ leafId, beforeId: `u${TURNS - 1}`, count: 4 }).ok, true);
  await h.app.currentStore!.rewriteEntries((entries) =>
    entries.map((entry) =>
      entry.type === 'message' && entry.message.role === 'toolResult'
        ? { ...entry, message: { ...entry.message, content: [{ type: 'text', text: '[pruned]' }] } }
        : entry,
    ),
  );
  const page = h.app.views.conversationBefore({ leafId, beforeId: `u${TURNS - 1}`, count: 4 });
  assert.ok(page.ok);
  const result = page.views.find((v) => v.kind === 'toolResult');
  assert.equal(result?.text, '[pruned]');
  assert.equal(h.app.views.conversationTail(4).views.find((v) => v.kind === 'toolResult')?.text, '[pruned]');
});
