import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../webview/markdown-render';

test('task list items in a summary show a checkbox, not "[x]" (issue 25)', () => {
  const html = renderMarkdown('### Done\n- [x] Ran `ls`\n\n### In Progress\n- [ ] Write the tests\n- plain item');
  assert.doesNotMatch(html, /\[x\]|\[ \]/);
  assert.match(html, /<li class="task-item"><input type="checkbox" class="task-box" disabled checked aria-label="Done"> Ran <code>ls<\/code><\/li>/);
  assert.match(html, /<input type="checkbox" class="task-box" disabled aria-label="Not done"> Write the tests/);
  assert.match(html, /<li>plain item<\/li>/);
});

test('raw HTML stays text, also in a task item; brackets elsewhere are kept', () => {
  const html = renderMarkdown('- [x] <img src=x onerror=alert(1)>\n\nsee [x] here');
  assert.doesNotMatch(html, /<img/);
  assert.match(html, /&lt;img/);
  assert.match(html, /see \[x\] here/);
});
