// The webview's window on the active path: one page request at a time, numbered; answers that do not match
// it (another request's number, stale leaf, other beforeId, from before a reload) are ignored without
// changing anything, a page is put in front without duplicates, and label changes patch loaded items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS, type ConversationItem, type ToolResultItem } from '../../../src/protocol';
import {
  abandonRequest,
  applyLabels,
  nextSeq,
  prependPage,
  requestEarlier,
  stalePageReason,
  type LoadedPath,
  type PageMessage,
} from '../../../webview/conversation-pages';

const user = (id: string, text = id): ConversationItem => ({ kind: 'user', entryId: id, timestamp: 1, text });
const call = (id: string, callId: string): ConversationItem => ({
  kind: 'assistant', entryId: id, timestamp: 1, stopReason: 'toolUse', blocks: [{ type: 'toolCall', id: callId, name: 'read', arguments: {} }],
});
const result = (id: string, callId: string): ToolResultItem => ({ kind: 'toolResult', entryId: id, timestamp: 1, toolCallId: callId, toolName: 'read', text: id, isError: false });

/** As the store holds it after a `conversation` snapshot of the tail u10 r9 a11 (r9 answers a call before it). */
function tail(): LoadedPath {
  return {
    leafId: 'a11',
    items: [user('u10'), call('a11', 'k11')],
    results: new Map([['k9', result('r9', 'k9')]]),
    hasEarlier: true,
    earliestId: 'r9',
    snapshots: 1,
    loadingEarlier: undefined,
    lastSeq: 40,
  };
}

/** The answer to the first request made on `tail()` (number 41), unless told otherwise. */
const page = (fields: Partial<PageMessage> = {}): PageMessage => ({
  seq: 41,
  leafId: 'a11',
  beforeId: 'r9',
  items: [user('u8'), call('a9', 'k9'), result('r8', 'k8')],
  hasEarlier: true,
  ...fields,
});

test('one request at a time, for the items before the earliest one received, on the shown leaf', () => {
  const path = tail();
  assert.deepEqual(requestEarlier(path, 200), { seq: 41, leafId: 'a11', beforeId: 'r9', count: 200 });
  assert.equal(requestEarlier(path, 200), undefined, 'no second request while one is in flight');
  assert.equal(requestEarlier({ ...tail(), hasEarlier: false }, 200), undefined, 'nothing earlier: no request');
  assert.equal(requestEarlier({ ...tail(), leafId: null, items: [], earliestId: null }, 200), undefined);
});

test('the answer is put in front: shown items before the loaded ones, results by call id, later results kept', () => {
  const path = tail();
  requestEarlier(path, 200);
  const ignored = prependPage(path, page({ items: [user('u8'), call('a9', 'k9'), result('r8', 'k8'), result('r9-early', 'k9')] }));
  assert.equal(ignored, undefined);
  assert.deepEqual(path.items.map((i) => i.entryId), ['u8', 'a9', 'u10', 'a11']);
  assert.deepEqual([...path.results.keys()].sort(), ['k8', 'k9']);
  assert.equal(path.results.get('k9')!.entryId, 'r9', 'the later result for a call stays');
  assert.deepEqual([path.earliestId, path.hasEarlier, path.loadingEarlier], ['u8', true, undefined]);
  assert.deepEqual(requestEarlier(path, 50), { seq: 42, leafId: 'a11', beforeId: 'u8', count: 50 }, 'the next request asks for what precedes the page, numbered next');
});

