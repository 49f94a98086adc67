// MCP tool results into the model's content: each block kind, isError, structuredContent, and the caps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolOutputOf, type McpResultDetails } from '../../../src/mcp/results';
import { effectOf, toolNameOf } from '../../../src/mcp/tools';
import { parseServers } from '../../../src/mcp/config';

const texts = (o: ReturnType<typeof toolOutputOf>) => o.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));

test('text, image, audio, resource link and embedded resources; isError kept', () => {
  const out = toolOutputOf({
    isError: true,
    content: [
      { type: 'text', text: 'hello' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/mpeg' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
      { type: 'resource', resource: { uri: 'mem://t', text: 'inside' } },
      { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA', mimeType: 'application/zip' } },
      { type: 'hologram' },
    ],
  }, 's', 't');
  assert.equal(out.isError, true);
  assert.deepEqual(out.content[1], { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });
  // consecutive text blocks become one part (the caps count parts too)
  assert.deepEqual(texts(out), [
    'hello',
    [
      '[Audio (audio/mpeg): not shown to the model]',
      '[Resource link: file:///a.txt (a)]',
      'Resource mem://t:\ninside',
      '[Resource mem://b (application/zip): binary content not shown]',
      '[Not shown: content of type "hologram"]',
    ].join('\n'),
  ]);
  const details = out.details as McpResultDetails;
  assert.deepEqual(details.mcp.links.map((l) => l.uri), ['file:///a.txt', 'mem://t', 'mem://b']);
  assert.deepEqual([details.mcp.server, details.mcp.tool], ['s', 't']);
});

test('structuredContent is shown as JSON only when there is no text; an empty result says so', () => {
  assert.deepEqual(texts(toolOutputOf({ content: [], structuredContent: { a: 1 } }, 's', 't')), ['{\n  "a": 1\n}']);
  assert.deepEqual(texts(toolOutputOf({ content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 } }, 's', 't')), ['x']);
  assert.deepEqual(texts(toolOutputOf({}, 's', 't')), ['(the tool returned no content)']);
  assert.equal(toolOutputOf(null, 's', 't').isError, false);
});

test('caps: per item, in total, images by size, type, count and encoding', () => {
  const caps = { totalChars: 100, itemChars: 60, resourceChars: 20, imageChars: 16, maxImages: 1 };
  const out = toolOutputOf({ content: [
    { type: 'text', text: 'a'.repeat(80) },
    { type: 'text', text: 'b'.repeat(80) },
    { type: 'text', text: 'c' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'image', data: 'A'.repeat(40), mimeType: 'image/png' },
    { type: 'image', data: '<svg/>', mimeType: 'image/png' },
  ] }, 's', 't', caps);
  const t = texts(out);
  assert.match(t[0], /^a{60}\n\[… 20 more characters cut by Arbor\]\nb{40}\n\[… 40 more characters cut by Arbor\]$/);
  assert.equal(out.content.filter((c) => c.type === 'image').length, 1);
  assert.match(t.at(-1) ?? '', /too many in one result.*too large.*not base64/);
  assert.equal((out.details as McpResultDetails).mcp.truncated, true);
});

test('tool names: prefixed, sanitised to [A-Za-z0-9_-]{1,64}', () => {
  assert.equal(toolNameOf('git hub', 'create.issue/v2'), 'git_hub_create_issue_v2');
  assert.equal(toolNameOf('s', 'é'), 's');
  assert.equal(toolNameOf('x'.repeat(50), 'y'.repeat(50)).length, 64);
  assert.match(toolNameOf('ü', 'ö'), /^[A-Za-z0-9_-]{1,64}$/);
});

test('effect: runs by default; readOnly only by the user\'s list or a trusted hint', () => {
  const cfg = (extra: object) => parseServers({ s: { command: 'x', ...extra } }).servers.get('s')!;
  const hinted = { name: 'look', inputSchema: {}, annotations: { readOnlyHint: true } };
  assert.equal(effectOf('s', hinted, cfg({})).kind, 'runs');
  assert.equal(effectOf('s', hinted, cfg({ trustReadOnlyHints: true })).kind, 'readOnly');
  assert.equal(effectOf('s', { name: 'look', inputSchema: {} }, cfg({ trustReadOnlyHints: true })).kind, 'runs');
  assert.equal(effectOf('s', { name: 'look', inputSchema: {} }, cfg({ readOnlyTools: ['look'] })).kind, 'readOnly');
  const runs = effectOf('s', { name: 'go', inputSchema: {} }, cfg({}));
  assert.equal(runs.kind === 'runs' && runs.command?.({ a: 1 }), 's › go {"a":1}');
});

test('an MCP tool\'s old output is pruned before compaction like bash output', async () => {
  const { planPruning } = await import('../../../src/compaction/pruning');
  const { PathBuilder, chars } = await import('../compaction/fixtures');
  const b = new PathBuilder();
  const ids: string[] = [];
  for (const tokens of [25_000, 25_000, 45_000]) {
    b.user('go');
    b.assistant('', [b.toolCall('everything_echo', {})]);
    ids.push(b.toolResult(chars(tokens), 'everything_echo'));
  }
  assert.deepEqual([...planPruning(b.entries).prune.keys()].sort(), [ids[0], ids[1]].sort());
});

test('blocks are capped too: empty text is skipped, the "not shown" list keeps 20 lines and a count', () => {
  const out = toolOutputOf({ content: [
    ...Array.from({ length: 1000 }, () => ({ type: 'text', text: '' })),
    ...Array.from({ length: 1000 }, () => ({ type: 'hologram' })),
  ] }, 's', 't');
  const details = (out.details as McpResultDetails).mcp;
  assert.deepEqual([out.content.length, details.dropped.length, details.droppedCount], [1, 20, 1000]);
  assert.match(texts(out)[0], /^\[Not shown: content of type "hologram"(; content of type "hologram"){19}; and 980 more\]$/);
});
