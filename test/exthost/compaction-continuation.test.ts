// The summary asked as the continuation of the cached conversation (issue 25), in the real extension host:
// with a configured model whose cache reads cost a tenth of its input, Compact Session sends the agent's
// own last request (same system message, same messages) with the instructions as the last user message,
// and the compaction entry holds the model's checkpoint.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

const SUMMARY = [
  '## Goal\nCONTINUATION-SUMMARY: refactor the parser',
  '## Constraints & Preferences\n- (none)',
  '## Progress\n### Done\n- [x] read it\n### In Progress\n- [ ] split it\n### Blocked\n- (none)',
  '## Key Decisions\n- **split**: smaller files',
  '## Next Steps\n1. continue',
  '## Critical Context\n- (none)',
].join('\n\n');

interface WireMessage { role: string; content: unknown }
interface FakeRequest { body: { messages?: WireMessage[] } }

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((p: { type?: string; text?: string }) => (p?.type === 'text' ? p.text ?? '' : '')).join('') : '';
}

const lastUser = (r: FakeRequest) => textOf([...(r.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content);

suite('compaction as a continuation of the cached conversation', () => {
  test('a model with a 0.1× cache read: Compact Session continues the agent request', async () => {
    const api = await activateArbor();
    const config = vscode.workspace.getConfiguration('arbor');
    const models = config.get<Record<string, unknown>[]>('models') ?? [];
    const previous = config.get<string>('model');
    const cached = { ...models[0], id: 'fake-cached', name: 'Fake Cached', pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    await config.update('models', [...models, cached], vscode.ConfigurationTarget.Global);
    try {
      assert.equal(await vscode.commands.executeCommand('arbor.selectModel', 'fake/fake-cached'), true);
      await fakeAdmin('reset', {});
      await api.app.session.newSession();
      // the bulk in the replies: what the user wrote is kept verbatim, so only replies can shrink the context
      const filler = 'the parser reads its tokens '.repeat(150);
      await fakeAdmin('enqueue', [{ text: `ANSWER-ONE ${filler}` }, { text: `ANSWER-TWO ${filler}` }, { text: 'ANSWER-THREE' }]);
      for (const word of ['ONE', 'TWO', 'THREE']) {
        assert.equal((await api.app.prompt(`QUESTION-${word} about the parser and its tokens`)).kind, 'sent');
        await waitFor('the turn to end', () => !api.app.busy);
      }
      const turns = (await fakeAdmin('requests')) as FakeRequest[];
      const agent = turns.at(-1)!;
      await fakeAdmin('rules', [
        { when: { lastUserIncludes: 'Write a recap' }, then: { text: 'We refactored the parser.' } },
        { when: { lastUserIncludes: '<kept-start>' }, then: { text: SUMMARY } },
      ]);
      const outcome = await api.app.compaction.compact();
      assert.equal(outcome.status, 'compacted', JSON.stringify(outcome).slice(0, 300));
      const all = (await fakeAdmin('requests')) as FakeRequest[];
      const summary = all.slice(turns.length).find((r) => lastUser(r).includes('<kept-start>'));
      assert.ok(summary, `a continuation request among ${all.length - turns.length}`);
      const sent = summary.body.messages!;
      const before = agent.body.messages!;
      assert.deepEqual(sent.slice(0, before.length), before, 'the agent request, unchanged, is the prefix');
      assert.equal(textOf(sent[before.length]!.content), 'ANSWER-THREE', 'then the reply it got');
      assert.match(lastUser(summary), /QUESTION-THREE|ANSWER-THREE/, 'the kept part is named');
      const entry = api.app.currentStore!.getBranch().find((e) => e.type === 'compaction') as { summary?: string } | undefined;
      assert.match(entry?.summary ?? '', /CONTINUATION-SUMMARY/);
    } finally {
      await config.update('models', models, vscode.ConfigurationTarget.Global);
      if (previous) await vscode.commands.executeCommand('arbor.selectModel', previous);
    }
  });
});
