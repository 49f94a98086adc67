import { test } from 'node:test';
import assert from 'node:assert/strict';
import { navigateTree } from '../../../src/branch/navigate';
import { TreeNavigationHookRegistry, type AfterNavigationEvent, type BeforeTreeNavigationEvent } from '../../../src/branch/hooks';
import { BranchSummaryFailed, LeafMovedDuringSummary, NoSummarizerModel, UnknownNavigationTarget } from '../../../src/branch/errors';
import { loadTemplate } from '../../../src/core/prompts';
import { InMemoryLeafMemory } from '../../../src/session/leaf-memory';
import type { BranchSummaryEntry } from '../../../src/session/entries';
import { TreeSession, call } from './helpers';
import { sentPrompt, summarizer, waitForRequests } from './llm';
import { useFakeLlm } from '../llm/helpers';

const fakeLlm = useFakeLlm();

const PREAMBLE = loadTemplate('branch/branch-summary-preamble').trimEnd();

/** U1 ─ A1 ─ U2 ─ A2(edit x.ts) (old leaf), and U1 ─ A1 ─ V2 ─ B2 */
async function scene(leafMemory?: InMemoryLeafMemory) {
  const t = await TreeSession.create(leafMemory);
  const U1 = await t.user('first question');
  const A1 = await t.assistant('first answer');
  const V2 = await t.user('other direction');
  const B2 = await t.assistant('other answer');
  t.at(A1);
  const U2 = await t.user('try approach one');
  const A2 = await t.assistant('tried it', [call('edit', { path: 'x.ts' })]);
  return { t, U1, A1, V2, B2, U2, A2 };
}

async function run(body: (s: Awaited<ReturnType<typeof scene>>) => Promise<void>, leafMemory?: InMemoryLeafMemory) {
  const s = await scene(leafMemory);
  try {
    await body(s);
  } finally {
    await s.t.dispose();
  }
}

test('same leaf is a no-op; an unknown target is an error; neither writes', () =>
  run(async ({ t, A2 }) => {
    const before = await t.bytes();
    assert.deepEqual(await navigateTree(t.store, A2), { cancelled: false, newLeafId: A2, oldLeafId: A2 });
    await assert.rejects(navigateTree(t.store, 'nope'), UnknownNavigationTarget);
    assert.equal(t.store.getLeafId(), A2);
    assert.deepEqual(await t.bytes(), before);
  }));

