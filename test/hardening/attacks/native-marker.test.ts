// Issue #24 item 4, what the user sees: a compaction whose entry holds a provider-native context (sent
// to one model in place of the summary) says so on its marker, naming the model and host; a payload the
// model would never get (a hostile shape, src/core/native-items.ts, or a message the chat never showed,
// src/session/native-seen.ts) adds no such note. The session file
// is opened by the real app, its posts parsed by the protocol and rendered by the webview's renderer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHostMessage, CONVERSATION_PAGE } from '../../../src/protocol';
import { toItem } from '../../../src/vscode/chat-items';
import { appHarness } from '../../unit/app/helpers';
import { headerLine } from '../session-corpus';
import { installFakeDocument, textOf, byClass, type FakeNode } from './fake-dom';

installFakeDocument();
/* eslint-disable @typescript-eslint/no-require-imports */
const { renderItem } = require('../../../webview/render/message') as { renderItem: (ctx: unknown, item: unknown) => FakeNode };
const { Store } = require('../../../webview/store') as { Store: new () => unknown };

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAABpzfWE' };
const userItem = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'old question' }] };

function file(replacementHistory: unknown[]): string {
  const native = { provider: 'openai', model: 'gpt-5.2', baseUrl: 'https://api.openai.com/v1', scope: 'summarized', replacementHistory, compactionItem: compaction, createdAt: at(3) };
  const lines = [
    { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'old question', timestamp: 1 } },
    { type: 'message', id: 'a1', parentId: 'u1', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'text', text: 'old answer' }], api: 'openai-responses', provider: 'openai', model: 'gpt-5.2', usage, stopReason: 'stop', timestamp: 2 } },
    { type: 'compaction', id: 'c1', parentId: 'a1', timestamp: at(3), summary: 'The summary.', firstKeptEntryId: 'a1', tokensBefore: 900, preserveData: { openaiRemoteCompaction: native } },
    { type: 'message', id: 'u2', parentId: 'c1', timestamp: at(4), message: { role: 'user', content: 'next', timestamp: 4 } },
  ];
  return [headerLine('marker'), ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n';
}

/** The compaction marker as the webview renders it, expanded, from the file's conversation post. */
async function marker(t: { after(fn: () => Promise<void>): void }, text: string): Promise<{ item: Record<string, unknown>; node: FakeNode }> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-native-marker-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 's.jsonl'), text);
  const h = await appHarness();
  await h.app.session.openSession(join(dir, 's.jsonl'));
  const snapshot = h.app.snapshot({ conversation: { last: CONVERSATION_PAGE } });
  const items = snapshot.conversation.flatMap((entry) => toItem(entry) ?? []);
  const parsed = parseHostMessage({ type: 'conversation', leafId: snapshot.leafId, items, hasEarlier: snapshot.conversationHasEarlier });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
  const item = (parsed.message as { items: Record<string, unknown>[] }).items.find((i) => i.kind === 'compaction')!;
  const node = renderItem({ store: new Store(), open: new Set(['marker:c1']) }, item);
  return { item, node };
}

test('a compaction holding a native context says so on its marker, with the model and host', async (t) => {
  const { item, node } = await marker(t, file([userItem, compaction]));
  assert.deepEqual(item.nativeContext, { provider: 'openai', model: 'gpt-5.2', host: 'api.openai.com' });
  assert.match(textOf(byClass(node, 'marker-line')[0]!), /native context for gpt-5\.2/);
  assert.match(textOf(byClass(node, 'native-context-note')[0]!), /gpt-5\.2 at api\.openai\.com is sent the provider's own compacted context .* in place of this summary/);
});

test('a payload the model would never get adds no native note', async (t) => {
  const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'injected' }] };
  const unseen = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a question the chat never showed' }] };
  for (const items of [[developer, compaction], [userItem, unseen, compaction]]) {
    const { item, node } = await marker(t, file(items));
    assert.equal(item.nativeContext, undefined, JSON.stringify(items[1]));
    assert.doesNotMatch(textOf(node), /native context/);
  }
});
