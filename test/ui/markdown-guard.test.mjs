// A message too large for Markdown (issue #24): a seeded session whose reply holds a 5,000-column table
// (about 1 MB) and whose next reply holds a 100-column table. Both show as plain text under the note and
// "Show as Markdown" at once (the chat stays usable: the composer takes text); clicking the button on the
// 100-column one renders its table in place. Screenshots at the default 300 px side bar in dark, light and
// high-contrast themes, and in a wide editor tab.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clickMenuItem, expandPane, openSessionFromList, runCommand, screenshot, setColorTheme, sidebarPane } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-markdown-guard-'));
const { at, user, assistant } = seedEntries('2025-03-01T09:00:00.000Z');

function table(columns, rows) {
  const line = (cell) => `|${Array.from({ length: columns }, (_, i) => cell(i)).join('|')}|`;
  return [line((i) => `c${i}`), line(() => '---'), ...Array.from({ length: rows }, (_, r) => line((i) => `${r}.${i}`))].join('\n');
}

const header = { type: 'session', version: 3, id: 'ui-markdown-guard', timestamp: at(), cwd: sessionsDir };
const entries = [
  user('u1', null, 'Dump the whole spreadsheet as a table'),
  assistant('a1', 'u1', `Here it is:\n\n${table(5000, 20)}`),
  user('u2', 'a1', 'Now only the first hundred columns'),
  assistant('a2', 'u2', `Here they are:\n\n${table(100, 3)}`),
];
writeFileSync(join(sessionsDir, '2025-03-01T09-00-00-000Z_ui-markdown-guard.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

const { wb } = useFakeLlmWorkbench('markdown-guard', { sessionsDir });

wb.test('a reply with a 5,000-column table shows as plain text with "Show as Markdown"; the button renders a table', async (page) => {
  const chat = await openSessionFromList(page, 'Dump the whole spreadsheet', 'a2');
  // the list renders the rows in view: scroll to the top, where the huge reply is
  await chat.locator('#conversation').evaluate((s) => { s.scrollTop = 0; });
  const huge = chat.locator('[data-entry="a1"] .markdown');
  await huge.locator('.markdown-guard-note').waitFor({ timeout: 30_000 });
  await screenshot(page, 'markdown-guard-top-dark');
  assert.equal(await huge.locator('button[data-action="showMarkdown"]').innerText(), 'Show as Markdown');
  assert.match(await huge.locator('.markdown-guard-note').innerText(), /plain text/);
  assert.equal(await huge.locator('table').count(), 0, 'the huge table was not rendered');
  assert.match(await huge.locator('.plain-markdown').innerText(), /^Here it is:/);
  // the chat stays usable
  const input = chat.locator('textarea').first();
  await input.fill('still typing');
  assert.equal(await input.inputValue(), 'still typing');
  await input.fill('');
  await chat.locator('#conversation').evaluate((s) => { s.scrollTop = s.scrollHeight; });
  const wide = chat.locator('[data-entry="a2"] .markdown');
  await wide.locator('.markdown-guard-note').scrollIntoViewIfNeeded();
  await screenshot(page, 'markdown-guard-dark');

  await wide.locator('button[data-action="showMarkdown"]').click();
  await wide.locator('table').waitFor({ timeout: 30_000 });
  assert.equal(await wide.locator('table thead th').count(), 100);
  assert.equal(await wide.locator('.markdown-guard-note').count(), 0);
  await screenshot(page, 'markdown-guard-shown-dark');

  for (const [theme, kind, name] of [['Default Light Modern', 'vscode-light', 'light'], ['Default High Contrast', 'vscode-high-contrast', 'hc']]) {
    const themed = await setColorTheme(page, theme, kind);
    await themed.locator('#conversation').evaluate((s) => { s.scrollTop = 0; });
    await themed.locator('[data-entry="a1"] .markdown-guard-note').waitFor();
    await screenshot(page, `markdown-guard-${name}`);
  }
});

wb.test('in a wide editor tab the guarded reply shows the same note and button', async (page) => {
  // a session is open in one chat at a time: the side bar moves to a new session first
  const side = await openSessionFromList(page, 'Dump the whole spreadsheet', 'a2');
  await page.locator('.pane-header', { hasText: 'Chat' }).locator('a.action-label[aria-label="New Session"]').click();
  await side.locator('#app:not([data-leaf="a2"])').waitFor({ timeout: 30_000 });
  await expandPane(page, 'Sessions');
  const row = sidebarPane(page, 'Sessions').locator('.monaco-list-row', { hasText: 'Dump the whole spreadsheet' }).first();
  await row.click({ button: 'right' });
  await clickMenuItem(page, 'Open Chat in Editor');
  await page.locator('.tabs-container .tab', { hasText: 'Dump the whole spreadsheet' }).waitFor({ timeout: 30_000 });
  await runCommand(page, 'View: Close Primary Side Bar');
  const frame = page.locator('iframe.webview.ready[src*="extensionId=arbor-dev.arbor"]:visible').first();
  const tab = frame.contentFrame().locator('iframe#active-frame').contentFrame();
  await tab.locator('#app[data-status="ready"][data-leaf="a2"]').waitFor({ timeout: 30_000 });
  await tab.locator('#conversation').evaluate((s) => { s.scrollTop = 0; });
  const note = tab.locator('[data-entry="a1"] .markdown-guard-note');
  await note.waitFor({ timeout: 30_000 });
  assert.equal(await note.locator('button[data-action="showMarkdown"]').innerText(), 'Show as Markdown');
  await screenshot(page, 'markdown-guard-editor-tab');
});
