// "Compact Up To Here" in the real extension host against the fake provider: a session of real turns
// (one with a tool call), the command run from the Session Tree (entry argument) and from the palette
// (entry picker), then what the summarizer was sent, the compaction entry, the next request's context
// and the file (append-only). Also: Cancel during the summary and a running turn leave the file as it was.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { SessionEntry } from '../../src/session/entries';
import type { ArborApi } from '../../src/vscode/api';
import type { CompactUpToHereOutcome } from '../../src/vscode/commands/compact-up-to-here';
import { activateArbor, fakeAdmin, waitFor } from './helpers';
import { pickLabel, stubWindow } from './surfaces-fixtures';

const COMMAND = 'arbor.compactUpToHere';

const SUMMARY = [
  '## Goal\nCUT-SUMMARY: list the workspace',
  '## Constraints & Preferences\n- (none)',
  '## Progress\n### Done\n- [x] listed\n### In Progress\n- [ ] more\n### Blocked\n- (none)',
  '## Key Decisions\n- **ls**: quick',
  '## Next Steps\n1. continue',
  '## Critical Context\n- (none)',
].join('\n\n');

const PROMPTS = ['EARLY-REQUEST', 'TOOL-REQUEST', 'MIDDLE-REQUEST', 'LATE-REQUEST'];
/** Everything the session holds after the cut (for the snapped cut: from the tool call on). */
const KEPT_MARKERS = ['MIDDLE-REQUEST', 'MIDDLE-ANSWER', 'LATE-REQUEST', 'LATE-ANSWER'];

interface FakeRequest {
  path: string;
  body: { messages?: { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[] };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { type?: string; text?: string }) => (p?.type === 'text' ? p.text ?? '' : '')).join('');
}

/** One line per wire message: role, text, tool call ids / the call a result answers. */
function wire(message: NonNullable<FakeRequest['body']['messages']>[number]): string {
  if (message.role === 'tool') return `tool:${message.tool_call_id}:${textOf(message.content)}`;
  if (message.role === 'assistant') return `assistant:${textOf(message.content ?? '')}:${(message.tool_calls ?? []).map((c) => c.id).join(',')}`;
  return `${message.role}:${textOf(message.content)}`;
}

/** The same projection of a stored entry (what the provider should be sent for it). */
function wireOfEntry(entry: SessionEntry): string {
  if (entry.type !== 'message') throw new Error(`unexpected ${entry.type} in the kept part`);
  const message = entry.message;
  switch (message.role) {
    case 'user':
      return `user:${textOf(message.content)}`;
    case 'assistant':
      return `assistant:${textOf(message.content)}:${message.content.flatMap((c) => (c.type === 'toolCall' ? [c.id] : [])).join(',')}`;
    case 'toolResult':
      return `tool:${message.toolCallId}:${message.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')}`;
    default:
      throw new Error(`unexpected ${message.role} in the kept part`);
  }
}

async function requests(): Promise<FakeRequest[]> {
  return ((await fakeAdmin('requests')) as FakeRequest[]).filter((r) => Array.isArray(r.body?.messages));
}

