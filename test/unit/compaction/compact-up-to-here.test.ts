// "Compact Up To Here": a cut the user chose (prepareCompactionAt, compactionCutTargets, and the runner's
// keepFrom). The cut keeps the chosen entry and everything after it, snaps back across a tool
// call/result pair, and is refused for entries off the path, already summarized, or with nothing before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentMessage } from '../../../src/core/messages';
import { emptyUsage } from '../../../src/core/messages';
import { compactionCutTargets, prepareCompactionAt } from '../../../src/compaction/prepare';
import { buildPreview } from '../../../src/compaction/preview';
import { CompactionRunner, MANUAL_CUT_REASON } from '../../../src/compaction/runner';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { SessionStore } from '../../../src/session/store';
import { messageFromEntry } from '../../../src/session/context';
import { FAKE_MODEL, FakeProvider } from './fake-provider';
import { PathBuilder, chars, wellFormedSummary } from './fixtures';

const settings = DEFAULT_COMPACTION_SETTINGS;

/** u0 a0 · u1 a1(read call) t1 a1b · u2 a2 — returns the builder and the ids by name. */
function toolPath() {
  const p = new PathBuilder();
  const ids = {
    u0: p.user('first request'),
    a0: p.assistant('first answer'),
    u1: p.user('read the file'),
    a1: '',
    t1: '',
    a1b: '',
    u2: '',
    a2: '',
  };
  const call = p.toolCall('read', { path: 'src/a.ts' }, 'call-read');
  ids.a1 = p.assistant('reading', [call]);
  ids.t1 = p.toolResult('file contents', 'read', 'call-read');
  ids.a1b = p.assistant('the file says hi');
  ids.u2 = p.user('thanks');
  ids.a2 = p.assistant('you are welcome');
  return { p, ids };
}

test('a valid cut keeps the chosen entry on and summarizes exactly what precedes it', () => {
  const { p, ids } = toolPath();
  const chosen = prepareCompactionAt(p.entries, settings, ids.u2);
  assert.ok(chosen.ok, JSON.stringify(chosen));
  assert.equal(chosen.snapped, false);
  assert.equal(chosen.note, undefined);
  assert.equal(chosen.requestedEntryId, ids.u2);
  const prep = chosen.preparation;
  assert.equal(prep.firstKeptEntryId, ids.u2);
  assert.equal(prep.isSplitTurn, false);
  assert.deepEqual(prep.summarizeEntryIds, [ids.u0, ids.a0, ids.u1, ids.a1, ids.t1, ids.a1b]);
  assert.deepEqual(prep.turnPrefixEntryIds, []);
  assert.deepEqual(prep.keptEntryIds, [ids.u2, ids.a2]);
  assert.equal(prep.previousSummary, undefined);
  // The summarized read call is tracked like the automatic path does.
  assert.deepEqual([...prep.fileOps.read], ['src/a.ts']);
});

test('a cut on a user message far back in a long session ignores keepRecentTokens', () => {
  const p = new PathBuilder();
  const u0 = p.user(chars(10));
  p.assistant(chars(10));
  const u1 = p.user(chars(10));
  for (let i = 0; i < 4; i++) {
    p.assistant(chars(5000));
    p.user(chars(5000));
  }
  const chosen = prepareCompactionAt(p.entries, { ...settings, keepRecentTokens: 100 }, u1);
  assert.ok(chosen.ok);
  assert.equal(chosen.preparation.firstKeptEntryId, u1);
  assert.equal(chosen.preparation.summarizeEntryIds[0], u0);
  assert.equal(chosen.preparation.summarizeEntryIds.length, 2);
  assert.equal(chosen.preparation.keptEntryIds.length, p.entries.length - 2);
  assert.ok(chosen.preparation.effectiveKeepRecentTokens >= 40_000, 'reports the kept size, not the setting');
});

