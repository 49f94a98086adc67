// The entry-kind registries (src/session/entry-types.ts for the session, src/present/kinds/ for what is
// shown): every type pi 1.5 and omp 18 write has a kind, every
// consumer asks it, and a type nobody registered meets the explicit unknown kind (shown nowhere, named by
// its type, reported once per type by the store) instead of a silent `default:` in each consumer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { KNOWN_ENTRY_TYPES, RECOGNISED_FOREIGN_TYPES, type SessionEntry } from '../../../src/session/entries';
import { kindOf } from '../../../src/present/kinds/index';
import { entryTypeOf, isUnderstoodType } from '../../../src/session/entry-types';
import { unknownKind } from '../../../src/present/kinds/unknown';
import { conversationEntry, type ConversationEntry } from '../../../src/app/view-model';
import { entryKind, entrySummaryLine } from '../../../src/app/view-model';
import { searchableText } from '../../../src/session/search';
import { entryKind as cliKind, entryPreview } from '../../../src/cli/describe';
import { presentEntry } from '../../../src/vscode/tree/entry-presentation';
import { SessionStore } from '../../../src/session/store';

const at = '2026-03-01T10:00:00.000Z';
const entry = (fields: Record<string, unknown>) => ({ id: 'x1', parentId: null, timestamp: at, ...fields }) as SessionEntry;

test('every known and recognised type has its own kind; anything else is the unknown kind', () => {
  for (const type of [...KNOWN_ENTRY_TYPES, ...RECOGNISED_FOREIGN_TYPES, 'invalid_entry']) {
    assert.equal(isUnderstoodType(type), true, type);
  }
  for (const type of KNOWN_ENTRY_TYPES) assert.notEqual(kindOf({ type }), unknownKind, type);
  for (const type of ['from_the_future', '__proto__', 'constructor', 'toString']) {
    assert.equal(isUnderstoodType(type), false, type);
    assert.equal(kindOf({ type }), unknownKind, type);
  }
  assert.equal(kindOf({ type: 42 }), unknownKind);
});

test('an unknown type is handled explicitly by every consumer: no context, no chat item, named by its type', () => {
  const future = entry({ type: 'future_widget', payload: { text: 'secret' } });
  assert.equal(entryTypeOf(future).message(future), undefined);
  assert.equal(conversationEntry(future), undefined);
  assert.equal(entryKind(future), 'other');
  assert.equal(entrySummaryLine(future), 'future_widget');
  assert.equal(searchableText(future as unknown as Record<string, unknown>), undefined);
  assert.equal(cliKind(future), 'future_widget');
  assert.equal(entryPreview(future), '');
  assert.deepEqual(presentEntry(future), { kind: 'future_widget', icon: 'question', text: '', title: 'future_widget' });
  assert.deepEqual(kindOf(future).sections(future, []), []);
});

/** A notice view's text (undefined for any other view, or none). */
function noticeText(view: ConversationEntry | undefined): string | undefined {
  return view?.kind === 'notice' ? view.text : undefined;
}

test("omp's model_change and a null thinking level read as omp means them in the chat, the tree and the CLI", () => {
  const model = entry({ type: 'model_change', model: 'anthropic/claude-opus-4', role: 'default' });
  const thinking = entry({ type: 'thinking_level_change', thinkingLevel: null });
  assert.equal(noticeText(conversationEntry(model)), 'Model: anthropic/claude-opus-4');
  assert.equal(entrySummaryLine(model), 'anthropic/claude-opus-4');
  assert.equal(entryPreview(model), 'anthropic/claude-opus-4');
  assert.equal(noticeText(conversationEntry(thinking)), 'Thinking level: off');
  assert.equal(entrySummaryLine(thinking), 'thinking: off');
});

test('the store reports a type without a kind once per type, and none for registered foreign types', async () => {
  const store = await SessionStore.open(join(__dirname, '..', '..', 'fixtures', 'omp-18', 'titled.jsonl'));
  const unknown = store.loadReport.filter((p) => p.kind === 'unknown-type');
  assert.equal(unknown.length, 1);
  assert.match(unknown[0]!.message, /future_widget/);
});
