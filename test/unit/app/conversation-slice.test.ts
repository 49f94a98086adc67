// Windowed conversation views: a slice of a path equals the same views of the whole path's conversation
// (tool calls paired across the slice's edges), pages walked back from the tail add up to the whole
// conversation, and a slice of a long path looks at O(slice) entries, not O(path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentMessage } from '../../../src/core/messages';
import type { SessionEntry } from '../../../src/session/entries';
import {
  PAIRING_SCAN_LIMIT,
  conversationEntry,
  conversationOfPath,
  conversationSlice,
  isShownInConversation,
  pathTail,
  type ConversationEntry,
} from '../../../src/app/view-model';
import { seededRandom as random } from '../seeded-random';
import { callEntryIdOf, toolCallsOf } from './view-fields';

class PathBuilder {
  readonly path: SessionEntry[] = [];
  private clock = Date.UTC(2025, 0, 1);

  private add(fields: Record<string, unknown>): string {
    const id = `e${this.path.length}`;
    const parentId = this.path.at(-1)?.id ?? null;
    this.path.push({ id, parentId, timestamp: new Date((this.clock += 1000)).toISOString(), ...fields } as SessionEntry);
    return id;
  }

  message(message: Record<string, unknown>): string {
    return this.add({ type: 'message', message: { timestamp: this.clock, ...message } as AgentMessage });
  }

  user(text: string): string {
    return this.message({ role: 'user', content: text });
  }

  assistant(text: string, callIds: string[] = []): string {
    const content = [{ type: 'text', text }, ...callIds.map((id) => ({ type: 'toolCall', id, name: 'read', arguments: { path: `${id}.ts` } }))];
    return this.message({ role: 'assistant', content, api: 'openai-completions', provider: 'fake', model: 'fake', stopReason: callIds.length ? 'toolUse' : 'stop' });
  }

  result(callId: string, isError = false): string {
    return this.message({ role: 'toolResult', toolCallId: callId, toolName: 'read', content: [{ type: 'text', text: `result of ${callId}` }], isError });
  }

  other(rand: () => number): string {
    const r = rand();
    if (r < 0.25) return this.add({ type: 'label', targetId: this.path.at(-1)?.id ?? 'none', label: 'x' });
    if (r < 0.5) return this.add({ type: 'model_change', provider: 'fake', modelId: `m${this.path.length}` });
    if (r < 0.7) return this.add({ type: 'custom_message', customType: 'note', content: 'hidden', display: false });
    if (r < 0.85) return this.add({ type: 'custom', customType: 'state', data: {} });
    return this.add({ type: 'compaction', summary: 'summary', firstKeptEntryId: this.path.at(-1)?.id ?? 'none', tokensBefore: 1000 });
  }
}

/**
 * A sane session: turns of a user message and assistant steps whose tool results come in the same turn,
 * some missing (aborted), duplicated, failed, reused ids across turns and within a message, hidden and
 * notice entries in between.
 */
function generatePath(seed: number, turns: number): SessionEntry[] {
  const rand = random(seed);
  const b = new PathBuilder();
  let nextCall = 0;
  for (let turn = 0; turn < turns; turn++) {
    b.user(`question ${turn}`);
    const steps = Math.floor(rand() * 4);
    for (let step = 0; step < steps; step++) {
      const calls = Array.from({ length: Math.floor(rand() * 4) }, () => (rand() < 0.15 ? 'reused' : `c${nextCall++}`));
      b.assistant(`step ${step}`, calls);
      for (const id of calls) {
        if (rand() < 0.2) b.other(rand);
        if (rand() < 0.1) continue; // never answered
        b.result(id, rand() < 0.2);
        if (rand() < 0.05) b.result(id); // a second result for the same call
      }
    }
    b.assistant(`answer ${turn}`);
    if (rand() < 0.3) b.other(rand);
  }
  return b.path;
}

const noLabels = () => undefined;

function positionsOf(path: readonly SessionEntry[]): Map<string, number> {
  return new Map(path.map((entry, index) => [entry.id, index]));
}

/** The views conversationSlice must return: the whole path's (paired on the whole path), cut the same way. */
function expectedSlice(full: ConversationEntry[], positions: Map<string, number>, end: number, count: number): { views: ConversationEntry[]; hasEarlier: boolean } {
  const before = full.filter((view) => positions.get(view.id)! < end);
  const views = before.slice(Math.max(0, before.length - count));
  return { views, hasEarlier: before.length > views.length };
}

test('a slice equals the same views of the whole conversation, tool calls paired across both edges', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const path = generatePath(seed, 30);
    const full = conversationOfPath(path, noLabels);
    const positions = positionsOf(path);
    const rand = random(seed * 7919);
    for (let trial = 0; trial < 25; trial++) {
      const end = Math.floor(rand() * (path.length + 1));
      const count = 1 + Math.floor(rand() * 40);
      const slice = conversationSlice(path, end, count, noLabels);
      assert.deepEqual(slice, expectedSlice(full, positions, end, count), `seed ${seed}, end ${end}, count ${count}`);
    }
  }
});