test('a tool result snaps back to the assistant message that called the tool (never splitting the pair)', () => {
  const { p, ids } = toolPath();
  const chosen = prepareCompactionAt(p.entries, settings, ids.t1);
  assert.ok(chosen.ok, JSON.stringify(chosen));
  assert.equal(chosen.snapped, true);
  assert.equal(chosen.requestedEntryId, ids.t1);
  assert.match(chosen.note!, /assistant message/);
  assert.match(chosen.note!, /tool result cannot be kept without the tool call/);
  const prep = chosen.preparation;
  assert.equal(prep.firstKeptEntryId, ids.a1);
  // The call and its result stay together in the kept part.
  assert.deepEqual(prep.keptEntryIds, [ids.a1, ids.t1, ids.a1b, ids.u2, ids.a2]);
  // a1 is mid-turn: the turn's start (u1) is the split turn's prefix, the rest is history.
  assert.equal(prep.isSplitTurn, true);
  assert.equal(prep.turnStartEntryId, ids.u1);
  assert.deepEqual(prep.summarizeEntryIds, [ids.u0, ids.a0]);
  assert.deepEqual(prep.turnPrefixEntryIds, [ids.u1]);
});

test('with several results for one call, any of them snaps back to the call', () => {
  const p = new PathBuilder();
  p.user('go');
  p.assistant('ok');
  const u1 = p.user('two reads');
  const call = p.assistant('reading both', [p.toolCall('read', { path: 'a' }, 'ca'), p.toolCall('read', { path: 'b' }, 'cb')]);
  p.toolResult('A', 'read', 'ca');
  const second = p.toolResult('B', 'read', 'cb');
  p.assistant('done');
  const chosen = prepareCompactionAt(p.entries, settings, second);
  assert.ok(chosen.ok);
  assert.equal(chosen.preparation.firstKeptEntryId, call);
  assert.equal(chosen.preparation.turnStartEntryId, u1);
});

test('metadata snaps back too, so everything the user chose to keep stays kept', () => {
  const p = new PathBuilder();
  p.user('one');
  const a0 = p.assistant('one answer');
  const model = p.modelChange();
  p.user('two');
  p.assistant('two answer');
  const chosen = prepareCompactionAt(p.entries, settings, model);
  assert.ok(chosen.ok);
  assert.equal(chosen.snapped, true);
  assert.equal(chosen.preparation.firstKeptEntryId, a0);
  assert.match(chosen.note!, /carries no message/);
});

test('refused when nothing precedes the chosen entry', () => {
  const { p, ids } = toolPath();
  const first = prepareCompactionAt(p.entries, settings, ids.u0);
  assert.equal(!first.ok && first.why, 'nothing-to-compact');
  assert.match(!first.ok ? first.message : '', /^Nothing to compact before this entry/);
  // A tool result directly at the start has no cut point at or before it.
  const q = new PathBuilder();
  const orphan = q.toolResult('orphan result');
  q.user('later');
  const chosen = prepareCompactionAt(q.entries, settings, orphan);
  assert.equal(!chosen.ok && chosen.why, 'nothing-to-compact');
});

test('refused for an entry off the path and for one before the latest compaction’s kept start', () => {
  const { p, ids } = toolPath();
  const off = prepareCompactionAt(p.entries, settings, 'not-on-this-path');
  assert.equal(off.ok, false);
  assert.equal(!off.ok && off.why, 'not-on-path');
  assert.match(!off.ok ? off.message : '', /not on the current branch/);

  // The same history compacted once, keeping from u1; then one more turn.
  const compaction = p.compaction(wellFormedSummary('OLD'), ids.u1, { readFiles: ['old.md'], modifiedFiles: [] });
  const u3 = p.user('after the compaction');
  p.assistant('noted');
  for (const summarized of [ids.u0, ids.a0]) {
    const chosen = prepareCompactionAt(p.entries, settings, summarized);
    assert.equal(chosen.ok, false, summarized);
    assert.equal(!chosen.ok && chosen.why, 'already-summarized');
    assert.match(!chosen.ok ? chosen.message : '', /already summarized/);
  }
  // The kept start itself and the compaction entry: nothing of the context lies before them.
  for (const id of [ids.u1, compaction]) {
    const chosen = prepareCompactionAt(p.entries, settings, id);
    assert.equal(!chosen.ok && chosen.why, 'nothing-to-compact', id);
  }
  // After it: the previous summary is folded in, and the kept entries before the compaction are re-summarized.
  const chosen = prepareCompactionAt(p.entries, settings, u3);
  assert.ok(chosen.ok);
  assert.equal(chosen.preparation.previousSummary, wellFormedSummary('OLD'));
  assert.deepEqual(chosen.preparation.summarizeEntryIds, [ids.u1, ids.a1, ids.t1, ids.a1b, ids.u2, ids.a2]);
  assert.deepEqual([...chosen.preparation.fileOps.read].sort(), ['old.md', 'src/a.ts']);
});

