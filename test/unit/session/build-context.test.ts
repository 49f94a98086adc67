// pi's canonical buildSessionContext expectations (docs/pi-compatibility.md "Building the context") plus Arbor's robustness rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSessionContext, messageFromEntry } from '../../../src/session/context';
import type { SessionEntry } from '../../../src/session/entries';
import { assistant, branchSummary, compaction, msg, nextTimestamp, texts, user } from './helpers';

function linear(count: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (let i = 1; i <= count; i++) out.push(msg(String(i), i === 1 ? null : String(i - 1), i % 2 ? user(`m${i}`) : assistant(`m${i}`)));
  return out;
}

test('empty entries and null leaf give an empty context', () => {
  assert.deepEqual(buildSessionContext([]), { messages: [], thinkingLevel: 'off', model: null });
  assert.deepEqual(buildSessionContext(linear(3), null), { messages: [], thinkingLevel: 'off', model: null });
});

test('trivial linear conversation: every message in order, identity preserved', () => {
  const entries = linear(3);
  const ctx = buildSessionContext(entries);
  assert.deepEqual(texts(ctx.messages), ['m1', 'm2', 'm3']);
  assert.equal(ctx.messages[0], (entries[0] as { message: unknown }).message);
});

test('thinking level and model: latest on the path wins, assistant messages set the model', () => {
  const entries: SessionEntry[] = [
    msg('1', null, user('a')),
    { type: 'thinking_level_change', id: '2', parentId: '1', timestamp: nextTimestamp(), thinkingLevel: 'high' },
    { type: 'model_change', id: '3', parentId: '2', timestamp: nextTimestamp(), provider: 'x', modelId: 'y' },
    msg('4', '3', assistant('b', 'anthropic', 'claude')),
    { type: 'model_change', id: '5', parentId: '4', timestamp: nextTimestamp(), provider: 'openai', modelId: 'gpt' },
  ];
  const ctx = buildSessionContext(entries);
  assert.equal(ctx.thinkingLevel, 'high');
  assert.deepEqual(ctx.model, { provider: 'openai', modelId: 'gpt' });
  assert.deepEqual(buildSessionContext(entries, '4').model, { provider: 'anthropic', modelId: 'claude' });
  assert.deepEqual(buildSessionContext(entries, '3').model, { provider: 'x', modelId: 'y' });
  assert.equal(buildSessionContext(entries, '1').thinkingLevel, 'off');
  assert.deepEqual(texts(ctx.messages), ['a', 'b']);
});

test('linear 1..7 with compaction at 5 keeping from 3 → summary, 3, 4, 6, 7', () => {
  const e = linear(7);
  e[4] = compaction('5', '4', '3');
  const ctx = buildSessionContext(e);
  assert.deepEqual(texts(ctx.messages), ['[C:summary 5]', 'm3', 'm4', 'm6', 'm7']);
  assert.equal(ctx.messages[0]!.role, 'compactionSummary');
  assert.equal((ctx.messages[0] as { tokensBefore: number }).tokensBefore, 1000);
});

test('compaction keeping from the first entry keeps everything', () => {
  const e = linear(5);
  e[3] = compaction('4', '3', '1');
  assert.deepEqual(texts(buildSessionContext(e).messages), ['[C:summary 4]', 'm1', 'm2', 'm3', 'm5']);
});

test('two compactions: only the latest counts', () => {
  const e = linear(9);
  e[3] = compaction('4', '3', '2', 'first');
  e[6] = compaction('7', '6', '5', 'second');
  assert.deepEqual(texts(buildSessionContext(e).messages), ['[C:second]', 'm5', 'm6', 'm8', 'm9']);
});

test('firstKeptEntryId not on the path before the compaction keeps nothing before it', () => {
  const e = linear(5);
  e[2] = compaction('3', '2', 'nowhere');
  assert.deepEqual(texts(buildSessionContext(e).messages), ['[C:summary 3]', 'm4', 'm5']);
  const after = linear(5);
  after[2] = compaction('3', '2', '5'); // kept id after the compaction: not "before", nothing kept
  assert.deepEqual(texts(buildSessionContext(after).messages), ['[C:summary 3]', 'm4', 'm5']);
});

