// The chat's view of an entry has its protocol item's fields (src/present/view-types.ts), so mapping it
// (src/vscode/chat-items.ts) only bounds values and turns ids into wire ids. Checked on views of every kind,
// built from entries as the chat builds them: each item validates, and a view carries no field its item
// lacks other than the app's own (ids, repairs, pairing), nor an item one its view lacks other than the
// wire id, the time in ms and the tool traits the live tool list adds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversationOfPath, type ConversationEntry } from '../../../src/app/view-model';
import { conversationItemSchema, type ConversationItem } from '../../../src/protocol';
import type { SessionEntry } from '../../../src/session/entries';
import { toItem } from '../../../src/vscode/chat-items';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 } };

/** A path with an entry of every kind the chat shows, every optional field set somewhere. */
function path(): SessionEntry[] {
  const out: Record<string, unknown>[] = [];
  const add = (entry: Record<string, unknown>) => out.push({ id: `e${out.length}`, parentId: out.length ? `e${out.length - 1}` : null, timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, out.length)).toISOString(), ...entry });
  const message = (m: Record<string, unknown>) => add({ type: 'message', message: { timestamp: 1, ...m } });
  message({ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/png', data: PNG }] });
  message({ role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: 'ok' }, { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a' } }], api: 'openai-completions', provider: 'p', model: 'm', usage, stopReason: 'error', errorMessage: 'boom' });
  message({ role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'r' }, { type: 'image', mimeType: 'image/png', data: PNG }], isError: true, details: { denied: true, imageUnsupportedByModel: 'x', mcp: { server: 's', tool: 't', links: [{ uri: 'file:///a', name: 'A' }] } } });
  message({ role: 'bashExecution', command: 'ls', output: 'a', exitCode: 0, cancelled: false });
  add({ type: 'custom_message', customType: 'note', content: 'hello', display: true });
  add({ type: 'model_change', provider: 'openai', modelId: 'gpt-5' });
  add({
    type: 'compaction', summary: 'S', firstKeptEntryId: 'e0', tokensBefore: 100, shortSummary: 'short',
    details: { readFiles: ['a'], modifiedFiles: ['b'], reason: 'manual', tokensAfter: 40, summarizer: { id: 'sm' }, cost: { total: 0.1 }, userWords: { verbatim: [{ entryId: 'e0', role: 'user', text: 'look' }], ledger: [] } },
  });
  add({ type: 'branch_summary', fromId: 'e1', summary: 'B', details: { readFiles: ['a'], modifiedFiles: [], stage: { fromEntryId: 'e0', leafId: 'e1', label: 'st' }, summarizer: { id: 'sm' }, cost: { total: 0.1 } } });
  return out as unknown as SessionEntry[];
}

/** Fields only the app's view has: real ids, the repairs made, the pairing of calls and results. */
const APP_ONLY = new Set(['id', 'parentId', 'problems', 'toolCalls', 'callEntryId']);
/** Fields only the item has: the wire id (the view's `id`); `timestamp` is in both, as ms on the wire. */
const WIRE_ONLY = new Set(['entryId']);

test('every view kind maps to its item field for field: only bounds and ids change', () => {
  const views: ConversationEntry[] = conversationOfPath(path(), (id) => (id === 'e0' ? 'first' : undefined));
  views[0]!.pinned = true;
  views[0]!.stageStart = true;
  const kinds = new Set(views.map((v) => v.kind));
  assert.deepEqual([...kinds].sort(), [...conversationItemSchema.options.map((o) => o.shape.kind.value)].sort(), 'the path shows every item kind');
  for (const view of views) {
    const item: ConversationItem = toItem(view);
    assert.equal(conversationItemSchema.safeParse(item).success, true, `${view.kind} validates`);
    assert.equal(item.kind, view.kind);
    const viewKeys = Object.keys(view).filter((k) => !APP_ONLY.has(k));
    const itemKeys = Object.keys(item).filter((k) => !WIRE_ONLY.has(k));
    assert.deepEqual(viewKeys.sort(), itemKeys.sort(), `${view.kind}: the view's fields are its item's`);
  }
});

test('an assistant block keeps its shape; the live tool list adds only the traits', () => {
  const reply = conversationOfPath(path(), () => undefined).find((v) => v.kind === 'assistant')!;
  const item = toItem(reply, () => ({ effect: { kind: 'readOnly' }, origin: { kind: 'builtin' } }) as never);
  assert.ok(reply.kind === 'assistant' && item.kind === 'assistant');
  assert.deepEqual(item.blocks.map((b) => Object.keys(b).sort()), [['thinking', 'type'], ['text', 'type'], ['arguments', 'effect', 'id', 'name', 'origin', 'type']]);
  assert.deepEqual(reply.blocks.map((b) => Object.keys(b).sort()), [['thinking', 'type'], ['text', 'type'], ['arguments', 'id', 'name', 'type']]);
});
