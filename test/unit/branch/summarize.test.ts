import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateBranchSummary, branchTokenBudget } from '../../../src/branch/summarize';
import { BranchSummaryCancelled, BranchSummaryFailed } from '../../../src/branch/errors';
import { loadTemplate } from '../../../src/core/prompts';
import type { SessionEntry } from '../../../src/session/entries';
import { TreeSession, call, chars } from './helpers';
import { sentPrompt, summarizer, waitForRequests } from './llm';
import { useFakeLlm } from '../llm/helpers';

const fakeLlm = useFakeLlm();

const PREAMBLE = loadTemplate('branch/branch-summary-preamble').trimEnd();
const BRANCH_PROMPT = loadTemplate('branch/branch-summary').trimEnd();
const SYSTEM = loadTemplate('compaction/system').trimEnd();
const MODEL_ANSWER = '## Goal\nTry the parser rewrite.\n\n## Next Steps\n1. Finish it.';

async function abandonedBranch(t: TreeSession): Promise<SessionEntry[]> {
  const ids = [
    await t.user('Rewrite the parser in src/parse.ts'),
    await t.assistant('Reading it first.', [call('read', { path: 'src/parse.ts' })]),
    await t.toolResult('SECRET-TOOL-OUTPUT export function parse() {}'),
    await t.assistant('Rewritten.', [call('edit', { path: 'src/parse.ts' }), call('read', { path: 'src/lex.ts' })]),
  ];
  return ids.map((id) => t.store.getEntry(id)!);
}

test('the request holds the serialized branch in <conversation>, our prompt and the summarizer system prompt', async () => {
  const t = await TreeSession.create();
  try {
    const entries = await abandonedBranch(t);
    fakeLlm().enqueue({ text: MODEL_ANSWER });
    const result = await generateBranchSummary(entries, summarizer(fakeLlm()));
    assert.equal(fakeLlm().requests.length, 1);
    const { system, user } = sentPrompt(fakeLlm().requests[0]!);
    assert.equal(system, SYSTEM);
    assert.ok(user.startsWith('<conversation>\n[User]: Rewrite the parser in src/parse.ts'), user);
    assert.ok(user.includes('[Assistant tool calls]: edit(path="src/parse.ts"); read(path="src/lex.ts")'));
    assert.ok(!user.includes('SECRET-TOOL-OUTPUT'), 'tool results are not sent');
    assert.ok(user.endsWith(`</conversation>\n\n${BRANCH_PROMPT}`));
    assert.ok(!user.includes('Additional focus'));
    for (const heading of ['## Goal', '## Constraints & Preferences', '### Done', '### In Progress', '### Blocked', '## Key Decisions', '## Next Steps']) {
      assert.ok(user.includes(heading), `prompt asks for ${heading}`);
    }
    assert.equal(
      result.summary,
      `${PREAMBLE}\n\n${MODEL_ANSWER}\n\n<read-files>\nsrc/lex.ts\n</read-files>\n\n<modified-files>\nsrc/parse.ts\n</modified-files>`,
    );
    const { summarizer: writer, cost, ...lists } = result.details;
    assert.deepEqual(lists, { readFiles: ['src/lex.ts'], modifiedFiles: ['src/parse.ts'] });
    assert.deepEqual(writer, { provider: 'openai', id: 'fake-gpt' });
    assert.equal(cost?.calls, 1);
  } finally {
    await t.dispose();
  }
});

test('custom instructions add focus after our prompt, or replace it', async () => {
  const t = await TreeSession.create();
  try {
    const entries = await abandonedBranch(t);
    fakeLlm().enqueue({ text: MODEL_ANSWER }, { text: 'Only the lexer matters.' });
    await generateBranchSummary(entries, { ...summarizer(fakeLlm()), customInstructions: 'the lexer changes' });
    const added = sentPrompt(fakeLlm().requests[0]!).user;
    assert.ok(added.endsWith(`${BRANCH_PROMPT}\n\nAdditional focus: the lexer changes`), added.slice(-300));

    const replaced = await generateBranchSummary(entries, { ...summarizer(fakeLlm()), customInstructions: 'List the lexer changes only.', replaceInstructions: true });
    const user = sentPrompt(fakeLlm().requests[1]!).user;
    assert.ok(user.endsWith('</conversation>\n\nList the lexer changes only.'), user.slice(-200));
    assert.ok(!user.includes('## Goal'), 'our prompt is gone');
    assert.ok(replaced.summary.startsWith(`${PREAMBLE}\n\nOnly the lexer matters.`));
  } finally {
    await t.dispose();
  }
});

test('the budget is the context window minus reserveTokens: older messages are left out', async () => {
  const t = await TreeSession.create();
  try {
    const old = await t.user(`OLDEST ${chars(3000)}`);
    const recent = await t.user(`RECENT ${chars(500)}`);
    fakeLlm().enqueue({ text: MODEL_ANSWER });
    const deps = summarizer(fakeLlm(), { contextWindow: 4000 }, 2000);
    assert.equal(branchTokenBudget(deps.model, deps.reserveTokens), 2000);
    const result = await generateBranchSummary([t.store.getEntry(old)!, t.store.getEntry(recent)!], deps);
    assert.deepEqual(result.includedEntryIds, [recent]);
    const { user } = sentPrompt(fakeLlm().requests[0]!);
    assert.ok(user.includes('RECENT') && !user.includes('OLDEST'));
  } finally {
    await t.dispose();
  }
});

test('a provider error becomes "Branch summarization failed: …"', async () => {
  const t = await TreeSession.create();
  try {
    const entries = await abandonedBranch(t);
    fakeLlm().enqueue({ error: { kind: 'auth', message: 'Incorrect API key provided' } });
    await assert.rejects(generateBranchSummary(entries, summarizer(fakeLlm())), (error: unknown) => {
      assert.ok(error instanceof BranchSummaryFailed);
      assert.match((error as Error).message, /^Branch summarization failed: .*Incorrect API key/);
      return true;
    });
  } finally {
    await t.dispose();
  }
});

test('aborting while the model hangs rejects with BranchSummaryCancelled', async () => {
  const t = await TreeSession.create();
  try {
    const entries = await abandonedBranch(t);
    fakeLlm().enqueue({ text: 'never finishes', chunkSize: 2, hangAfterChunks: 1 });
    const controller = new AbortController();
    const pending = generateBranchSummary(entries, { ...summarizer(fakeLlm()), signal: controller.signal });
    await waitForRequests(fakeLlm(), 1);
    controller.abort();
    await assert.rejects(pending, (error: unknown) => error instanceof BranchSummaryCancelled && /cancelled/.test((error as Error).message));
  } finally {
    await t.dispose();
  }
});

test('a branch without messages is not sent to the model', async () => {
  const t = await TreeSession.create();
  try {
    const u = await t.user('x');
    const r = await t.toolResult('only output');
    const result = await generateBranchSummary([t.store.getEntry(r)!], summarizer(fakeLlm()));
    assert.equal(fakeLlm().requests.length, 0);
    assert.ok(result.summary.startsWith(PREAMBLE));
    assert.ok(result.summary.includes(loadTemplate('branch/no-content').trimEnd()));
    assert.ok(u);
  } finally {
    await t.dispose();
  }
});
