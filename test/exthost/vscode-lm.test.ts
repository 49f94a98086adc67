// VS Code's Language Model API as an Arbor provider, against a model registered by the test vendor
// extension (test/exthost/lm-vendor): discovery with its context window, tool calls and results through
// the message parts, token counts from the model, the consent refusal, cancellation and compaction.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateArbor, waitFor } from './helpers';
import type { ArborApi } from '../../src/vscode/api';

interface VendorState {
  requests: { texts: string[]; tools: string[]; toolMode?: number }[];
  cancelled: number;
  counted: number;
}

const KEY = 'vscode-lm/arbor-test/arbor-echo';

async function vendor(): Promise<VendorState> {
  const extension = vscode.extensions.getExtension<VendorState>('arbor-test.lm-vendor');
  if (!extension) throw new Error('the test vendor extension is not loaded');
  return extension.activate();
}

async function arborOnEcho(): Promise<ArborApi> {
  const api = await activateArbor();
  await waitFor('the editor model in the picker', () => api.app.models.available().some((m) => m.key === KEY));
  await api.app.models.set(KEY);
  await api.app.session.newSession();
  return api;
}

function assistants(api: ArborApi) {
  return api.app.currentStore!.getBranch().flatMap((e) => (e.type === 'message' && e.message.role === 'assistant' ? [e.message] : []));
}

suite('VS Code language models', () => {
  // The app is shared by every test file in this host: later files get their model back.
  let previousModel = '';
  suiteSetup(async () => {
    const model = (await activateArbor()).app.models.current;
    previousModel = `${model.provider}/${model.id}`;
  });
  suiteTeardown(async () => {
    await (await activateArbor()).app.models.set(previousModel);
  });

  test('the editor model appears in the picker with its vendor and maxInputTokens as context window', async () => {
    await vendor();
    const api = await activateArbor();
    await waitFor('the editor model in the picker', () => api.app.models.available().some((m) => m.key === KEY));
    const model = api.app.models.available().find((m) => m.key === KEY)!;
    assert.equal(model.name, 'Arbor Echo (arbor-test)');
    assert.equal(model.contextWindow, 12345);
  });

  test('a tool call streams back as a part, its result goes back as a ToolResultPart, usage comes from countTokens', async () => {
    const state = await vendor();
    const api = await arborOnEcho();
    const before = state.requests.length;
    await api.app.prompt('PLEASE USE A TOOL');
    await waitFor('the turn to end', () => !api.app.busy);
    const replies = assistants(api);
    assert.equal(replies.length, 2, JSON.stringify(replies.map((r) => r.errorMessage)));
    const call = replies[0]!.content.find((b) => b.type === 'toolCall');
    assert.deepEqual(call && { id: call.id, name: call.name }, { id: 'call-ls-1', name: 'ls' });
    assert.equal(replies[0]!.stopReason, 'toolUse');
    const second = state.requests[before + 1]!;
    assert.ok(second.texts.some((t) => t.startsWith('RESULT(call-ls-1)')), 'the tool result reached the model');
    assert.ok(state.requests[before]!.tools.includes('ls'), 'Arbor offered its tools');
    const final = replies[1]!;
    assert.equal(final.content.find((b) => b.type === 'text')?.text, 'The tool answered.');
    assert.equal(final.usage.output, 'The tool answered.'.length, "output counted by the model's countTokens (1 token per char here)");
    assert.ok(final.usage.input > 100, 'input counted too');
    assert.equal(final.provider, 'vscode-lm');
  });

  test('NoPermissions from the editor ends the reply with a message that says how to allow access', async () => {
    await vendor();
    const api = await arborOnEcho();
    await api.app.prompt('PLEASE DENY');
    await waitFor('the turn to end', () => !api.app.busy);
    const reply = assistants(api).at(-1)!;
    assert.equal(reply.stopReason, 'error');
    assert.match(reply.errorMessage ?? '', /has not allowed Arbor to use Arbor Echo \(arbor-test\) yet.*"Allow"/);
  });

  test('stop cancels the editor request', async () => {
    const state = await vendor();
    const api = await arborOnEcho();
    const cancelled = state.cancelled;
    const before = state.requests.length;
    const turn = api.app.prompt('PLEASE BE SLOW');
    await waitFor('the request to reach the vendor', () => state.requests.length > before);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await api.app.stop();
    await turn;
    await waitFor('the vendor to see the cancellation', () => state.cancelled > cancelled, 5000);
    assert.equal(assistants(api).at(-1)!.stopReason, 'aborted');
  });

  test('compaction summarises through the editor model', async () => {
    const state = await vendor();
    const api = await arborOnEcho();
    // a first reply long enough that its summary shrinks the context (a compaction that would not is refused;
    // what the user wrote is kept verbatim, so only replies can shrink it)
    await api.app.prompt('first question, PLEASE BE LONG');
    await api.app.prompt('second question');
    const before = state.requests.length;
    const outcome = await api.app.compaction.compact();
    assert.ok(state.requests.length > before, 'the summary request went to the editor model');
    const compaction = api.app.currentStore!.getBranch().find((e) => e.type === 'compaction');
    assert.ok(compaction, `a compaction entry was written (${JSON.stringify(outcome).slice(0, 300)})`);
  });

  test('a branch summary is written by the editor model when switching branches', async () => {
    const state = await vendor();
    const api = await arborOnEcho();
    await api.app.prompt('branch one question');
    const first = api.app.snapshot().conversation[0]!;
    await api.app.prompt('more on branch one');
    const before = state.requests.length;
    const result = await api.app.tree.navigate(first.id, { summarize: true });
    assert.ok(state.requests.length > before, 'the summary request went to the editor model');
    const summary = api.app.currentStore!.getBranch().find((e) => e.type === 'branch_summary');
    assert.ok(summary, `a branch summary entry was written (${JSON.stringify(result).slice(0, 300)})`);
  });
});
