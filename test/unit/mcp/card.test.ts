// An MCP tool's result as the chat shows it: a session holding one (as src/mcp/results.ts writes it, with a
// hostile server's markup, an image and resource links) is opened by the app, posted through the protocol,
// and its tool card rendered: server and tool named, the image a thumbnail of checked data, the links
// listed as text, and the markup nothing but text (no element is made from it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHostMessage, CONVERSATION_PAGE } from '../../../src/protocol';
import { toItem } from '../../../src/vscode/chat-items';
import { toolOutputOf } from '../../../src/mcp/results';
import { appHarness } from '../app/helpers';
import { installFakeDocument, textOf, byClass, type FakeNode } from '../../hardening/attacks/fake-dom';

installFakeDocument();
/* eslint-disable @typescript-eslint/no-require-imports */
const { renderToolCard } = require('../../../webview/render/tool-card') as { renderToolCard: (ctx: unknown, call: unknown) => FakeNode };
const { Store } = require('../../../webview/store') as { Store: new () => { results: Map<string, unknown> } };

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const MARKUP = '<script>window.pwned=1</script><img src=x onerror="alert(1)">';

function sessionFile(): string {
  const output = toolOutputOf({
    content: [
      { type: 'text', text: MARKUP },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///srv/report.md', name: 'report' },
    ],
  }, 'everything', 'echo');
  const t = '2026-11-27T20:10:03.757Z';
  const lines = [
    { type: 'session', version: 3, id: '01a21ea1-186d-7332-afd9-32ef1c96f364', timestamp: t, cwd: '/work/project' },
    { type: 'message', id: 'u1', parentId: null, timestamp: t, message: { role: 'user', content: [{ type: 'text', text: 'echo' }], timestamp: 1 } },
    { type: 'message', id: 'a1', parentId: 'u1', timestamp: t, message: { role: 'assistant', content: [{ type: 'toolCall', id: 'call_mcp', name: 'everything_echo', arguments: { message: MARKUP } }], api: 'openai-responses', provider: 'openai', model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'toolUse', timestamp: 2 } },
    { type: 'message', id: 'r1', parentId: 'a1', timestamp: t, message: { role: 'toolResult', toolCallId: 'call_mcp', toolName: 'everything_echo', content: output.content, details: output.details, isError: false, timestamp: 3 } },
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'arbor-mcp-card-')), 'mcp.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

function tags(node: FakeNode | string): string[] {
  return typeof node === 'string' ? [] : [node.tag, ...node.children.flatMap(tags)];
}

test('an MCP result card names the server and tool, shows the image and the links, and keeps markup as text', async () => {
  const h = await appHarness();
  await h.app.session.openSession(sessionFile());
  const snapshot = h.app.snapshot({ conversation: { last: CONVERSATION_PAGE } });
  const items = snapshot.conversation.flatMap((entry) => toItem(entry) ?? []);
  const parsed = parseHostMessage({ type: 'conversation', leafId: snapshot.leafId, items, hasEarlier: snapshot.conversationHasEarlier });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
  const result = (parsed.message as { items: Record<string, unknown>[] }).items.find((i) => i.kind === 'toolResult')!;
  assert.deepEqual(result.mcp, { server: 'everything', tool: 'echo', links: [{ uri: 'file:///srv/report.md', name: 'report' }] });
  const store = new Store();
  store.results.set('call_mcp', result);
  const card = renderToolCard({ store, open: new Set<string>() }, { id: 'call_mcp', name: 'everything_echo', arguments: { message: MARKUP } });
  assert.equal(textOf(byClass(card, 'tool-origin')[0]!), 'MCP server everything · tool echo');
  assert.match(textOf(byClass(card, 'tool-links')[0]!), /file:\/\/\/srv\/report\.md report/);
  const images = byClass(card, 'message-image');
  assert.equal(images.length, 1);
  assert.equal((images[0]!.children[0] as FakeNode).attrs.src, `data:image/png;base64,${PNG}`);
  assert.ok(textOf(card).includes(MARKUP), 'the markup is in the card as text');
  assert.ok(!tags(card).includes('script'), 'no script element');
  assert.equal(tags(card).filter((t) => t === 'img').length, 1, 'the only img is the checked thumbnail');
});