test('answers that do not match the request in flight are ignored and change nothing', () => {
  const cases: [string, (path: LoadedPath) => PageMessage, RegExp][] = [
    ['no request', () => page(), /no page was asked for/],
    ['another request number', (path) => (requestEarlier(path, 200), page({ seq: 40 })), /answers request #40, not #41/],
    ['stale leaf', (path) => (requestEarlier(path, 200), page({ leafId: 'other-leaf' })), /does not match request #41/],
    ['other beforeId', (path) => (requestEarlier(path, 200), page({ beforeId: 'u10' })), /does not match request #41/],
    ['reloaded since', (path) => (requestEarlier(path, 200), path.snapshots++, page()), /reloaded/],
    ['earliest changed', (path) => (requestEarlier(path, 200), (path.earliestId = 'x'), page()), /earliest item changed/],
  ];
  for (const [name, setup, reason] of cases) {
    const path = tail();
    const answer = setup(path);
    const before = structuredClone({ items: path.items, results: [...path.results], hasEarlier: path.hasEarlier, earliestId: path.earliestId });
    assert.match(prependPage(path, answer) ?? '', reason, name);
    assert.match(stalePageReason(path, answer) ?? '', reason, name);
    assert.deepEqual({ items: path.items, results: [...path.results], hasEarlier: path.hasEarlier, earliestId: path.earliestId }, before, `${name}: unchanged`);
  }
});

test('a page repeating loaded items cannot duplicate rows; an empty page ends the paging', () => {
  const path = tail();
  requestEarlier(path, 200);
  assert.equal(prependPage(path, page({ items: [user('u8'), user('u10'), call('a11', 'k11'), result('r9', 'k9')] })), undefined);
  assert.deepEqual(path.items.map((i) => i.entryId), ['u8', 'u10', 'a11']);
  assert.equal(path.results.size, 1);
  requestEarlier(path, 200);
  assert.equal(prependPage(path, page({ seq: 42, beforeId: 'u8', items: [], hasEarlier: true })), undefined);
  assert.equal(path.hasEarlier, false, 'a hostile "empty but more" answer does not make the webview ask forever');
  assert.equal(requestEarlier(path, 200), undefined);
});

test('an abandoned request lets the next one go; abandoning another request changes nothing', () => {
  const path = tail();
  const request = requestEarlier(path, 200)!;
  assert.equal(abandonRequest(path, { ...request, seq: request.seq - 1 }), false);
  assert.ok(path.loadingEarlier);
  assert.equal(abandonRequest(path, request), true);
  assert.equal(path.loadingEarlier, undefined);
  assert.equal(prependPage(path, page()), 'no page was asked for', 'its late answer is ignored');
  const again = requestEarlier(path, 200)!;
  assert.deepEqual(again, { ...request, seq: request.seq + 1 }, 'the same page asked again, under a new number');
  assert.equal(abandonRequest(path, request), false, 'giving up the old request does not give up the new one');
  // The late answer to the abandoned request names the same page, but not the request now in flight.
  assert.match(prependPage(path, page({ seq: request.seq, items: [user('u8')] })) ?? '', /answers request #41, not #42/);
  assert.equal(path.items.length, 2, 'nothing was put in front');
  assert.equal(prependPage(path, page({ seq: again.seq })), undefined, 'its own answer is taken');
  assert.deepEqual(path.items.map((i) => i.entryId), ['u8', 'a9', 'u10', 'a11']);
});

test('request numbers stay within the protocol bound: after LIMITS.seq comes 0', () => {
  assert.equal(nextSeq(0), 1);
  assert.equal(nextSeq(LIMITS.seq - 1), LIMITS.seq);
  assert.equal(nextSeq(LIMITS.seq), 0);
  for (const odd of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(nextSeq(odd), 0, String(odd));
  const path = { ...tail(), lastSeq: LIMITS.seq };
  assert.equal(requestEarlier(path, 10)?.seq, 0);
});

test('labels are set and removed on loaded items and results; unknown ids change nothing', () => {
  const path = tail();
  path.items[0] = { ...path.items[0]!, label: 'old' };
  const items = path.items;
  assert.equal(applyLabels(path, [{ entryId: 'u10' }, { entryId: 'a11', label: 'new' }, { entryId: 'r9', label: 'res' }, { entryId: 'gone', label: 'x' }]), true);
  assert.deepEqual(path.items.map((i) => [i.entryId, i.label]), [['u10', undefined], ['a11', 'new']]);
  assert.equal('label' in path.items[0]!, false, 'a removed label leaves no key (the item still validates as strict)');
  assert.equal(path.results.get('k9')!.label, 'res');
  assert.notEqual(path.items, items, 'a new array, so the list re-renders');
  assert.equal(applyLabels(path, [{ entryId: 'a11', label: 'new' }]), false, 'the same label again changes nothing');
});
