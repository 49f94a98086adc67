// Issue 25: "Summarize from Here" is offered only where it can run. The Session Tree's menu (its `when`
// clause on the entry's contextValue) and the chat's message toolbar (the view's `stageStart`) must offer
// it on exactly the entries `planStage` plans, on a path with a compaction in the middle (entries before
// it were offered, then refused with "The stage contains a compaction").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { emptyUsage } from '../../../src/core/messages';
import { SessionStore } from '../../../src/session/store';
import { planStage } from '../../../src/branch/stage';
import { SessionViews } from '../../../src/app/session-views';
import { contextValueFor } from '../../../src/vscode/tree/entry-context';
import { stageStartIds } from '../../../src/branch/stage';
import { viewText } from '../../../src/present/view-text';

async function sessionWithCompaction(): Promise<SessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-stage-offer-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const reply = (text: string) => ({
    role: 'assistant' as const, content: [{ type: 'text' as const, text }], api: 'openai-completions', provider: 'fake', model: 'm',
    usage: emptyUsage(), stopReason: 'stop' as const, timestamp: Date.now(),
  });
  await store.appendMessage({ role: 'user', content: 'EARLY', timestamp: Date.now() });
  await store.appendMessage(reply('EARLY-ANSWER'));
  const kept = await store.appendMessage({ role: 'user', content: 'KEPT', timestamp: Date.now() });
  await store.appendMessage(reply('KEPT-ANSWER'));
  await store.appendCompaction({ summary: '## Goal\nG', firstKeptEntryId: kept.id, tokensBefore: 100 });
  await store.appendMessage({ role: 'user', content: 'LATE', timestamp: Date.now() });
  await store.appendMessage(reply('LATE-ANSWER'));
  await store.appendModelChange('fake', 'other');
  return store;
}

function menuWhen(command: string): RegExp {
  const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
  const item = manifest.contributes.menus['view/item/context'].find((m: { command: string }) => m.command === command);
  return new RegExp(/viewItem =~ \/(.+?)\//.exec(item.when)![1]!);
}

test('the Session Tree menu offers Summarize from Here exactly where planStage plans a stage', async () => {
  const store = await sessionWithCompaction();
  const path = store.getBranch();
  const when = menuWhen('arbor.summarizeFromHere');
  const starts = stageStartIds(path);
  for (const entry of path) {
    const value = contextValueFor(entry, { isLeaf: entry.id === store.getLeafId(), onPath: true, isTip: false, stageStart: starts.has(entry.id) });
    const planned = planStage(path, entry.id).status === 'planned';
    assert.equal(when.test(value), planned, `${entry.type} ${JSON.stringify((entry as { message?: unknown }).message ?? '')}: offered ≠ runnable`);
  }
  assert.ok(path.some((e) => planStage(path, e.id).status === 'refused'), 'the path has entries where it is refused');
});

test('the chat offers it on the messages after the compaction only (the view flag the toolbar reads)', async () => {
  const store = await sessionWithCompaction();
  const views = new SessionViews(store, { emit: () => {}, sessionView: () => null, compactionReasons: new Map() } as never);
  const path = store.getBranch();
  const shown = views.conversation(true).views.filter((v) => v.kind === 'user' || v.kind === 'assistant');
  assert.ok(shown.length >= 4);
  for (const view of shown) assert.equal(view.stageStart === true, planStage(path, view.id).status === 'planned', viewText(view));
  assert.deepEqual(shown.filter((v) => v.stageStart).map(viewText), ['LATE', 'LATE-ANSWER']);
});