test('the generated sessions do pair across slice edges (the comparison above is not vacuous)', () => {
  const path = generatePath(3, 30);
  const full = conversationOfPath(path, noLabels);
  const positions = positionsOf(path);
  let callsPairedForward = 0;
  let resultsPairedBackward = 0;
  for (let end = 1; end <= path.length; end++) {
    const slice = conversationSlice(path, end, 3, noLabels);
    for (const view of slice.views) {
      for (const call of toolCallsOf(view)) if (call.resultEntryId && positions.get(call.resultEntryId)! >= end) callsPairedForward++;
      if (callEntryIdOf(view) && !slice.views.some((v) => v.id === callEntryIdOf(view))) resultsPairedBackward++;
    }
  }
  assert.ok(callsPairedForward > 20 && resultsPairedBackward > 20, `${callsPairedForward} forward, ${resultsPairedBackward} backward`);
  assert.ok(full.some((view) => toolCallsOf(view).some((call) => call.isError === true)), 'failed results are in the sample');
});

test('pages walked back from the tail add up to the whole conversation, each page before the previous', () => {
  for (const [seed, count] of [[5, 7], [6, 50], [7, 1], [8, 1000]] as const) {
    const path = generatePath(seed, 60);
    const full = conversationOfPath(path, noLabels);
    const positions = positionsOf(path);
    let page = conversationSlice(path, path.length, count, noLabels);
    const loaded = [...page.views];
    let pages = 1;
    while (page.hasEarlier) {
      const beforeId = loaded[0]!.id;
      page = conversationSlice(path, positions.get(beforeId)!, count, noLabels);
      assert.ok(page.views.length > 0 && page.views.length <= count, 'a page with more before it is not empty');
      loaded.unshift(...page.views);
      pages++;
    }
    assert.deepEqual(loaded, full, `seed ${seed}, pages of ${count}`);
    assert.equal(pages, Math.max(1, Math.ceil(full.length / count)));
  }
});

