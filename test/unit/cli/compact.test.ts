// `arbor-session compact`: a real compaction from the terminal, against the fake OpenAI-compatible server
// on loopback (a real process, the same runner as the extension).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wellFormedSummary } from '../compaction/fixtures';
import { useFakeLlm } from '../llm/helpers';

const root = join(__dirname, '../../..');
const fakeLlm = useFakeLlm();

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], { cwd: root, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const filler = (n: number) => 'lorem ipsum '.repeat(n);

const texts = [`Build it. Never use global state. ${filler(200)}.`, filler(300), `Next part ${filler(200)}`, filler(300), `Last question ${filler(300)}`, filler(300)];

function session(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-cli-compact-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const lines: object[] = [{ type: 'session', version: 3, id: 's1', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/w' }];
  texts.forEach((text, i) => {
    const message = i % 2 === 0
      ? { role: 'user', content: text, timestamp: i }
      : { role: 'assistant', content: [{ type: 'text', text }], api: 'x', provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: i };
    lines.push({ type: 'message', id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: `2025-01-01T00:00:0${i + 1}.000Z`, message });
  });
  const file = join(dir, 's.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

test('compact: local/<id> with --base-url summarizes through the server, appends the entry and prints what it did', async (t) => {
  const file = session(t);
  const fake = fakeLlm();
  fake.enqueue({ text: wellFormedSummary('CLI') + '\n- Never use global state.' }, { text: 'We built it.' });
  const r = await cli(['compact', file, '--model', 'local/qwen-test', '--base-url', fake.openaiBaseUrl, '--keep-recent-tokens', '1200', '--focus', 'the API']);
  assert.equal(r.code, 0, r.err);
  const printed = JSON.parse(r.out);
  const written = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const entry = written.at(-1);
  assert.equal(entry.type, 'compaction');
  assert.equal(printed.entryId, entry.id);
  assert.equal(printed.firstKeptEntryId, 'm4');
  assert.equal(printed.summarizer, 'local/qwen-test');
  assert.ok(printed.tokensBefore > printed.tokensAfter, `${printed.tokensBefore} > ${printed.tokensAfter}`);
  assert.deepEqual(printed.userWordsKept, [
    { entryId: 'm0', role: 'user', text: texts[0] },
    { entryId: 'm2', role: 'user', text: texts[2] },
  ], 'every user message it summarized is kept verbatim');
  assert.deepEqual(printed.userWordsLedger, []);
  assert.match(entry.summary, /CLI goal/);
  const sent = JSON.stringify(fake.requests[0]!.body);
  assert.match(sent, /Additional focus: the API/);
  assert.equal(fake.requests[0]!.body.model, 'qwen-test');
});

test('compact: clear errors for a missing model, a local model without --base-url, a missing key and nothing to compact', async (t) => {
  const file = session(t);
  const fake = fakeLlm();
  const noModel = await cli(['compact', file]);
  assert.equal(noModel.code, 2);
  assert.match(noModel.err, /--model PROVIDER\/ID is required/);
  const noUrl = await cli(['compact', file, '--model', 'local/x']);
  assert.match(noUrl.err, /local models need --base-url/);
  const noKey = await cli(['compact', file, '--model', 'openai/gpt-5-mini', '--base-url', fake.openaiBaseUrl], { OPENAI_API_KEY: '' });
  assert.equal(noKey.code, 2, noKey.out + noKey.err);
  assert.match(noKey.err, /key/i);
  assert.equal(fake.requests.length, 0, 'nothing was sent without a key');
  const one = join(file, '..', 'one.jsonl');
  writeFileSync(one, readFileSync(file, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
  const before = readFileSync(one, 'utf8');
  const tiny = await cli(['compact', one, '--model', 'local/x', '--base-url', fake.openaiBaseUrl]);
  assert.equal(tiny.code, 2, tiny.out);
  assert.match(tiny.err, /Nothing to compact/);
  assert.equal(readFileSync(one, 'utf8'), before, 'a refused compaction leaves the file byte-identical');
});