const lastUserText = (r: FakeRequest) => textOf([...(r.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content);

/** Summary requests (history, turn prefix) get a well-formed checkpoint; the UI recap a sentence. */
async function summaryRules(ttfbMs: number): Promise<void> {
  await fakeAdmin('rules', [
    { when: { lastUserIncludes: 'Write a recap' }, then: { text: 'We listed the workspace.' } },
    { when: { lastUserIncludes: '<conversation>' }, then: { text: SUMMARY, ...(ttfbMs ? { ttfbMs } : {}) } },
  ]);
}

/** A new session of four real turns; the second calls `ls`. Summaries answer from a rule (optionally slowly). */
async function seed(api: ArborApi, summaryTtfbMs = 0) {
  await fakeAdmin('reset', {});
  await summaryRules(summaryTtfbMs);
  await api.app.session.newSession();
  await fakeAdmin('enqueue', [
    // long enough that a summary of the early part shrinks the context (a compaction that would not is refused)
    { text: `EARLY-ANSWER ${'The early answer explains the plan in detail. '.repeat(60)}` },
    { toolCalls: [{ id: 'call_ls', name: 'ls', input: { path: '.' } }] },
    { text: 'TOOL-ANSWER' },
    { text: 'MIDDLE-ANSWER' },
    { text: 'LATE-ANSWER' },
  ]);
  for (const prompt of PROMPTS) assert.equal((await api.app.prompt(prompt)).kind, 'sent', prompt);
  await waitFor('the turns to end', () => !api.app.busy);
  const store = api.app.currentStore!;
  const branch = store.getBranch();
  const find = (what: string, test: (e: SessionEntry) => boolean) => {
    const entry = branch.find(test);
    assert.ok(entry, `${what} in ${JSON.stringify(branch.map((e) => e.type === 'message' ? e.message.role : e.type))}`);
    return entry.id;
  };
  const isRole = (e: SessionEntry, role: string) => e.type === 'message' && e.message.role === role;
  const ids = {
    early: find('first user message', (e) => isRole(e, 'user') && JSON.stringify(e).includes('EARLY-REQUEST')),
    call: find('the ls call', (e) => isRole(e, 'assistant') && JSON.stringify(e).includes('call_ls')),
    result: find('the ls result', (e) => isRole(e, 'toolResult')),
    middle: find('MIDDLE-REQUEST', (e) => isRole(e, 'user') && JSON.stringify(e).includes('MIDDLE-REQUEST')),
  };
  // Only what the compaction and later turns send is logged from here on.
  await fakeAdmin('reset', {});
  await summaryRules(summaryTtfbMs);
  return { store, file: store.file, ids };
}

/** The compaction entries of a session file, and its lines. */
async function fileState(file: string) {
  const bytes = await readFile(file);
  const lines = bytes.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
  return { bytes, lines, compactions: lines.filter((l) => l.type === 'compaction') };
}

/** After a compaction: the next prompt's request is [system, summary, kept entries…, the new prompt]. */
async function assertNextRequest(api: ArborApi, firstKeptEntryId: string) {
  const store = api.app.currentStore!;
  const branch = store.getBranch();
  const compactionIndex = branch.findIndex((e) => e.type === 'compaction');
  const keptFrom = branch.findIndex((e) => e.id === firstKeptEntryId);
  assert.ok(keptFrom >= 0 && keptFrom < compactionIndex);
  const kept = branch.slice(keptFrom, compactionIndex).filter((e) => e.type === 'message').map(wireOfEntry);

  await fakeAdmin('enqueue', { text: 'NEXT-ANSWER' });
  assert.equal((await api.app.prompt('NEXT-REQUEST')).kind, 'sent');
  const next = (await requests()).filter((r) => lastUserText(r) === 'NEXT-REQUEST');
  assert.equal(next.length, 1);
  const messages = next[0]!.body.messages!.filter((m) => m.role !== 'system').map(wire);
  assert.match(messages[0]!, /^user:The conversation history before this point was compacted into the following summary:/);
  assert.ok(messages[0]!.includes('CUT-SUMMARY: list the workspace'), messages[0]);
  assert.deepEqual(messages.slice(1), [...kept, 'user:NEXT-REQUEST']);
}

suite('Compact Up To Here (extension host, fake provider)', () => {
  suiteTeardown(async () => {
    await fakeAdmin('reset', {});
  });

  test('the Session Tree offers it on entries of the active path', async () => {
    const api = await activateArbor();
    const { ids } = await seed(api);
    const extension = vscode.extensions.getExtension('arbor-dev.arbor')!;
    const menus = extension.packageJSON.contributes.menus as Record<string, { command: string; when?: string }[]>;
    const item = menus['view/item/context']!.find((m) => m.command === COMMAND);
    assert.ok(item?.when, 'in the Session Tree context menu');
    const pattern = /viewItem =~ \/(.+?)\//.exec(item.when)![1]!;
    await waitFor('the tree to show the session', () => api.sessionTree.getTreeItem(ids.middle).contextValue !== undefined);
    assert.match(api.sessionTree.getTreeItem(ids.middle).contextValue!, new RegExp(pattern));
    assert.doesNotMatch('arbor.entry role-user notCurrent offPath', new RegExp(pattern), 'not on entries of other branches');
    assert.ok(menus.commandPalette!.some((m) => m.command === COMMAND && m.when === 'arbor.hasSession'), 'in the palette with a session');
  });

  test('on a tool result: snaps back to its call, summarizes only what came before, keeps the rest verbatim', async () => {
    const api = await activateArbor();
    const { file, ids } = await seed(api);
    const before = await fileState(file);
    const ui = stubWindow({ showInputBox: () => '', showQuickPick: pickLabel('Compact Up To Here') });
    let outcome: CompactUpToHereOutcome;
    try {
      outcome = await vscode.commands.executeCommand<CompactUpToHereOutcome>(COMMAND, ids.result);
    } finally {
      ui.restore();
    }
    assert.equal(outcome, 'compacted', JSON.stringify(ui.messages));
    // The preview said where the cut moved, and so did the result.
    const preview = ui.pickers[0]!.options as { placeHolder: string };
    assert.match(preview.placeHolder, /tool result cannot be kept without the tool call/);
    assert.ok(ui.messages.some((m) => m.level === 'info' && /nearest earlier assistant message/.test(m.text)), JSON.stringify(ui.messages));

    const after = await fileState(file);
    assert.equal(after.compactions.length, 1);
    const compaction = after.compactions[0]!;
    assert.equal(compaction.firstKeptEntryId, ids.call, 'snapped to the assistant message with the tool call');
    assert.equal(compaction.details.reason, 'manual-cut');
    // The chat marker says where the cut came from (the reason survives the host → webview mapping).
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat webview handshake', () => api.chatView.stats.handshakes > 0, 30_000);
    const mark = api.chatView.postCount;
    assert.equal(await api.chatView.postConversation(), true);
    const conversation = api.chatView.postsSince(mark).find((p) => p.type === 'conversation');
    const marker = conversation?.type === 'conversation' ? conversation.items.find((i) => i.kind === 'compaction') : undefined;
    assert.equal(marker?.kind === 'compaction' ? marker.reason : undefined, 'manual-cut');
    assert.ok(after.bytes.subarray(0, before.bytes.length).equals(before.bytes), 'nothing removed or rewritten: the file only grew');
    assert.equal(after.lines.length, before.lines.length + 1);

    // The summarizer (history + the split turn's prefix) saw only entries before the cut.
    const summarizer = (await requests()).filter((r) => lastUserText(r).includes('<conversation>'));
    assert.ok(summarizer.length >= 1);
    const sent = summarizer.map(lastUserText).join('\n');
    for (const early of ['EARLY-REQUEST', 'EARLY-ANSWER', 'TOOL-REQUEST']) assert.ok(sent.includes(early), `${early} summarized`);
    for (const kept of ['ls(', 'TOOL-ANSWER', ...KEPT_MARKERS]) assert.ok(!sent.includes(kept), `${kept} must not be summarized`);

    await assertNextRequest(api, ids.call);
  });

  test('from the palette: the picker lists only valid cut points; a cut on a user message keeps exactly from it', async () => {
    const api = await activateArbor();
    const { file, ids, store } = await seed(api);
    const before = await fileState(file);
    const ui = stubWindow({
      showInputBox: () => 'focus on the listing',
      showQuickPick: (items: readonly { label: string; entryId?: string }[]) =>
        items.find((i) => i.entryId === ids.middle) ?? items.find((i) => i.label.includes('Compact Up To Here')),
    });
    let outcome: CompactUpToHereOutcome;
    try {
      outcome = await vscode.commands.executeCommand<CompactUpToHereOutcome>(COMMAND);
    } finally {
      ui.restore();
    }
    assert.equal(outcome, 'compacted', JSON.stringify(ui.messages));
    const offered = (ui.pickers[0]!.items as { entryId: string }[]).map((i) => i.entryId);
    assert.ok(offered.includes(ids.middle) && offered.includes(ids.call));
    assert.ok(!offered.includes(ids.result), 'no tool results');
    assert.ok(!offered.includes(ids.early), 'not the first entry (nothing before it)');
    assert.ok(offered.every((id) => store.getEntry(id)?.type === 'message'));

    const after = await fileState(file);
    assert.equal(after.compactions[0]?.firstKeptEntryId, ids.middle);
    assert.ok(after.bytes.subarray(0, before.bytes.length).equals(before.bytes));
    const summarizer = (await requests()).filter((r) => lastUserText(r).includes('<conversation>'));
    assert.equal(summarizer.length, 1, 'no split turn: one history summary');
    const sent = lastUserText(summarizer[0]!);
    for (const early of ['EARLY-REQUEST', 'EARLY-ANSWER', 'TOOL-REQUEST', 'ls(', 'TOOL-ANSWER']) assert.ok(sent.includes(early), `${early} summarized`);
    for (const kept of KEPT_MARKERS) assert.ok(!sent.includes(kept), `${kept} must not be summarized`);
    assert.match(sent, /focus on the listing/);

    await assertNextRequest(api, ids.middle);
  });

  test('Cancel while the summary is written, and a running turn, leave the file byte-identical', async () => {
    const api = await activateArbor();
    const { file, ids } = await seed(api, 3000);
    const before = await fileState(file);
    const ui = stubWindow({
      showInputBox: () => '',
      showQuickPick: pickLabel('Compact Up To Here'),
      withProgress: async (_options: unknown, task: (progress: unknown, token: vscode.CancellationToken) => Promise<unknown>) => {
        const source = new vscode.CancellationTokenSource();
        void waitFor('the compaction to start', () => api.app.currentAgent?.compacting === true).then(() => source.cancel());
        return task({ report() {} }, source.token);
      },
    });
    try {
      assert.equal(await vscode.commands.executeCommand<CompactUpToHereOutcome>(COMMAND, ids.middle), 'cancelled');
      assert.ok(ui.messages.some((m) => /Compaction cancelled/.test(m.text)), JSON.stringify(ui.messages));
    } finally {
      ui.restore();
    }
    assert.ok((await fileState(file)).bytes.equals(before.bytes), 'cancelled: byte-identical');

    // While a turn runs: refused by the command and by the app, nothing written by either.
    await fakeAdmin('enqueue', { text: 'SLOW-ANSWER', ttfbMs: 2500 });
    const turn = api.app.prompt('SLOW-REQUEST');
    await waitFor('the turn to start', () => api.app.busy);
    const busyUi = stubWindow();
    try {
      assert.equal(await vscode.commands.executeCommand<CompactUpToHereOutcome>(COMMAND, ids.middle), 'refused');
      assert.ok(busyUi.messages.some((m) => m.level === 'warning' && /Wait for the agent to finish/.test(m.text)), JSON.stringify(busyUi.messages));
      assert.equal(busyUi.inputs.length, 0, 'refused before asking anything');
    } finally {
      busyUi.restore();
    }
    await assert.rejects(api.app.compaction.compact(undefined, { keepFrom: ids.middle }), /Wait for the agent to finish/);
    await turn;
    await waitFor('the turn to end', () => !api.app.busy);
    const after = await fileState(file);
    assert.equal(after.compactions.length, 0);
    assert.ok(after.bytes.subarray(0, before.bytes.length).equals(before.bytes));
  });
});
