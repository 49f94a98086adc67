// Every refusal of an app action comes back as a typed outcome (src/app/app-outcome.ts), not as an
// exception: the chat and the commands tell it as a warning with its reason, and only exceptions are
// shown and logged as errors. One case per refusal reason the app can reach from a UI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appHarness } from './helpers';
import { accepted, refusal } from './outcome';

test('without a session: fork, rename, summarized messages and labels are refused, nothing thrown', async () => {
  const h = await appHarness();
  refusal(await h.app.session.forkBranch(), 'nothing-to-fork', /Nothing to fork/);
  refusal(await h.app.session.renameSession('x'), 'no-session');
  refusal(h.app.views.summarizedBy('c1'), 'no-session');
  refusal(h.app.views.entryBeforeCompaction('c1'), 'no-session');
  refusal(await h.app.tree.label('e1', 'x'), 'no-session');
  refusal(await h.app.tree.branchAt('e1'), 'no-session');
  refusal(await h.app.tree.navigate('e1'), 'no-session');
  refusal(await h.app.tree.insertBranchSummary('e1'), 'no-session');
  refusal(await h.app.tree.restoreFilesOnly('e1', new Set()), 'no-session');
  refusal(await h.app.tree.pin('e1', true), 'no-session');
  refusal(await h.app.tree.summarizeFromHere('e1'), 'no-session');
});

test('an unknown entry or compaction is refused with its id', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A1' });
  await h.app.prompt('first question');
  for (const outcome of [await h.app.tree.navigate('nope'), await h.app.tree.label('nope', 'x'), await h.app.tree.branchAt('nope'), await h.app.session.forkBranch('nope')]) {
    refusal(outcome, 'unknown-entry', /Unknown entry "nope"/);
  }
  refusal(h.app.views.summarizedBy('nope'), 'unknown-compaction', /Unknown compaction "nope"/);
  const user = h.app.snapshot().conversation.find((e) => e.kind === 'user')!;
  refusal(h.app.views.entryBeforeCompaction(user.id), 'unknown-compaction'); // a message is not a compaction
  assert.equal(h.app.tree.filesTargetOf('nope'), null, 'a read of an unknown entry answers nothing');
});

test('pin refusals are AppOutcome refusals with a reason (#29 item 3: they skipped the shared path)', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A1' });
  await h.app.prompt('first question');
  const user = h.app.snapshot().conversation.find((e) => e.kind === 'user')!;
  assert.equal(accepted(await h.app.tree.pin(user.id, true)), 'pinned');
  refusal(await h.app.tree.pin(user.id, true), 'unchanged', /already pinned/);
  refusal(await h.app.tree.pin('nope', true), 'unknown-entry', /^Unknown entry "nope": it is not in this session\.$/);
  const header = h.app.currentStore!.getEntries().find((e) => e.type !== 'message');
  if (header) refusal(await h.app.tree.pin(header.id, true), 'not-pinnable');
});

test('an unknown model or thinking level is refused, and the settings stay', async () => {
  const h = await appHarness();
  const before = h.app.models.currentKey;
  refusal(await h.app.models.set('nobody/nothing'), 'unknown-model', /Unknown model "nobody\/nothing"/);
  refusal(await h.app.models.setThinkingLevel('extreme'), 'unknown-thinking-level', /Unknown thinking level "extreme"/);
  assert.equal(h.app.models.currentKey, before);
  accepted(await h.app.models.setThinkingLevel('high'));
  assert.equal(h.app.models.currentThinkingLevel, 'high');
});

test('slash commands: an unknown model and nothing to compact are refusals, not errors', async () => {
  const h = await appHarness();
  refusal(await h.app.prompt('/model nobody/nothing'), 'unknown-model');
  h.fake.enqueue({ text: 'A1' });
  await h.app.prompt('hi');
  refusal(await h.app.prompt('/compact'), 'not-compacted', /Nothing to compact|nothing/i);
  assert.ok(!h.logs.some((line) => /failed/.test(line)), `no error logged: ${h.logs.join('\n')}`);
});

test('while the agent works, label and insert summary are refused as busy', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A1' });
  await h.app.prompt('first question');
  const user = h.app.snapshot().conversation.find((e) => e.kind === 'user')!;
  h.fake.enqueue({ text: 'slow reply', delayMs: 400 });
  const running = h.app.prompt('second question');
  await waitUntil(() => h.app.busy);
  refusal(await h.app.tree.label(user.id, 'x'), 'busy', /before labelling/);
  refusal(await h.app.tree.insertBranchSummary(user.id), 'busy', /before inserting a summary/);
  refusal(await h.app.tree.restoreFilesOnly(user.id, new Set()), 'busy', /before restoring files/);
  await running;
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), 'the condition came true');
}
