// Full-text session search (src/session/search.ts) on real temp files: what is matched and what is not,
// snippets and highlight offsets (Unicode too), AND semantics, bad lines and unreadable files, caps,
// cancellation, and a 20 MB session searched in chunks without holding the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { searchSessions, type SessionSearchHit } from '../../../src/session/search';
import { makeSnippet, SNIPPET_MAX } from '../../../src/session/search-snippet';
import { queryWords } from '../../../src/session/search-words';
import { tempDir } from './helpers';

let clock = Date.parse('2025-03-01T10:00:00.000Z');
const at = () => new Date((clock += 1000)).toISOString();

function header(id = 'sess'): Record<string, unknown> {
  return { type: 'session', version: 3, id, timestamp: '2025-03-01T10:00:00.000Z', cwd: '/work' };
}
function userLine(id: string, parentId: string | null, content: unknown): Record<string, unknown> {
  return { type: 'message', id, parentId, timestamp: at(), message: { role: 'user', content, timestamp: clock } };
}
function assistantLine(id: string, parentId: string | null, content: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'message',
    id,
    parentId,
    timestamp: at(),
    message: {
      role: 'assistant',
      content,
      api: 'openai-completions',
      provider: 'prov',
      model: 'model-x',
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: 'stop',
      timestamp: clock,
      ...extra,
    },
  };
}
function write(dir: string, name: string, lines: readonly unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}
const ids = (hits: readonly SessionSearchHit[]) => hits.map((h) => h.entryId);
const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** One session with every kind of entry; each holds a distinct marker word. */
function everyKind(dir: string): string {
  return write(dir, 'kinds.jsonl', [
    header('kinds'),
    userLine('u1', null, 'Please look at the wombat parser'),
    userLine('u2', 'u1', [
      { type: 'text', text: 'block with platypus' },
      { type: 'image', mimeType: 'image/png', data: 'zebraQUJDREVGzebra' },
    ]),
    assistantLine('a1', 'u2', [
      { type: 'thinking', thinking: 'pondering the narwhal', thinkingSignature: 'sigwordSECRET' },
      { type: 'text', text: 'The answer mentions okapi.' },
      { type: 'toolCall', id: 'call_1', name: 'grep', arguments: { pattern: 'frobnicate', path: 'src/lib' } },
    ]),
    {
      type: 'message',
      id: 't1',
      parentId: 'a1',
      timestamp: at(),
      message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'grep', content: [{ type: 'text', text: 'src/lib/x.ts: axolotl()' }], isError: false, timestamp: clock },
    },
    {
      type: 'message',
      id: 'b1',
      parentId: 't1',
      timestamp: at(),
      message: { role: 'bashExecution', command: 'make quokka', output: 'built the capybara', exitCode: 0, cancelled: false, truncated: false, timestamp: clock },
    },
    { type: 'compaction', id: 'c1', parentId: 'b1', timestamp: at(), summary: '## Goal\nthe ocelot migration', firstKeptEntryId: 'b1', tokensBefore: 5000 },
    { type: 'branch_summary', id: 's1', parentId: 'c1', timestamp: at(), fromId: 'c1', summary: 'The branch tried the pangolin route.' },
    { type: 'label', id: 'l1', parentId: 's1', timestamp: at(), targetId: 'a1', label: 'tapir checkpoint' },
    { type: 'session_info', id: 'n1', parentId: 'l1', timestamp: at(), name: 'Lemur project' },
    { type: 'custom_message', id: 'm1', parentId: 'n1', timestamp: at(), customType: 'ext', content: 'shown gecko note', display: true },
    { type: 'custom_message', id: 'm2', parentId: 'm1', timestamp: at(), customType: 'ext', content: 'hidden iguana note', display: false },
    { type: 'model_change', id: 'mc', parentId: 'm2', timestamp: at(), provider: 'prov', modelId: 'salamander-model' },
    { type: 'custom', id: 'cu', parentId: 'mc', timestamp: at(), customType: 'ext', data: { note: 'chameleon' } },
  ]);
}

test('query words: whitespace-separated, duplicates ignoring case dropped', () => {
  assert.deepEqual(queryWords('  Foo  bar\tfoo\nBAZ '), ['Foo', 'bar', 'BAZ']);
  assert.deepEqual(queryWords('   '), []);
});