test('the slice of a long path looks at the entries of the slice and its turn, not at the whole path', () => {
  const path = generatePath(11, 4000);
  assert.ok(path.length > 20_000, `${path.length} entries`);
  let reads = 0;
  const counted = new Proxy(path, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  const tail = conversationSlice(counted, path.length, 200, noLabels);
  assert.equal(tail.views.length, 200);
  assert.equal(tail.hasEarlier, true);
  assert.ok(reads < 1_000, `${reads} entries read for a 200-view tail of ${path.length}`);
  reads = 0;
  const middle = conversationSlice(counted, Math.floor(path.length / 2), 200, noLabels);
  assert.equal(middle.views.length, 200);
  assert.ok(reads < 1_000, `${reads} entries read for a 200-view page in the middle`);
});

test('pairing scans stop at a user message and at PAIRING_SCAN_LIMIT entries', () => {
  // a call whose result comes only after the next user message (not a sane session) is not paired
  // across a slice edge, while a result after thousands of notices in the same turn is, up to the limit
  const b = new PathBuilder();
  b.user('go');
  const call = b.assistant('calling', ['late']);
  b.user('interrupt');
  const late = b.result('late');
  let slice = conversationSlice(b.path, 2, 1, noLabels);
  assert.equal(slice.views[0]!.id, call);
  assert.equal(toolCallsOf(slice.views[0]!)[0]!.resultEntryId, undefined);
  slice = conversationSlice(b.path, b.path.length, 1, noLabels);
  assert.deepEqual([slice.views[0]!.id, callEntryIdOf(slice.views[0]!)], [late, undefined]);

  for (const gap of [PAIRING_SCAN_LIMIT - 2, PAIRING_SCAN_LIMIT + 10]) {
    const g = new PathBuilder();
    g.user('go');
    const far = g.assistant('calling', ['far']);
    for (let i = 0; i < gap; i++) g.other(() => 0.3); // model changes: shown, never pairing
    const result = g.result('far');
    const callSlice = conversationSlice(g.path, 2, 1, noLabels);
    const resultSlice = conversationSlice(g.path, g.path.length, 1, noLabels);
    const paired = gap < PAIRING_SCAN_LIMIT;
    assert.equal(toolCallsOf(callSlice.views[0]!)[0]!.resultEntryId, paired ? result : undefined, `gap ${gap}: call side`);
    assert.equal(callEntryIdOf(resultSlice.views[0]!), paired ? far : undefined, `gap ${gap}: result side`);
  }
});

test('labels come from labelOf; an empty path or an end before anything gives an empty slice', () => {
  const b = new PathBuilder();
  const question = b.user('question');
  const answer = b.assistant('answer');
  const slice = conversationSlice(b.path, b.path.length, 2, (id) => (id === answer ? 'good' : undefined));
  assert.deepEqual(slice.views.map((v) => [v.id, v.label]), [[question, undefined], [answer, 'good']]);
  assert.deepEqual(conversationSlice([], 0, 10, noLabels), { views: [], hasEarlier: false });
  assert.deepEqual(conversationSlice(b.path, 0, 10, noLabels), { views: [], hasEarlier: false });
  const path = generatePath(2, 10);
  assert.deepEqual(conversationSlice(path, path.length + 5, 1000, noLabels), { views: conversationOfPath(path, noLabels), hasEarlier: false });
});

/** pathTail over `path` (parents by id), counting the entries it visits. */
function tailOf(path: readonly SessionEntry[], count: number): { tail: SessionEntry[]; visited: number } {
  const byId = new Map(path.map((entry) => [entry.id, entry]));
  let visited = 0;
  const tail = pathTail(path.at(-1), (entry) => {
    visited++;
    return entry.parentId === null ? undefined : byId.get(entry.parentId);
  }, count);
  return { tail, visited };
}

test('the tail slice of pathTail (walked back from the leaf) equals the tail slice of the whole path', () => {
  for (let seed = 100; seed < 140; seed++) {
    const path = generatePath(seed, 25);
    for (const count of [1, 2, 5, 17, 60, 1000]) {
      const { tail } = tailOf(path, count);
      assert.deepEqual(conversationSlice(tail, tail.length, count, noLabels), conversationSlice(path, path.length, count, noLabels), `seed ${seed}, count ${count}`);
    }
  }
  // a turn longer than the pairing limit, and a run of hidden entries before the window
  const b = new PathBuilder();
  b.user('go');
  b.assistant('calling', ['x']);
  for (let i = 0; i < PAIRING_SCAN_LIMIT + 50; i++) b.other(() => 0.3);
  b.result('x');
  for (let i = 0; i < 300; i++) b.other(() => 0.1);
  b.assistant('done');
  for (const count of [1, 2, 3, 40]) {
    const { tail } = tailOf(b.path, count);
    assert.deepEqual(conversationSlice(tail, tail.length, count, noLabels), conversationSlice(b.path, b.path.length, count, noLabels), `long turn, count ${count}`);
  }
});

test('pathTail visits the entries of the tail and its turn, not the whole path', () => {
  const path = generatePath(12, 4000);
  const { tail, visited } = tailOf(path, 200);
  assert.ok(tail.length < 1_000 && visited < 1_000, `${visited} entries visited, ${tail.length} kept, of ${path.length}`);
  assert.equal(tail.at(-1), path.at(-1));
  assert.ok(isUserMessageEntry(tail[0]!), 'the tail starts at a user message (the turn before the window)');
  assert.deepEqual(tailOf(path.slice(0, 3), 200).tail, path.slice(0, 3), 'a short path is walked to its root');
  assert.deepEqual(pathTail(undefined, () => undefined, 5), []);
});

test('pathTail stops at a parent cycle', () => {
  const b = new PathBuilder();
  b.user('a');
  b.assistant('b');
  const looped = b.path.map((entry, i) => (i === 0 ? { ...entry, parentId: b.path[1]!.id } : entry)) as SessionEntry[];
  assert.deepEqual(tailOf(looped, 10).tail.map((e) => e.id), looped.map((e) => e.id));
});

test('isShownInConversation says exactly which entries get a view', () => {
  const b = new PathBuilder();
  const rand = random(9);
  for (let i = 0; i < 200; i++) b.other(rand);
  b.message({ role: 'bashExecution', command: 'ls', output: 'a', exitCode: 0, cancelled: false });
  b.message({ role: 'custom', customType: 'note', content: 'shown', display: true });
  b.message({ role: 'custom', customType: 'note', content: 'hidden', display: false });
  b.message({ role: 'somethingNew', content: 'x' });
  const extra = (fields: Record<string, unknown>) => ({ id: `x${JSON.stringify(fields).length}`, parentId: null, timestamp: '2025-01-01T00:00:00.000Z', ...fields }) as SessionEntry;
  const path = [
    ...generatePath(4, 10),
    ...b.path,
    extra({ type: 'branch_summary', fromId: 'root', summary: 's' }),
    extra({ type: 'thinking_level_change', thinkingLevel: 'high' }),
    extra({ type: 'custom_message', customType: 'note', content: 'shown', display: true }),
    extra({ type: 'session_info', name: 'n' }),
    extra({ type: 'from_the_future' }),
  ];
  const kinds = new Set<string>();
  for (const entry of path) {
    assert.equal(isShownInConversation(entry), conversationEntry(entry) !== undefined, `${entry.type} ${JSON.stringify(entry).slice(0, 120)}`);
    kinds.add(`${entry.type}:${isShownInConversation(entry)}`);
  }
  assert.deepEqual([...kinds].sort(), [
    'branch_summary:true', 'compaction:true', 'custom:false', 'custom_message:false', 'custom_message:true', 'from_the_future:false',
    'label:false', 'message:false', 'message:true', 'model_change:true', 'session_info:false', 'thinking_level_change:true',
  ]);
});

function isUserMessageEntry(entry: SessionEntry): boolean {
  return entry.type === 'message' && entry.message.role === 'user';
}
