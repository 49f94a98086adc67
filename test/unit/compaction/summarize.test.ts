import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compact } from '../../../src/compaction/summarize';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { CompactionCancelled } from '../../../src/compaction/errors';
import { checkRemoteEndpoint, RemoteEndpointRefused } from '../../../src/compaction/remote';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { PathBuilder, chars, wellFormedSummary } from './fixtures';

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 600 };

function twoTurnSession(): PathBuilder {
  const b = new PathBuilder();
  b.user('FIRST-REQUEST ' + chars(300));
  b.assistant('', [b.toolCall('read', { path: 'src/x.ts' })]);
  b.toolResult('TOOL-OUTPUT ' + 'z'.repeat(5000), 'read');
  b.assistant('done reading ' + chars(100));
  b.user('SECOND-REQUEST ' + chars(700));
  b.assistant('KEPT-ANSWER');
  return b;
}

/** Answers summaries with a well-formed checkpoint and short summaries with a recap. */
function normalScript(prompt: string): string {
  if (prompt.includes('Write a recap')) return 'We did things.';
  if (prompt.includes('FIRST PART of one long turn')) return '## Original Request\nPREFIX';
  return wellFormedSummary('NEW');
}

test('summarizes only the span to summarize, with tool results truncated, file tags and short summary', async () => {
  const prep = prepareCompaction(twoTurnSession().entries, settings)!;
  const provider = new FakeProvider((req) => normalScript(JSON.stringify(req.messages)));
  const result = await compact(prep, { provider, model: FAKE_MODEL, customInstructions: 'focus on the parser' });
  assert.equal(provider.requests.length, 2, 'one summary + one short summary');
  const prompt = provider.prompt(0);
  assert.match(prompt, /^<conversation>\n\[User\]: FIRST-REQUEST/);
  assert.ok(!prompt.includes('SECOND-REQUEST'), 'the kept part is not resent');
  assert.ok(prompt.includes('[... 3012 more characters truncated]'), 'tool output cut to 2000 chars');
  assert.ok(!prompt.includes('<previous-summary>'));
  assert.match(prompt, /Additional focus: focus on the parser$/);
  assert.equal(provider.requests[0]!.maxTokens, Math.floor(0.8 * 16384));
  assert.match(provider.requests[0]!.systemPrompt, /checkpoint/);
  assert.ok(!provider.prompt(1).includes('FIRST-REQUEST'), 'the recap is made from the summary, not the transcript');
  assert.match(result.summary, /^## Goal\nNEW goal/);
  assert.ok(result.summary.endsWith('<read-files>\nsrc/x.ts\n</read-files>'));
  assert.equal(result.shortSummary, 'We did things.');
  const { userWords, ...files } = result.details as { userWords: { verbatim: { entryId: string; text: string }[] } };
  assert.deepEqual(files, { readFiles: ['src/x.ts'], modifiedFiles: [] });
  assert.deepEqual(userWords.verbatim.map((m) => m.entryId), ['e0'], 'the summarized user message is kept verbatim in details');
  assert.ok(result.summary.includes(userWords.verbatim[0]!.text), '...and in the summary text the model gets');
  assert.equal(result.firstKeptEntryId, prep.firstKeptEntryId);
});

test('an update passes the previous summary (without its old file tags) and hook context lines', async () => {
  const b = new PathBuilder();
  const keep = b.user('OLD-KEPT ' + chars(500));
  b.compaction(wellFormedSummary('OLD') + '\n\n<read-files>\nold.ts\n</read-files>', keep, { readFiles: ['old.ts'], modifiedFiles: [] });
  b.assistant('reply ' + chars(500));
  b.user('NEWEST ' + chars(700));
  b.assistant('ok');
  const prep = prepareCompaction(b.entries, settings)!;
  const provider = new FakeProvider((req) => normalScript(JSON.stringify(req.messages)));
  const result = await compact(prep, { provider, model: FAKE_MODEL, additionalContext: ['memory: uses pnpm', ' '], shortSummary: false });
  const prompt = provider.prompt(0);
  assert.ok(prompt.includes('OLD-KEPT'), 'what the previous compaction kept is re-summarized');
  assert.ok(prompt.includes('<previous-summary>\n## Goal\nOLD goal'));
  assert.ok(prompt.includes('<additional-context>\n- memory: uses pnpm\n</additional-context>'));
  assert.ok(prompt.includes('AFTER the checkpoint'), 'the update prompt is used');
  assert.ok(!prompt.includes('NEWEST'));
  assert.ok(result.summary.includes('<read-files>\nold.ts\n</read-files>'), 'file lists are cumulative');
  assert.equal(provider.requests.length, 1);
});

test('guard: a summary missing sections is retried once with a corrective note', async () => {
  const prep = prepareCompaction(twoTurnSession().entries, settings)!;
  const provider = new FakeProvider((_req, i) => (i === 0 ? 'Here is a summary: stuff happened.' : wellFormedSummary('FIXED')));
  const result = await compact(prep, { provider, model: FAKE_MODEL, shortSummary: false });
  assert.equal(provider.requests.length, 2);
  const retry = provider.requests[1]!.messages;
  assert.equal(retry.length, 3, 'original prompt, the rejected answer, the correction');
  assert.match(provider.prompt(1), /missing sections ## Goal/);
  assert.match(result.summary, /FIXED goal/);
});

test("guard: a hook's replacement prompt sets the format, so the default headings are not demanded", async () => {
  const prep = prepareCompaction(twoTurnSession().entries, settings)!;
  const provider = new FakeProvider(() => 'STATE: parser half done; next: tests.');
  const promptOverride = 'Summarize the conversation as one line starting with STATE:.';
  const result = await compact(prep, { provider, model: FAKE_MODEL, promptOverride, shortSummary: false });
  assert.equal(provider.requests.length, 1, 'no corrective retry against the hook\'s format');
  assert.ok(provider.prompt(0).includes(promptOverride));
  assert.match(result.summary, /^STATE: parser half done; next: tests\./);
});

test("quirk 3 fixed: a split turn with no history keeps the previous summary", async () => {
  const b = new PathBuilder();
  const u = b.user('TURN-START ' + chars(100));
  b.compaction(wellFormedSummary('EARLIER'), u);
  b.assistant('', [b.toolCall('bash', {})]);
  b.toolResult(chars(2000));
  b.assistant('final ' + chars(700));
  const prep = prepareCompaction(b.entries, settings)!;
  assert.equal(prep.isSplitTurn, true);
  assert.equal(prep.messagesToSummarize.length, 0);
  const provider = new FakeProvider((req) => normalScript(JSON.stringify(req.messages)));
  const result = await compact(prep, { provider, model: FAKE_MODEL, shortSummary: false });
  assert.equal(provider.requests.length, 1, 'only the turn prefix needs the model');
  assert.match(result.summary, /^## Goal\nEARLIER goal[\s\S]*\n\n---\n\n\*\*Turn Context \(split turn\):\*\*\n\n## Original Request\nPREFIX/);
  assert.equal(provider.requests[0]!.maxTokens, Math.floor(0.5 * 16384));
});

test('a split turn with history before it is summarized in the history request: one request, the kept rest not resent', async () => {
  const b = new PathBuilder();
  b.user('FIRST-REQUEST ' + chars(300));
  b.assistant('first done ' + chars(100));
  b.user('TURN-START ' + chars(200));
  b.assistant('', [b.toolCall('read', { path: 'src/early.ts' })]);
  b.toolResult('EARLY-OUTPUT ' + chars(400), 'read');
  b.assistant('KEPT-STEP ' + chars(300), [b.toolCall('bash', { command: 'npm test' })]);
  b.toolResult('LATE-OUTPUT ' + chars(300), 'bash');
  b.assistant('final ' + chars(200));
  const prep = prepareCompaction(b.entries, settings)!;
  assert.equal(prep.isSplitTurn, true, 'the cut falls inside the last turn');
  assert.ok(prep.messagesToSummarize.length > 0 && prep.turnPrefixMessages.length > 0);
  const provider = new FakeProvider((req) => normalScript(JSON.stringify(req.messages)));
  const result = await compact(prep, { provider, model: FAKE_MODEL, shortSummary: false });
  assert.equal(provider.requests.length, 1, 'history and turn prefix in one request, no turn-prefix request of its own');
  const prompt = provider.prompt(0);
  assert.ok(prompt.includes('FIRST-REQUEST') && prompt.includes('TURN-START') && prompt.includes('EARLY-OUTPUT'), 'the history and the turn prefix are both in it');
  assert.ok(!prompt.includes('LATE-OUTPUT'), 'the kept rest is not resent');
  assert.ok(!prompt.includes('KEPT-STEP'), 'nor quoted');
  assert.match(prompt, /ends in the middle of one long turn: the rest of that turn is kept/, 'the note says the turn goes on in the kept part');
  assert.ok(!prompt.includes('FIRST PART of one long turn'));
  assert.match(result.summary, /^## Goal\nNEW goal/);
  assert.ok(!result.summary.includes('Turn Context (split turn)'), 'one checkpoint, not two joined');
});

test('errors: stopReason error → "Summarization failed: …"; abort → CompactionCancelled', async () => {
  const prep = prepareCompaction(twoTurnSession().entries, settings)!;
  await assert.rejects(
    compact(prep, { provider: new FakeProvider(() => ({ error: '529 overloaded' })), model: FAKE_MODEL }),
    (e: Error) => e.message === 'Summarization failed: 529 overloaded' && (e as { transient?: boolean }).transient === true,
  );
  await assert.rejects(compact(prep, { provider: new FakeProvider(() => ({ aborted: true })), model: FAKE_MODEL }), CompactionCancelled);
  const controller = new AbortController();
  const slow = new FakeProvider(async () => {
    controller.abort();
    return wellFormedSummary();
  });
  await assert.rejects(compact(prep, { provider: slow, model: FAKE_MODEL, signal: controller.signal }), CompactionCancelled);
});

test('remote endpoint policy: https or loopback http only, no credentials in the URL', () => {
  assert.equal(checkRemoteEndpoint('https://sum.example.com/x').hostname, 'sum.example.com');
  for (const ok of ['http://localhost:8080/s', 'http://127.0.0.1/s', 'http://127.9.8.7/s', 'http://[::1]:9/s']) checkRemoteEndpoint(ok);
  for (const bad of ['http://example.com/s', 'http://10.0.0.1/s', 'http://localhost.evil.com/s', 'ftp://x/s', 'https://u:p@x.com/s']) {
    assert.throws(() => checkRemoteEndpoint(bad), RemoteEndpointRefused, bad);
  }
});

test('remote endpoint: used for the summary over loopback, never sends credentials; falls back to the model on failure', async () => {
  const seen: { headers: Record<string, unknown>; body: { systemPrompt: string; prompt: string } }[] = [];
  let fail = false;
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: JSON.parse(data) });
      if (fail) {
        res.writeHead(500).end('boom');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ summary: wellFormedSummary('REMOTE'), shortSummary: 'Remote recap.' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/summarize`;
  try {
    const prep = prepareCompaction(twoTurnSession().entries, settings)!;
    const provider = new FakeProvider((req) => normalScript(JSON.stringify(req.messages)));
    const result = await compact(prep, { provider, model: FAKE_MODEL, remote: { endpoint } });
    assert.equal(provider.requests.length, 0, 'the model is not called');
    assert.match(result.summary, /REMOTE goal/);
    assert.equal(result.shortSummary, 'Remote recap.');
    assert.match(seen[0]!.body.prompt, /^<conversation>/);
    assert.match(seen[0]!.body.systemPrompt, /checkpoint/);
    assert.equal(seen[0]!.headers.authorization, undefined);
    assert.equal(seen[0]!.headers.cookie, undefined);
    fail = true;
    const fallback = await compact(prep, { provider, model: FAKE_MODEL, remote: { endpoint }, shortSummary: false });
    assert.match(fallback.summary, /NEW goal/);
    assert.equal(provider.requests.length, 1);
  } finally {
    server.close();
  }
  const prep = prepareCompaction(twoTurnSession().entries, settings)!;
  await assert.rejects(
    compact(prep, { provider: new FakeProvider(() => 'x'), model: FAKE_MODEL, remote: { endpoint: 'http://example.com/s' } }),
    /Summarization failed: Refusing to send the conversation over plain http/,
  );
});
