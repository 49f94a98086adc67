// pi 1.6.0's new tool-result shapes as the chat shows them: the session pi 1.6.0 wrote
// (test/fixtures/pi-1.6/new-shapes.jsonl) is opened by the app, its conversation post parsed by the
// protocol and fed to the webview's store, and the tool cards rendered: the call pi stopped before it ran
// (`Operation aborted`) shows as aborted, not as a failed call; the read whose image the model never got
// (`details.imageUnsupportedByModel`) says which model got a placeholder instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseHostMessage, CONVERSATION_PAGE } from '../../../src/protocol';
import { toItem } from '../../../src/vscode/chat-items';
import { appHarness } from './helpers';
import { installFakeDocument, textOf, byClass, type FakeNode } from '../../hardening/attacks/fake-dom';

installFakeDocument();
/* eslint-disable @typescript-eslint/no-require-imports */
const { renderToolCard } = require('../../../webview/render/tool-card') as { renderToolCard: (ctx: unknown, call: unknown) => FakeNode };
const { Store } = require('../../../webview/store') as { Store: new () => { results: Map<string, unknown> } };

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'pi-1.6', 'new-shapes.jsonl');

async function cards(): Promise<{ image: FakeNode; never: FakeNode; items: Record<string, unknown>[] }> {
  const h = await appHarness();
  await h.app.session.openSession(FIXTURE);
  const snapshot = h.app.snapshot({ conversation: { last: CONVERSATION_PAGE } });
  const items = snapshot.conversation.flatMap((entry) => toItem(entry) ?? []);
  const parsed = parseHostMessage({ type: 'conversation', leafId: snapshot.leafId, items, hasEarlier: snapshot.conversationHasEarlier });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
  const posted = (parsed.message as { items: Record<string, unknown>[] }).items;
  const store = new Store();
  for (const item of posted) if (item.kind === 'toolResult') store.results.set(item.toolCallId as string, item);
  const ctx = { store, open: new Set<string>() };
  const call = (id: string) => ({ id, name: 'read', arguments: {} });
  return { image: renderToolCard(ctx, call('call_img|fc_img')), never: renderToolCard(ctx, call('call_never|fc_never')), items: posted };
}

test("pi 1.6.0's Operation aborted result shows as an aborted call", async () => {
  const { never, items } = await cards();
  const result = items.find((i) => i.toolCallId === 'call_never|fc_never')!;
  assert.equal(result.status, 'aborted');
  assert.match(String(never.attrs.class), /status-aborted/);
  assert.equal(textOf(byClass(never, 'tool-status')[0]!), 'aborted');
});

test("a read whose image pi 1.6.0 did not send says which model got a placeholder", async () => {
  const { image, items } = await cards();
  const result = items.find((i) => i.toolCallId === 'call_img|fc_img')!;
  assert.equal(result.imageNotSentTo, 'gpt-4.1-text');
  assert.equal(result.status, undefined, 'a successful read');
  assert.match(textOf(byClass(image, 'image-not-sent')[0]!), /gpt-4\.1-text does not read images: it was sent a placeholder/);
});
