// What the editor's entry points put into the chat: quoted selections whose fence cannot be closed by the code,
// @-mentions only for paths a mention can carry, the fix prompt filled from its template, the draft joining.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixPrompt, mentionOf, quoteSpan } from '../../../src/app/editor-context';
import { appendToDraft } from '../../../webview/draft-text';

test('a selection is quoted with its path and range, in a fence longer than any backtick run inside', () => {
  const span = { path: 'docs/readme.md', startLine: 4, endLine: 6, languageId: 'markdown', text: 'Run:\n```sh\nnpm test\n```' };
  assert.equal(quoteSpan(span), '`docs/readme.md` (lines 4-6):\n````markdown\nRun:\n```sh\nnpm test\n```\n````');
  assert.equal(quoteSpan({ ...span, endLine: 4, text: 'x\n', languageId: 'weird id"' }), '`docs/readme.md` (line 4):\n```\nx\n```');
});

test('a path becomes an @-mention only when a mention can carry it', () => {
  assert.equal(mentionOf('src/app.ts'), '@src/app.ts');
  assert.equal(mentionOf('my notes/todo.md'), undefined);
  assert.equal(mentionOf('a"b.ts'), undefined);
});

test('the fix prompt names the problem, where it is and the code around it', () => {
  const prompt = fixPrompt({
    span: { path: 'src/total.ts', startLine: 1, endLine: 3, languageId: 'typescript', text: 'let a = 1;\nlet b = c;\n' },
    line: 2,
    severity: 'warning',
    message: "Cannot find\n   name 'c'.",
    source: 'ts',
    code: '2304',
  });
  assert.match(prompt, /^Fix this problem that VS Code reports in `src\/total\.ts` at line 2:/);
  assert.match(prompt, /> Warning: Cannot find name 'c'\. \(ts 2304\)/);
  assert.match(prompt, /lines 1–3\):\n\n```typescript\nlet a = 1;\nlet b = c;\n```/);
  assert.doesNotMatch(prompt, /\{\{/);
  assert.match(fixPrompt({ span: { path: 'a', startLine: 1, endLine: 1, languageId: 'c', text: 'x' }, line: 1, severity: 'error', message: 'bad' }), /> Error: bad\n/);
});

test('added text joins the draft on a new paragraph, alone in an empty draft', () => {
  assert.equal(appendToDraft('', 'quoted'), 'quoted');
  assert.equal(appendToDraft('  \n', 'quoted'), 'quoted');
  assert.equal(appendToDraft('Explain this:  \n', 'quoted'), 'Explain this:\n\nquoted');
});
