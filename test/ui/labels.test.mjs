// Issue #28 item 3.6 in the real workbench (fake LLM, a pre-written session): the Session Tree's labels and
// Search Sessions' results are plain text, with no Markdown marks (`*…*`, backticks) and no tool JSON
// (`write({"path"…})`: a tool call reads "write README.md"), and two branch summaries get different
// labels. Screenshots: test-results/labels-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandPane, openSessionFromList, screenshot, sidebarPane } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-labels-'));
const { at, user, assistant, toolResult } = seedEntries('2025-03-01T09:00:00.000Z');
const summary = (id, parentId, goal) => ({
  type: 'branch_summary', id, parentId, timestamp: at(), fromId: 'a1',
  summary: `## Goal\n${goal}\n\n## Progress\n- [x] Looked at the \`inventory\``,
});
const entries = [
  user('u1', null, 'Create hello.txt'),
  assistant('a1', 'u1', "*Arbor Demo (offline): a scripted stand-in.*\n\nI'll create `hello.txt`."),
  user('u2', 'a1', 'Now write the readme'),
  assistant('a2', 'u2', [{ type: 'toolCall', id: 'call1', name: 'write', arguments: { path: 'README.md', content: 'Hello from Arbor Demo.\n' } }], { stopReason: 'toolUse' }),
  toolResult('t2', 'a2', 'call1', 'write', 'Wrote README.md'),
  summary('b1', 't2', 'Try a **refactor** of the payment step.'),
  user('u3', 'b1', 'Keep going'),
  assistant('a3', 'u3', 'Run **`npm test`** in `src/` next.'),
  summary('b2', 'a3', 'Add the `stock` report.'),
  user('u4', 'b2', 'And finish'),
  assistant('a4', 'u4', 'Finished the *stock* report.'),
];
const header = { type: 'session', version: 3, id: 'ui-labels', timestamp: at(), cwd: sessionsDir };
writeFileSync(join(sessionsDir, '2025-03-01T09-00-00-000Z_ui-labels.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

const { wb } = useFakeLlmWorkbench('labels', { sessionsDir });
const RAW = /[*`]|\(\{|"path"/;

wb.test('Session Tree labels are plain text; two branch summaries differ', async (page) => {
  await openSessionFromList(page, 'Create hello.txt', 'a4');
  await expandPane(page, 'Session Tree');
  // the chat folded away, so the tree has the room to show every row (a list only renders the rows in view)
  for (const pane of ['Chat', 'Sessions']) {
    await sidebarPane(page, pane).locator('.pane-header').click();
    await sidebarPane(page, pane).locator('.pane-header[aria-expanded="false"]').waitFor();
  }
  const tree = sidebarPane(page, 'Session Tree');
  await tree.locator('.monaco-list-row', { hasText: 'Finished the' }).first().waitFor({ timeout: 20_000 });
  const labels = await tree.locator('.monaco-list-row .label-name').allInnerTexts();
  console.log(`# Session Tree labels: ${JSON.stringify(labels)}`);
  await screenshot(page, 'labels-session-tree');
  await expandPane(page, 'Chat');
  assert.deepEqual(labels.filter((l) => RAW.test(l)), [], 'no Markdown marks or tool JSON in a label');
  assert.ok(labels.includes('write README.md'), 'the tool call reads "write README.md"');
  const summaries = labels.filter((l) => /^Branch summary/.test(l));
  assert.equal(summaries.length, 2);
  assert.notEqual(summaries[0], summaries[1], 'the two branch summaries have different labels');
});

wb.test('Search Sessions shows plain snippets', async (page) => {
  await page.keyboard.press('F1');
  const quick = page.locator('.quick-input-widget');
  const box = quick.locator('.quick-input-box input');
  await box.fill('>Arbor: Search Sessions');
  await quick.locator('.monaco-list-row', { hasText: 'Search Sessions' }).first().waitFor({ timeout: 5000 });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.querySelector('.quick-input-widget .quick-input-box input')?.value.startsWith('>'), null, { timeout: 10_000 });
  await box.fill('stock');
  const rows = quick.locator('.monaco-list-row', { hasText: 'report' });
  await rows.first().waitFor({ timeout: 20_000 });
  const labels = await quick.locator('.monaco-list-row .label-name').allInnerTexts();
  console.log(`# search result labels: ${JSON.stringify(labels)}`);
  await screenshot(page, 'labels-search');
  assert.ok(labels.length >= 2, 'hits for "stock"');
  assert.deepEqual(labels.filter((l) => RAW.test(l)), [], 'no Markdown marks in a snippet');
  await page.keyboard.press('Escape');
});
