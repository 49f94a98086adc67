// Security check (issue 10): after a scripted run that touches every path where a key is in hand (tool
// calls, a retried 429, an auth error whose provider message echoes the key, overflow recovery with a
// compaction, OpenAI native /responses/compact, a manual compaction on Anthropic, a branch summary), the
// distinctive fake keys appear nowhere: not in session files or their backups, not in the workspace, not
// in log lines or agent events, not in the fake's request log (it redacts the Authorization header,
// the one place the key must travel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { navigateTree } from '../../src/branch';
import type { AgentEvent } from '../../src/agent/events';
import { DEFAULT_COMPACTION_SETTINGS } from '../../src/compaction';
import { createProvider } from '../../src/llm/registry';
import { staticKeyResolver } from '../../src/llm/keys';
import type { FakeRequest } from '../fake-llm/server.mjs';
import { harness, summaryText, type Harness } from '../unit/agent/session-helpers';
import { fastRetry } from '../unit/llm/helpers';
import { reportFigures } from './profile';

const OPENAI_KEY = 'sk-proj-KEYSCAN-0penai-7f3c9d21e8b64a5f9c0d';
const ANTHROPIC_KEY = 'sk-ant-api03-KEYSCAN-anthr0pic-4be1a7d09c3f';
const KEYS = { openai: OPENAI_KEY, anthropic: ANTHROPIC_KEY };

/** The whole key and any 12-character window of its secret part (catches partial echoes). */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const key of Object.values(KEYS)) {
    const secret = key.slice(key.indexOf('KEYSCAN'));
    for (let i = 0; i + 12 <= secret.length; i++) {
      if (text.includes(secret.slice(i, i + 12))) {
        found.push(secret.slice(i, i + 12));
        break;
      }
    }
  }
  return found;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    const full = join(dir, name);
    if ((await stat(full)).isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

async function run(api: 'openai' | 'anthropic', logs: string[]): Promise<{ h: Harness; sessionFiles: string[] }> {
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, remoteEnabled: true, keepRecentTokens: 60, reserveTokens: 1000 };
  const h = await harness({
    api,
    // OpenAI through the Responses API, the path its native compaction (/responses/compact) belongs to
    ...(api === 'openai' ? { model: { api: 'openai-responses' as const } } : {}),
    files: { 'notes.txt': 'NOTES' },
    deps: {
      keys: staticKeyResolver(KEYS),
      providerOptions: fastRetry().options,
      log: (line) => logs.push(line),
      compaction: { settings: () => settings, retry: { baseDelayMs: 1, sleep: async () => {} } },
    },
  });
  h.fake.configure({ apiKey: KEYS[api] });
  const read = { text: 'Reading.', toolCalls: [{ name: 'read', input: { path: 'notes.txt' } }] };
  // tool calls and a retried 429
  h.fake.enqueue(read, { error: { kind: 'rate_limit', retryAfterMs: 1 } }, { text: `ANSWER-0 ${'lorem ipsum '.repeat(40)}` });
  await h.agent.prompt(`QUESTION-0 ${'dolor sit amet '.repeat(10)}`);
  // the provider echoes the key in an error (OpenAI does this for a wrong key)
  h.fake.enqueue({ error: { kind: 'custom', status: 401, message: `Incorrect API key provided: ${KEYS[api]}. You can find your API key at https://example.invalid.` } });
  await h.agent.prompt('again');
  h.fake.enqueue(read, { text: `ANSWER-1 ${'lorem ipsum '.repeat(40)}` });
  await h.agent.prompt(`QUESTION-1 ${'dolor sit amet '.repeat(10)}`);
  // overflow → compaction (OpenAI: with native /responses/compact) → retry
  h.fake.enqueue({ overflow: api }, { text: summaryText('KEYSCAN-SUMMARY') }, { text: 'recap' }, { text: 'RETRIED' });
  await h.agent.prompt(`QUESTION-2 ${'dolor sit amet '.repeat(30)}`);
  // a manual compaction whose summarizer call fails once with an auth error echoing the key, then works
  h.fake.enqueue({ text: `ANSWER-3 ${'lorem ipsum '.repeat(40)}` });
  await h.agent.prompt(`QUESTION-3 ${'dolor sit amet '.repeat(10)}`);
  h.fake.enqueue({ error: { kind: 'custom', status: 500, message: `upstream failed for key ${KEYS[api]}` } }, { text: summaryText('MANUAL') }, { text: 'recap' });
  await h.agent.compact().catch(() => undefined);
  // branch summary back to the first user message
  const target = h.store.getBranch().find((e) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'user');
  if (target) {
    h.fake.enqueue({ text: '## Goal\nBRANCH' });
    const summarizer = { provider: createProvider(h.model, staticKeyResolver(KEYS), fastRetry().options), model: h.model, reserveTokens: 1000 };
    await navigateTree(h.store, target.id, { summarize: true }, { summarizer });
  }
  await h.agent.whenIdle();
  return { h, sessionFiles: await filesUnder(h.sessionDir) };
}

test('API keys never appear in session files, backups, the workspace, logs, events or the fake request log', async () => {
  let scannedBytes = 0;
  let scannedFiles = 0;
  for (const api of ['openai', 'anthropic'] as const) {
    const logs: string[] = [];
    const events: AgentEvent[] = [];
    const { h, sessionFiles } = await run(api, logs);
    events.push(...h.events);
    const requests: FakeRequest[] = h.fake.requests;
    // The run really authenticated with the key on every provider request.
    const authed = requests.filter((r) => r.path.startsWith('/v1/'));
    assert.ok(authed.length >= 8, `${api}: ${authed.length} provider requests`);
    assert.ok(authed.every((r) => r.auth === 'valid'), `${api}: every request carried the key`);
    if (api === 'openai') assert.ok(requests.some((r) => r.path === '/v1/responses/compact'), 'native compaction ran');
    assert.ok(h.events.some((e) => e.type === 'error' && /Incorrect API key provided/.test(e.message)), 'the echoed-key error was shown (redacted)');
    const overHttp = await (await fetch(`${h.fake.url}/__fake/requests`)).text();

    const haystacks: [string, string][] = [
      ['logs', logs.join('\n')],
      ['events', JSON.stringify(events)],
      ['fake request log', JSON.stringify(requests)],
      ['fake request log over http', overHttp],
    ];
    for (const file of [...sessionFiles, ...(await filesUnder(h.ws))]) {
      haystacks.push([file, await readFile(file, 'utf8')]);
      scannedFiles++;
    }
    assert.ok(sessionFiles.length >= 1);
    for (const [where, text] of haystacks) {
      scannedBytes += text.length;
      assert.deepEqual(leaks(text), [], `${api}: key material in ${where}`);
    }
    // The scan can find a key: the redaction marker is there, the unredacted header never.
    assert.ok(requests.some((r) => r.headers.authorization === 'REDACTED' || r.headers['x-api-key'] === 'REDACTED'));
    assert.deepEqual(leaks(`x ${KEYS[api]} y`).length, 1);
  }
  reportFigures('key-scan', { files: scannedFiles, bytes: scannedBytes, leaks: 0 });
});
