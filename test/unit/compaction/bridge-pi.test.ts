// pi 1.6.0 reads a background compaction committed with a bridge unchanged (test/fixtures/bridge/pi-1.6,
// written by Arbor's store, runner and BackgroundCompaction and read by pi's own SessionManager in
// scripts/check-pi-reads-bridge.mjs): a pi v3 `compaction` entry whose `details.bridge` pi ignores, the
// context Arbor builds from the file equals pi's, what pi sends holds the bridge and every ask word for word,
// and Arbor's next compaction of that file starts its span at the bridge origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { summarizerPart } from '../../../src/compaction/user-ledger';
import type { CompactionEntry } from '../../../src/session/entries';

const dir = join(__dirname, '..', '..', 'fixtures', 'bridge', 'pi-1.6');
const pi = JSON.parse(readFileSync(join(dir, 'pi-context.json'), 'utf8')) as {
  piVersion: string;
  context: unknown;
  sent: { role: string; content: string | { type: string; text?: string }[] }[];
};

test('pi 1.6.0 reads the bridged compaction as its own v3 entry and builds the same context as Arbor', async () => {
  assert.equal(pi.piVersion, '1.6.0');
  const store = await SessionStore.open(join(dir, 'session.jsonl'));
  assert.deepEqual(store.loadReport, []);
  const [entry] = store.getBranch().filter((e): e is CompactionEntry => e.type === 'compaction');
  assert.ok(entry);
  assert.equal(typeof entry.firstKeptEntryId, 'string');
  assert.equal(typeof entry.tokensBefore, 'number');
  const bridge = (entry.details as { bridge: { fromEntryId: string; entries: number } }).bridge;
  assert.ok(bridge.entries > 0 && store.getBranch().some((e) => e.id === bridge.fromEntryId));
  assert.doesNotMatch(summarizerPart(entry.summary), /Since This Summary Was Written/);
  assert.deepEqual(JSON.parse(JSON.stringify(store.buildContext())), pi.context);
});

test('what pi sends holds the bridge and every ask word for word; the next compaction summarizes the originals', async () => {
  const text = pi.sent.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('\n'))).join('\n');
  assert.match(text, /^## Since This Summary Was Written$/m);
  for (let n = 0; n < 12; n++) assert.ok(text.includes(`Ask ${n}: keep the port at ${5400 + n}.`), `ask ${n}`);
  const store = await SessionStore.open(join(dir, 'session.jsonl'));
  const preparation = prepareCompaction(store.getBranch(), { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 800 })!;
  assert.ok(preparation.bridgedMessages > 0, 'the span starts at the bridge origin');
});