test('branches: each leaf sees only its own path', () => {
  const e: SessionEntry[] = [
    msg('1', null, user('root')),
    msg('2', '1', assistant('a')),
    msg('3', '2', user('left')),
    msg('4', '2', user('right')),
    msg('5', '4', assistant('right-answer')),
  ];
  assert.deepEqual(texts(buildSessionContext(e, '3').messages), ['root', 'a', 'left']);
  assert.deepEqual(texts(buildSessionContext(e, '5').messages), ['root', 'a', 'right', 'right-answer']);
});

test('branch summary under 2 → 1, 2, summary, 5', () => {
  const e: SessionEntry[] = [
    msg('1', null, user('m1')),
    msg('2', '1', assistant('m2')),
    msg('3', '2', user('abandoned')),
    branchSummary('4', '2', 'what we learned'),
    msg('5', '4', user('m5')),
  ];
  const ctx = buildSessionContext(e, '5');
  assert.deepEqual(texts(ctx.messages), ['m1', 'm2', '[B:what we learned]', 'm5']);
  assert.equal((ctx.messages[2] as { fromId: string }).fromId, '2');
});

test('empty branch summary contributes nothing to context, but messageFromEntry still builds it', () => {
  const e: SessionEntry[] = [msg('1', null, user('m1')), branchSummary('2', '1', '')];
  assert.deepEqual(texts(buildSessionContext(e).messages), ['m1']);
  assert.equal(messageFromEntry(e[1]!)?.role, 'branchSummary');
});

test('unknown leaf id falls back to the last entry', () => {
  const e = linear(4);
  assert.deepEqual(texts(buildSessionContext(e, 'missing').messages), ['m1', 'm2', 'm3', 'm4']);
});

test('orphan leaf (parent missing) → only the orphan', () => {
  const e = [...linear(2), msg('9', 'gone', user('orphan'))];
  assert.deepEqual(texts(buildSessionContext(e, '9').messages), ['orphan']);
});

test('custom_message becomes a custom message; custom, label, session_info contribute nothing', () => {
  const ts = nextTimestamp();
  const e: SessionEntry[] = [
    msg('1', null, user('m1')),
    { type: 'custom', id: '2', parentId: '1', timestamp: nextTimestamp(), customType: 'state', data: { x: 1 } },
    { type: 'custom_message', id: '3', parentId: '2', timestamp: ts, customType: 'note', content: 'injected', display: false, details: { a: 1 } },
    { type: 'label', id: '4', parentId: '3', timestamp: nextTimestamp(), targetId: '1', label: 'L' },
    { type: 'session_info', id: '5', parentId: '4', timestamp: nextTimestamp(), name: 'n' },
  ];
  const ctx = buildSessionContext(e);
  assert.equal(ctx.messages.length, 2);
  assert.deepEqual(ctx.messages[1], {
    role: 'custom',
    customType: 'note',
    content: 'injected',
    display: false,
    details: { a: 1 },
    timestamp: Date.parse(ts),
  });
});

test('complex tree with compaction on one branch only', () => {
  const e: SessionEntry[] = [
    msg('1', null, user('m1')),
    msg('2', '1', assistant('m2')),
    msg('3', '2', user('m3')),
    msg('4', '3', assistant('m4')),
    compaction('5', '4', '3', 'S'),
    msg('6', '5', user('m6')),
    msg('7', '2', user('other')),
  ];
  assert.deepEqual(texts(buildSessionContext(e, '6').messages), ['[C:S]', 'm3', 'm4', 'm6']);
  assert.deepEqual(texts(buildSessionContext(e, '7').messages), ['m1', 'm2', 'other']);
});

test('a parent cycle terminates', () => {
  const e: SessionEntry[] = [msg('a', 'b', user('A')), msg('b', 'a', user('B'))];
  assert.deepEqual(texts(buildSessionContext(e, 'a').messages), ['B', 'A']);
  const self = [msg('s', 's', user('S'))];
  assert.deepEqual(texts(buildSessionContext(self).messages), ['S']);
});

test('byId map is used when given (cost follows the path)', () => {
  const e = linear(3);
  const byId = new Map(e.map((x) => [x.id, x]));
  let lookups = 0;
  const counting = new Map(byId);
  counting.get = (k: string) => {
    lookups++;
    return byId.get(k);
  };
  buildSessionContext(e, '2', counting);
  assert.ok(lookups <= 3, `lookups ${lookups}`);
});