test('matches every kind of user-visible text, case-insensitively, with file, title, id, kind and time', async (t) => {
  const file = everyKind(tempDir(t));
  const expectations: [string, string, string][] = [
    ['WOMBAT', 'u1', 'user'],
    ['platypus', 'u2', 'user'],
    ['narwhal', 'a1', 'assistant'],
    ['okapi', 'a1', 'assistant'],
    ['frobnicate', 'a1', 'assistant'],
    ['axolotl', 't1', 'toolResult'],
    ['quokka', 'b1', 'bash'],
    ['capybara', 'b1', 'bash'],
    ['ocelot', 'c1', 'compaction'],
    ['pangolin', 's1', 'branchSummary'],
    ['gecko', 'm1', 'custom'],
    ['lemur', 'n1', 'sessionName'],
  ];
  for (const [query, entryId, kind] of expectations) {
    const { hits, errors } = await searchSessions([file], query);
    assert.deepEqual(errors, []);
    assert.equal(hits.length, 1, `${query}: ${JSON.stringify(hits)}`);
    const hit = hits[0]!;
    assert.equal(hit.entryId, entryId, query);
    assert.equal(hit.kind, kind, query);
    assert.equal(hit.file, file);
    assert.equal(hit.sessionId, 'kinds');
    assert.equal(hit.title, 'Lemur project', 'the session name is the title');
    assert.match(hit.timestamp ?? '', /^2025-03-01T10:/);
    assert.equal(hit.snippet.slice(...hit.match).toLowerCase(), query.toLowerCase());
  }
  const grep = (await searchSessions([file], 'grep')).hits;
  assert.deepEqual(ids(grep), ['a1'], 'the tool name of a call matches; a result does not match by its tool name');
  const toolResult = (await searchSessions([file], 'axolotl')).hits[0]!;
  assert.equal(toolResult.toolName, 'grep');
  const label = (await searchSessions([file], 'tapir')).hits;
  assert.equal(label.length, 1);
  assert.deepEqual([label[0]!.entryId, label[0]!.sourceEntryId, label[0]!.kind], ['a1', 'l1', 'label'], 'a label hit points at the labelled entry');
});

test('not matched: thinking signatures, images, hidden messages, JSON keys, tool-call JSON, metadata', async (t) => {
  const file = everyKind(tempDir(t));
  for (const query of ['sigwordSECRET', 'zebra', 'iguana', 'salamander', 'chameleon', 'openai-completions', 'model-x', 'toolCall', 'arguments', 'pattern', 'thinkingSignature', 'call_1', 'parentId', '"text"', '{']) {
    const { hits } = await searchSessions([file], query);
    assert.deepEqual(hits, [], `${query} must not match`);
  }
});

test('several words: all must occur in the same entry, in any order', async (t) => {
  const dir = tempDir(t);
  const file = write(dir, 'and.jsonl', [
    header(),
    userLine('u1', null, 'alpha then beta'),
    userLine('u2', 'u1', 'beta comes before ALPHA here'),
    userLine('u3', 'u2', 'only alpha'),
    userLine('u4', 'u3', 'only beta'),
  ]);
  assert.deepEqual(ids((await searchSessions([file], 'alpha beta')).hits), ['u1', 'u2']);
  assert.deepEqual(ids((await searchSessions([file], 'beta   alpha')).hits), ['u1', 'u2']);
  assert.deepEqual(ids((await searchSessions([file], 'alpha beta gamma')).hits), [], 'a missing word excludes the entry');
  const hit = (await searchSessions([file], 'beta alpha')).hits[1]!;
  assert.deepEqual(hit.match, [0, 4], 'the first match in the text, whichever word it is');
  assert.deepEqual(hit.highlights.map(([s, e]) => hit.snippet.slice(s, e)), ['beta', 'ALPHA']);
});