test('a non-user target becomes the leaf; nothing is written without summary or label', () =>
  run(async ({ t, A2, B2 }) => {
    const before = await t.bytes();
    const result = await navigateTree(t.store, B2);
    assert.deepEqual(result, { cancelled: false, newLeafId: B2, oldLeafId: A2 });
    assert.equal(t.store.getLeafId(), B2);
    assert.deepEqual(await t.bytes(), before);
    assert.deepEqual(t.store.buildContext().messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  }));

test('edit and resend: a user target moves to its parent and returns its text; resending makes a sibling', () =>
  run(async ({ t, A1, U2, A2 }) => {
    const result = await navigateTree(t.store, U2);
    assert.equal(result.editorText, 'try approach one');
    assert.equal(result.newLeafId, A1);
    assert.equal(t.store.getLeafId(), A1);
    const resent = await t.user('try approach one, edited');
    assert.equal(t.store.getEntry(resent)!.parentId, A1);
    assert.ok(t.store.getEntry(A2), 'the old branch is kept');
    assert.equal(t.store.getChildren(A1).length, 3);
  }));

test('edit and resend of the root user message resets the leaf (empty conversation)', () =>
  run(async ({ t, U1 }) => {
    const result = await navigateTree(t.store, U1);
    assert.equal(result.editorText, 'first question');
    assert.equal(result.newLeafId, null);
    assert.equal(t.store.getLeafId(), null);
    assert.deepEqual(t.store.buildContext().messages, []);
    const resent = await t.user('first question, again');
    assert.equal(t.store.getEntry(resent)!.parentId, null);
  }));

test('a custom_message target behaves like a user message', () =>
  run(async ({ t, A2 }) => {
    const c = await t.custom('injected instruction');
    t.at(A2);
    const result = await navigateTree(t.store, c);
    assert.equal(result.editorText, 'injected instruction');
    assert.equal(t.store.getLeafId(), A2);
  }));

test('summarize: the summary is generated before moving and attached at the new position', () =>
  run(async ({ t, A1, U2, A2, B2 }) => {
    fakeLlm().enqueue({ text: '## Goal\nApproach one.' });
    const result = await navigateTree(t.store, B2, { summarize: true }, { summarizer: summarizer(fakeLlm()) });
    assert.equal(result.cancelled, false);
    const entry = result.summaryEntry!;
    assert.equal(entry.type, 'branch_summary');
    assert.equal(entry.parentId, B2);
    assert.equal(entry.fromId, B2);
    assert.equal(entry.fromHook, undefined);
    assert.ok(entry.summary.startsWith(`${PREAMBLE}\n\n## Goal\nApproach one.`));
    assert.ok(entry.summary.endsWith('<modified-files>\nx.ts\n</modified-files>'));
    const details = entry.details as { readFiles: string[]; modifiedFiles: string[]; summarizer?: unknown; cost?: { calls: number; input: number } };
    assert.deepEqual({ readFiles: details.readFiles, modifiedFiles: details.modifiedFiles }, { readFiles: [], modifiedFiles: ['x.ts'] });
    // the marker's figures (issue 17): who wrote the summary and what its call cost, saved in the entry
    assert.deepEqual(details.summarizer, { provider: 'openai', id: 'fake-gpt' });
    assert.equal(details.cost?.calls, 1);
    assert.ok((details.cost?.input ?? 0) > 0);
    assert.equal(t.store.getLeafId(), entry.id);
    assert.equal(result.newLeafId, entry.id);
    const { user } = sentPrompt(fakeLlm().requests[0]!);
    assert.ok(user.includes('try approach one') && !user.includes('first question'), 'only the abandoned part is sent');
    const context = t.store.buildContext().messages;
    assert.equal(context[context.length - 1]!.role, 'branchSummary');
    assert.ok(t.store.getEntry(A2) && t.store.getEntry(U2) && t.store.getEntry(A1), 'old branch intact');
  }));

test('summarize onto a user target attaches under its parent; at the root it becomes a new root', () =>
  run(async ({ t, A1, V2, U1 }) => {
    fakeLlm().enqueue({ text: 'one' }, { text: 'two' });
    const first = await navigateTree(t.store, V2, { summarize: true }, { summarizer: summarizer(fakeLlm()) });
    assert.equal(first.summaryEntry!.parentId, A1);
    assert.equal(first.editorText, 'other direction');
    const second = await navigateTree(t.store, U1, { summarize: true }, { summarizer: summarizer(fakeLlm()) });
    assert.equal(second.summaryEntry!.parentId, null);
    assert.equal(second.summaryEntry!.fromId, 'root');
    assert.equal(second.editorText, 'first question');
  }));

test('summarize with nothing abandoned (moving down) navigates without a summary and without a model call', () =>
  run(async ({ t, A1, A2 }) => {
    t.at(A1);
    const result = await navigateTree(t.store, A2, { summarize: true }, { summarizer: summarizer(fakeLlm()) });
    assert.equal(result.summaryEntry, undefined);
    assert.equal(t.store.getLeafId(), A2);
    assert.equal(fakeLlm().requests.length, 0);
  }));

test('summarize without a model (and no hook summary) fails before anything is written', () =>
  run(async ({ t, A2, B2 }) => {
    const before = await t.bytes();
    await assert.rejects(navigateTree(t.store, B2, { summarize: true }), NoSummarizerModel);
    assert.equal(t.store.getLeafId(), A2);
    assert.deepEqual(await t.bytes(), before);
  }));

test('cancel while the model hangs: file byte-identical, leaf unchanged, cancelled result', () =>
  run(async ({ t, A2, B2 }) => {
    const before = await t.bytes();
    fakeLlm().enqueue({ text: 'this never completes', chunkSize: 2, hangAfterChunks: 1 });
    const controller = new AbortController();
    const pending = navigateTree(t.store, B2, { summarize: true, signal: controller.signal }, { summarizer: summarizer(fakeLlm()) });
    await waitForRequests(fakeLlm(), 1);
    controller.abort();
    const result = await pending;
    assert.equal(result.cancelled, true);
    assert.equal(result.aborted, true);
    assert.equal(result.message, 'Branch summarization cancelled');
    assert.equal(result.newLeafId, A2);
    assert.equal(t.store.getLeafId(), A2);
    assert.deepEqual(await t.bytes(), before);
  }));

test('a failed summary throws "Branch summarization failed" and leaves the store as it was', () =>
  run(async ({ t, A2, B2 }) => {
    const before = await t.bytes();
    fakeLlm().enqueue({ error: { kind: 'server', status: 400, message: 'bad request body', shouldRetry: false } });
    await assert.rejects(
      navigateTree(t.store, B2, { summarize: true }, { summarizer: summarizer(fakeLlm()) }),
      (error: unknown) => error instanceof BranchSummaryFailed && /^Branch summarization failed: /.test((error as Error).message),
    );
    assert.equal(t.store.getLeafId(), A2);
    assert.deepEqual(await t.bytes(), before);
  }));

test('label: set on the target (the label entry is appended at the new position)', () =>
  run(async ({ t, B2 }) => {
    await navigateTree(t.store, B2, { label: '  checkpoint  ' });
    assert.equal(t.store.getLabel(B2), 'checkpoint');
    const leaf = t.store.getLeafEntry()!;
    assert.equal(leaf.type, 'label');
    assert.equal(leaf.parentId, B2);
  }));

test('label with summary: the summary entry is labelled (as pi does), not the target', () =>
  run(async ({ t, B2 }) => {
    fakeLlm().enqueue({ text: 'summary' });
    const result = await navigateTree(t.store, B2, { summarize: true, label: 'after summary' }, { summarizer: summarizer(fakeLlm()) });
    assert.equal(t.store.getLabel(result.summaryEntry!.id), 'after summary');
    assert.equal(t.store.getLabel(B2), undefined);
    assert.equal(t.store.getLeafEntry()!.parentId, result.summaryEntry!.id);
  }));

test('hooks: before-tree-navigation can cancel; nothing is written and after-navigation does not fire', () =>
  run(async ({ t, A2, B2 }) => {
    const hooks = new TreeNavigationHookRegistry();
    const after: AfterNavigationEvent[] = [];
    let seen: BeforeTreeNavigationEvent | undefined;
    hooks.register({
      beforeTreeNavigation: (event) => {
        seen = event;
        return { cancel: true };
      },
      afterNavigation: (event) => void after.push(event),
    });
    const before = await t.bytes();
    const result = await navigateTree(t.store, B2, { summarize: true, customInstructions: 'focus' }, { summarizer: summarizer(fakeLlm()), hooks });
    assert.equal(result.cancelled, true);
    assert.equal(result.message, 'Navigation cancelled');
    assert.equal(t.store.getLeafId(), A2);
    assert.deepEqual(await t.bytes(), before);
    assert.equal(fakeLlm().requests.length, 0);
    assert.equal(after.length, 0);
    assert.equal(seen!.preparation.targetId, B2);
    assert.equal(seen!.preparation.oldLeafId, A2);
    assert.equal(seen!.preparation.userWantsSummary, true);
    assert.equal(seen!.preparation.customInstructions, 'focus');
    assert.deepEqual(seen!.preparation.entriesToSummarize.map((e) => e.id).slice(-1), [A2]);
    assert.ok(seen!.signal instanceof AbortSignal);
  }));

test('hooks: a provided summary is used (fromHook, no model call) and after-navigation gets the entry', () =>
  run(async ({ t, A2, B2 }) => {
    const hooks = new TreeNavigationHookRegistry();
    const after: AfterNavigationEvent[] = [];
    hooks.register({
      beforeTreeNavigation: () => ({ summary: { summary: 'from the hook', details: { custom: 1 } } }),
      afterNavigation: (event) => void after.push(event),
    });
    const result = await navigateTree(t.store, B2, { summarize: true }, { summarizer: summarizer(fakeLlm()), hooks });
    assert.equal(fakeLlm().requests.length, 0);
    const entry = result.summaryEntry as BranchSummaryEntry;
    assert.equal(entry.summary, 'from the hook');
    assert.equal(entry.fromHook, true);
    assert.deepEqual(entry.details, { custom: 1 });
    assert.equal(after.length, 1);
    assert.deepEqual(after[0], { newLeafId: entry.id, oldLeafId: A2, summaryEntry: entry, fromHook: true });
  }));

test('hooks: a provided summary is ignored when the user did not ask for one', () =>
  run(async ({ t, B2 }) => {
    const hooks = new TreeNavigationHookRegistry();
    hooks.register({ beforeTreeNavigation: () => ({ summary: { summary: 'unwanted' } }) });
    const result = await navigateTree(t.store, B2, {}, { hooks });
    assert.equal(result.summaryEntry, undefined);
    assert.equal(t.store.getLeafId(), B2);
  }));

test('hooks: a throwing hook is logged and never breaks navigation; overrides from later hooks apply', () =>
  run(async ({ t, B2 }) => {
    const logs: string[] = [];
    const hooks = new TreeNavigationHookRegistry((m) => logs.push(m));
    const after: AfterNavigationEvent[] = [];
    hooks.register({
      beforeTreeNavigation: () => {
        throw new Error('hook exploded');
      },
      afterNavigation: async () => {
        throw new Error('after exploded');
      },
    });
    hooks.register({
      beforeTreeNavigation: () => ({ customInstructions: 'hook focus' }),
      afterNavigation: (event) => void after.push(event),
    });
    fakeLlm().enqueue({ text: 'summary' });
    const result = await navigateTree(t.store, B2, { summarize: true }, { summarizer: summarizer(fakeLlm()), hooks });
    assert.equal(result.cancelled, false);
    assert.ok(result.summaryEntry);
    assert.ok(sentPrompt(fakeLlm().requests[0]!).user.endsWith('Additional focus: hook focus'));
    assert.equal(after.length, 1, 'the second hook still ran');
    assert.ok(logs.some((l) => l.includes('beforeTreeNavigation failed: hook exploded')));
    assert.ok(logs.some((l) => l.includes('afterNavigation failed: after exploded')));
  }));

test('the new position survives a reload (leaf memory)', async () => {
  const memory = new InMemoryLeafMemory();
  await run(async ({ t, U2, A1 }) => {
    await navigateTree(t.store, U2);
    await new Promise((r) => setTimeout(r, 10));
    const reopened = await t.reopen(memory);
    assert.equal(reopened.getLeafId(), A1);
  }, memory);
});

test('if the conversation moves on while summarizing, nothing is written and the caller is told', () =>
  run(async ({ t, B2 }) => {
    fakeLlm().enqueue({ text: 'a slow summary of the branch', chunkSize: 3, delayMs: 40 });
    const pending = navigateTree(t.store, B2, { summarize: true }, { summarizer: summarizer(fakeLlm()) });
    await waitForRequests(fakeLlm(), 1);
    const appended = await t.user('typed meanwhile');
    await assert.rejects(pending, LeafMovedDuringSummary);
    assert.equal(t.store.getLeafId(), appended);
    assert.ok(!t.store.getEntries().some((e) => e.type === 'branch_summary'));
  }));