test('compactionCutTargets lists exactly the entries a cut accepts without snapping or refusal', () => {
  const { p, ids } = toolPath();
  assert.deepEqual([...compactionCutTargets(p.entries)], [ids.a0, ids.u1, ids.a1, ids.a1b, ids.u2, ids.a2]);
  p.compaction('S', ids.u1);
  const u3 = p.user('after');
  assert.deepEqual([...compactionCutTargets(p.entries)], [ids.a1, ids.a1b, ids.u2, ids.a2, u3]);
  for (const entry of p.entries) {
    const chosen = prepareCompactionAt(p.entries, settings, entry.id);
    assert.equal(chosen.ok && !chosen.snapped, compactionCutTargets(p.entries).has(entry.id), entry.id);
  }
});

// ---- the runner: what is written -------------------------------------------------------------------

const PAD = 'pad '.repeat(400);

async function toolSession(): Promise<{ store: SessionStore; dir: string; ids: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-cut-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const assistant = (content: Extract<AgentMessage, { role: 'assistant' }>['content']): AgentMessage => ({
    role: 'assistant', content, api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(),
    stopReason: content.some((c) => c.type === 'toolCall') ? 'toolUse' : 'stop', timestamp: Date.now(),
  });
  // Each message is large enough that a summary of a few of them shrinks the context (else it is refused).
  const messages: AgentMessage[] = [
    { role: 'user', content: `EARLY-REQUEST ${PAD}`, timestamp: Date.now() },
    assistant([{ type: 'text', text: `EARLY-ANSWER ${PAD}` }]),
    { role: 'user', content: `TOOL-REQUEST ${PAD}`, timestamp: Date.now() },
    assistant([{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'notes.md' } }]),
    { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'TOOL-OUTPUT' }], isError: false, timestamp: Date.now() },
    assistant([{ type: 'text', text: `TOOL-ANSWER ${PAD}` }]),
    { role: 'user', content: `LATE-REQUEST ${PAD}`, timestamp: Date.now() },
    assistant([{ type: 'text', text: `LATE-ANSWER ${PAD}` }]),
  ];
  const ids: string[] = [];
  for (const message of messages) ids.push((await store.appendMessage(message)).id);
  return { store, dir, ids };
}

function runnerFor(store: SessionStore, provider: FakeProvider): CompactionRunner {
  return new CompactionRunner({
    store,
    settings: () => ({ ...settings, keepRecentTokens: 1 }),
    models: () => ({ current: FAKE_MODEL, available: [FAKE_MODEL] }),
    providerFor: () => provider,
    retry: { baseDelayMs: 1, sleep: async () => {} },
  });
}

const summarizer = () =>
  new FakeProvider((req) => (JSON.stringify(req.messages).includes('Write a recap') ? 'Recap.' : wellFormedSummary('CUT')));