test('snippets: one line of at most ~120 characters around the first match, offsets in the snippet', async (t) => {
  const dir = tempDir(t);
  const long = `${'lorem ipsum dolor '.repeat(30)}\n\n   the   needle\tis here   ${'sit amet consectetur '.repeat(30)} needle again`;
  const file = write(dir, 'snip.jsonl', [header(), userLine('u1', null, long), userLine('u2', 'u1', 'short needle')]);
  const { hits } = await searchSessions([file], 'NEEDLE');
  const [first, second] = hits;
  assert.ok(first && second);
  assert.ok(first.snippet.length <= SNIPPET_MAX, `${first.snippet.length}`);
  assert.ok(first.snippet.startsWith('…') && first.snippet.endsWith('…'), first.snippet);
  assert.doesNotMatch(first.snippet, /\s{2}|[\n\t]/, 'whitespace collapsed');
  assert.equal(first.snippet.slice(...first.match), 'needle');
  assert.match(first.snippet, /the needle is here/);
  assert.ok(first.match[0] > 10 && first.match[0] < 60, `context before the match: ${first.match[0]}`);
  assert.deepEqual(first.highlights, [first.match], 'the second "needle" is too far away to be in the snippet');
  assert.equal(second.snippet, 'short needle', 'a short text is the whole snippet, without ellipses');
  assert.deepEqual(second.match, [6, 12]);
});

test('snippets with Unicode: case-insensitive beyond ASCII, offsets in UTF-16 units, no split surrogate pairs', async (t) => {
  const dir = tempDir(t);
  const emoji = '🌳🍂😀'.repeat(40);
  const text = `${emoji} Die Straße führt ÜBER den Fluß über ${emoji}`;
  const file = write(dir, 'uni.jsonl', [header(), userLine('u1', null, text), userLine('u2', 'u1', 'ΣΊΣΥΦΟΣ and κόσμε')]);
  const { hits } = await searchSessions([file], 'über');
  assert.equal(hits.length, 1);
  const hit = hits[0]!;
  assert.equal(hit.snippet.slice(...hit.match), 'ÜBER', 'matched case-insensitively, reported in the original case');
  assert.deepEqual(hit.highlights.map(([s, e]) => hit.snippet.slice(s, e)), ['ÜBER', 'über']);
  assert.ok(hit.snippet.length <= SNIPPET_MAX);
  assert.doesNotMatch(hit.snippet, lone, 'no half of a surrogate pair at the cuts');
  const greek = (await searchSessions([file], 'σίσυφος \u039a\u038c\u03a3\u039c\u0395')).hits;
  assert.equal(greek.length, 1, 'Greek case folding (final sigma too)');
  // Cuts at every offset through emoji never split a pair.
  const words = [{ all: /x/giu }];
  for (let pad = 0; pad < 8; pad++) {
    const s = `${'a'.repeat(pad)}${emoji}x${emoji}`;
    const i = s.indexOf('x');
    const snip = makeSnippet(s, i, i + 1, words);
    assert.doesNotMatch(snip.snippet, lone, `pad ${pad}`);
    assert.equal(snip.snippet.slice(...snip.match), 'x');
    assert.ok(snip.snippet.length <= SNIPPET_MAX);
  }
});

test('escaped JSON is searched as text: quotes, backslashes and \\u escapes of other writers', async (t) => {
  const dir = tempDir(t);
  const file = write(dir, 'esc.jsonl', [
    header(),
    userLine('u1', null, 'run "make all" in C:\\build\\out'),
    // Written by a tool that escapes non-ASCII (Python's json.dumps default).
    `{"type":"message","id":"u2","parentId":"u1","timestamp":"2025-03-01T10:00:00.000Z","message":{"role":"user","content":"gr\\u00fc\\u00dfe aus K\\u00f6ln","timestamp":1}}`,
  ]);
  assert.deepEqual(ids((await searchSessions([file], '"make all"')).hits), ['u1']);
  assert.deepEqual(ids((await searchSessions([file], 'C:\\build\\out')).hits), ['u1']);
  assert.deepEqual(ids((await searchSessions([file], 'KÖLN grüße')).hits), ['u2']);
});

test('bad lines are skipped, unreadable files are per-file errors, the search goes on', async (t) => {
  const dir = tempDir(t);
  const good = write(dir, 'good.jsonl', [
    header('good'),
    userLine('u1', null, 'marker one'),
    '{"type":"message","id":"broken", not json marker',
    'garbage marker',
    '[1,2,"marker"]',
    '{"type":"message","message":{"role":"user","content":"marker without id"}}',
    userLine('u2', 'u1', 'marker two'),
    userLine('u1', 'u2', 'marker duplicate id: the first line counts'),
    '{"type":"message","id":"torn","parentId":"u2","message":{"role":"user","content":"marker tor',
  ]);
  writeFileSync(join(dir, 'crlf.jsonl'), [header('crlf'), userLine('w1', null, 'marker crlf')].map((l) => JSON.stringify(l)).join('\r\n') + '\r\n');
  const notSession = write(dir, 'other.jsonl', [{ hello: 'marker' }]);
  const badHeader = write(dir, 'badheader.jsonl', ['{not json', userLine('x1', null, 'marker')]);
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '');
  const folder = join(dir, 'folder.jsonl');
  mkdirSync(folder);
  const missing = join(dir, 'missing.jsonl');
  const result = await searchSessions([missing, good, notSession, folder, join(dir, 'crlf.jsonl'), badHeader, empty], 'marker');
  assert.deepEqual(ids(result.hits), ['u1', 'u2', 'w1']);
  assert.equal(result.hits[0]!.snippet, 'marker one');
  assert.deepEqual(
    result.errors.map((e) => [e.file, e.message.replace(/:.*/s, '')]),
    [
      [missing, 'ENOENT'],
      [notSession, 'not a session file'],
      [folder, 'EISDIR'],
      [badHeader, 'not a session file'],
      [empty, 'empty file'],
    ],
  );
  assert.equal(result.filesSearched, 2);
  assert.equal(result.cancelled, false);
  assert.ok(result.stats.badLines >= 3, `bad lines counted: ${result.stats.badLines}`);
});

test('titles: the last session name wins, else the first user message; a given title is used as is', async (t) => {
  const dir = tempDir(t);
  const named = write(dir, 'named.jsonl', [
    header(),
    { type: 'session_info', id: 'n1', parentId: null, timestamp: at(), name: 'Old name' },
    userLine('u1', 'n1', 'topic kestrel'),
    { type: 'session_info', id: 'n2', parentId: 'u1', timestamp: at(), name: '  New name  ' },
  ]);
  const unnamed = write(dir, 'unnamed.jsonl', [header(), userLine('u1', null, '\n  First line of the question\nsecond'), userLine('u2', 'u1', 'kestrel')]);
  const cleared = write(dir, 'cleared.jsonl', [
    header(),
    { type: 'session_info', id: 'n1', parentId: null, timestamp: at(), name: 'Gone' },
    { type: 'session_info', id: 'n2', parentId: 'n1', timestamp: at(), name: '' },
    { type: 'message', id: 'b1', parentId: 'n2', timestamp: at(), message: { role: 'bashExecution', command: 'kestrel', output: '', exitCode: 0, cancelled: false, truncated: false, timestamp: 1 } },
  ]);
  const { hits } = await searchSessions([named, unnamed, cleared, { file: named, title: 'From the view' }], 'kestrel');
  assert.deepEqual(
    hits.map((h) => h.title),
    ['New name', 'First line of the question', undefined, 'From the view'],
  );
});

test('caps: at most perSession hits per session (the first in the file), at most limit in total', async (t) => {
  const dir = tempDir(t);
  const many = (name: string, count: number) => {
    const lines: unknown[] = [header(name)];
    for (let i = 0; i < count; i++) lines.push(userLine(`${name}${i}`, i === 0 ? null : `${name}${i - 1}`, `heron number ${i}`));
    return write(dir, `${name}.jsonl`, lines);
  };
  const a = many('a', 30);
  const b = many('b', 30);
  const c = many('c', 5);
  const capped = await searchSessions([a, c], 'heron');
  assert.deepEqual(ids(capped.hits), [...Array.from({ length: 20 }, (_, i) => `a${i}`), 'c0', 'c1', 'c2', 'c3', 'c4']);
  assert.deepEqual(capped.capped, [a]);
  assert.equal(capped.truncated, false);
  const streamed: string[] = [];
  const limited = await searchSessions([a, b, c], 'heron', { limit: 25, perSession: 20, onResult: (hit) => streamed.push(hit.entryId) });
  assert.equal(limited.hits.length, 25);
  assert.deepEqual(streamed, ids(limited.hits), 'onResult saw every hit, in order');
  assert.deepEqual(ids(limited.hits).slice(18, 22), ['a18', 'a19', 'b0', 'b1']);
  assert.equal(limited.truncated, true);
  assert.equal(limited.filesSearched, 2, 'the third file is not read once the limit is reached');
  assert.deepEqual((await searchSessions([a], 'heron', { perSession: 3 })).hits.length, 3);
  assert.deepEqual((await searchSessions([a], '   ')).hits, [], 'an empty query finds nothing');
  const stopAfterThree = await searchSessions([{ file: a, title: 'A' }], 'heron', { perSession: 3, chunkSize: 256 });
  assert.ok(stopAfterThree.bytesRead < 2048, `a capped file with a given title is not read to the end (${stopAfterThree.bytesRead} bytes)`);
  await assert.rejects(
    searchSessions([a, c], 'heron', { onResult: () => { throw new Error('callback bug'); } }),
    /callback bug/,
    'a throwing onResult is not mistaken for an unreadable file',
  );
});