test('runner: the compaction keeps from the chosen entry; the context is the summary + exactly the entries from the cut', async () => {
  const { store, dir, ids } = await toolSession();
  try {
    const provider = summarizer();
    const runner = runnerFor(store, provider);
    const plan = prepareCompactionAt(store.getBranch(), DEFAULT_COMPACTION_SETTINGS, ids[2]!);
    assert.ok(plan.ok);
    const preview = buildPreview(plan.preparation);
    assert.equal(preview.summarizeCount, 2);
    assert.equal(preview.keptCount, 6);
    const outcome = await runner.run({ reason: 'manual', keepFrom: ids[2]! });
    assert.equal(outcome.status, 'compacted', JSON.stringify(outcome));
    if (outcome.status !== 'compacted') return;
    assert.equal(outcome.entry.firstKeptEntryId, ids[2]);
    assert.deepEqual(outcome.cut, { requestedEntryId: ids[2], firstKeptEntryId: ids[2], snapped: false });
    assert.equal((outcome.entry.details as Record<string, unknown>).reason, MANUAL_CUT_REASON);
    // The summarizer read only what precedes the cut.
    const prompt = provider.prompt(0);
    assert.match(prompt, /EARLY-REQUEST/);
    assert.match(prompt, /EARLY-ANSWER/);
    for (const kept of ['TOOL-REQUEST', 'TOOL-OUTPUT', 'TOOL-ANSWER', 'LATE-REQUEST', 'LATE-ANSWER']) assert.doesNotMatch(prompt, new RegExp(kept));
    // Context = summary, then the kept entries' messages exactly (same objects, same order).
    const context = store.buildContext().messages;
    assert.equal(context[0]!.role, 'compactionSummary');
    const expected = store.getBranch().slice(2, 8).map((e) => messageFromEntry(e));
    assert.deepEqual(context.slice(1), expected);
    assert.equal(context.length, 7);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('runner: a tool result snaps back to its call, the outcome says so, and the pair stays in the context', async () => {
  const { store, dir, ids } = await toolSession();
  try {
    const provider = summarizer();
    const outcome = await runnerFor(store, provider).run({ reason: 'manual', keepFrom: ids[4]! });
    assert.equal(outcome.status, 'compacted', JSON.stringify(outcome));
    if (outcome.status !== 'compacted') return;
    assert.equal(outcome.entry.firstKeptEntryId, ids[3]);
    assert.equal(outcome.cut?.snapped, true);
    assert.equal(outcome.cut?.requestedEntryId, ids[4]);
    assert.match(outcome.cut?.note ?? '', /tool result/);
    const context = store.buildContext().messages;
    assert.deepEqual(context.map((m) => m.role), ['compactionSummary', 'assistant', 'toolResult', 'assistant', 'user', 'assistant']);
    // Split turn: the history summary and the turn-prefix summary are separate requests; neither sees kept messages.
    for (let i = 0; i < provider.requests.length; i++) assert.doesNotMatch(provider.prompt(i), /TOOL-OUTPUT|LATE-REQUEST/);
    assert.ok(provider.requests.some((_r, i) => /TOOL-REQUEST/.test(provider.prompt(i))), 'the turn prefix is summarized');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('runner: refusals, failures and cancellations leave the session file byte-identical', async () => {
  const { store, dir, ids } = await toolSession();
  try {
    const before = await readFile(store.file);
    const provider = summarizer();
    const runner = runnerFor(store, provider);
    assert.deepEqual(await runner.run({ reason: 'manual', keepFrom: ids[0]! }), {
      status: 'skipped',
      why: 'nothing-to-compact',
      message: 'Nothing to compact before this entry: it is the oldest one the context holds.',
    });
    const off = await runner.run({ reason: 'manual', keepFrom: 'elsewhere' });
    assert.equal(off.status === 'skipped' && off.why, 'invalid-cut');
    assert.equal(prepareCompactionAt(store.getBranch(), DEFAULT_COMPACTION_SETTINGS, 'elsewhere').ok, false);
    assert.equal(provider.requests.length, 0, 'a refused cut calls no model');
    const failed = await runnerFor(store, new FakeProvider(() => ({ error: 'invalid request' }))).run({ reason: 'manual', keepFrom: ids[2]! });
    assert.equal(failed.status, 'failed');
    const cancelled = await runner.run({ reason: 'manual', keepFrom: ids[2]!, review: async () => undefined });
    assert.deepEqual(cancelled, { status: 'cancelled' });
    assert.deepEqual(await readFile(store.file), before);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('runner: right after a compaction a chosen cut can still move the kept start forward', async () => {
  const { store, dir, ids } = await toolSession();
  try {
    const runner = runnerFor(store, summarizer());
    const first = await runner.run({ reason: 'manual', keepFrom: ids[2]! });
    assert.equal(first.status, 'compacted');
    assert.equal((await runner.run({ reason: 'manual' })).status, 'skipped', 'plain manual compaction: already compacted');
    // Already summarized now: refused.
    const back = await runner.run({ reason: 'manual', keepFrom: ids[1]! });
    assert.equal(back.status === 'skipped' && back.why, 'invalid-cut');
    const second = await runner.run({ reason: 'manual', keepFrom: ids[6]! });
    assert.equal(second.status, 'compacted', JSON.stringify(second));
    if (second.status !== 'compacted' || first.status !== 'compacted') return;
    assert.equal(second.entry.firstKeptEntryId, ids[6]);
    assert.equal(second.entry.parentId, first.entry.id, 'appended after the first compaction');
    const context = store.buildContext().messages;
    assert.deepEqual(context.map((m) => m.role), ['compactionSummary', 'user', 'assistant']);
    assert.equal(store.getEntries().length, 10, 'nothing removed: 8 messages and 2 compactions');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