/** A session of about `bytes` bytes of ~2 KB user messages; `needle` in the last one. */
function bigSession(dir: string, name: string, bytes: number, needle: string): string {
  const filler = 'lorem ipsum dolor sit amet '.repeat(75);
  const lines: string[] = [JSON.stringify(header(name))];
  let size = lines[0]!.length + 1;
  let parent: string | null = null;
  for (let i = 0; size < bytes; i++) {
    const id = `e${i}`;
    const line = JSON.stringify(userLine(id, parent, `${i} ${filler}`));
    lines.push(line);
    size += line.length + 1;
    parent = id;
  }
  lines.push(JSON.stringify(userLine('last', parent, `the ${needle} at the end`)));
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

test('cancellation: an aborted signal stops before reading; aborting during a search stops it promptly', async (t) => {
  const dir = tempDir(t);
  const big = bigSession(dir, 'big', 8 * 1024 * 1024, 'falcon');
  const before = new AbortController();
  before.abort();
  const none = await searchSessions([big], 'falcon', { signal: before.signal });
  assert.equal(none.cancelled, true);
  assert.equal(none.bytesRead, 0);
  // Every line matches "lorem": abort on the first hit.
  const during = new AbortController();
  const seen: string[] = [];
  const started = performance.now();
  const result = await searchSessions([{ file: big, title: 'Big' }, big], 'lorem', {
    signal: during.signal,
    chunkSize: 64 * 1024,
    onResult: (hit) => {
      seen.push(hit.entryId);
      during.abort();
    },
  });
  const elapsed = performance.now() - started;
  assert.equal(result.cancelled, true);
  assert.deepEqual(seen, ['e0'], 'nothing is delivered after the abort');
  assert.ok(result.bytesRead <= 64 * 1024, `stopped within the first chunk (${result.bytesRead} bytes read)`);
  assert.equal(result.filesSearched, 0);
  assert.ok(elapsed < 1000, `${elapsed} ms`);
  // Aborted from outside while the search waits for a read.
  const outside = new AbortController();
  const pending = searchSessions([big, big, big], 'nothing-matches-this', { signal: outside.signal, chunkSize: 64 * 1024 });
  setImmediate(() => outside.abort());
  const stopped = await pending;
  assert.equal(stopped.cancelled, true);
  assert.ok(stopped.bytesRead < 8 * 1024 * 1024, `read ${stopped.bytesRead} of ${3 * 8 * 1024 * 1024} bytes`);
});

test('a 20 MB session is searched in chunks: memory outside the JS heap stays far below the file size', async (t) => {
  const dir = tempDir(t);
  const size = 20 * 1024 * 1024;
  const file = bigSession(dir, 'huge', size, 'kingfisher');
  const chunkSize = 1024 * 1024;
  // Collect the garbage of writing the file first, so the baseline is what is really held.
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const baseline = process.memoryUsage().arrayBuffers;
  let peak = baseline;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  };
  const timer = setInterval(sample, 1);
  let result;
  try {
    result = await searchSessions([file], 'KINGFISHER', { chunkSize, onResult: sample });
  } finally {
    clearInterval(timer);
  }
  sample();
  assert.deepEqual(ids(result.hits), ['last']);
  assert.ok(result.bytesRead >= size);
  assert.ok(result.stats.largestRead <= chunkSize, `reads of at most one chunk (${result.stats.largestRead})`);
  assert.ok(result.stats.reads >= Math.floor(size / chunkSize), `${result.stats.reads} reads`);
  // A whole-file read holds ≥ 20 MB of Buffer memory; chunked reading holds one chunk and a line.
  const growth = peak - baseline;
  t.diagnostic(`Buffer memory growth ${(growth / 1024 / 1024).toFixed(2)} MB, ${result.stats.reads} reads, ${result.bytesRead} bytes`);
  assert.ok(growth < size / 4, `Buffer memory grew by ${(growth / 1024 / 1024).toFixed(1)} MB while searching ${size / 1024 / 1024} MB`);
});
