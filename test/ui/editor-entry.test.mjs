// The editor's entry points in the real workbench (issue #28): lines selected in an editor go to the side bar's
// chat (300 px) through "Arbor: Add Selection to Chat", appended to what was being written and quoted with the
// file and line range; with the chat in a wide editor tab, the same adds to that chat. Screenshots in four
// themes at 300 px and one in the editor tab go to test-results/editor-entry-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorChats, readyChat, runCommand, screenshot, setColorTheme } from '../harness/browser.mjs';
import { THEMES } from '../harness/themes.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-editor-entry-'));
const { wb } = useFakeLlmWorkbench('editor-entry', { sessionsDir });

async function openInventory(page) {
  for (let attempt = 0; attempt < 3; attempt++) {
    // keys pressed while a webview has the focus stay in its frame: give the workbench the focus first
    await page.locator('.part.statusbar').click({ position: { x: 2, y: 2 } }).catch(() => {});
    await page.keyboard.press('Control+P');
    const quick = page.locator('.quick-input-widget');
    await quick.locator('.quick-input-box input').fill('src/inventory.js');
    const row = quick.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^inventory\.js$/ }) }).first();
    const opened = await row.click({ timeout: 5000 })
      .then(() => page.locator('.monaco-editor .view-lines', { hasText: 'tiny in-memory inventory' }).first().waitFor({ timeout: 10_000 }))
      .then(() => true, () => false);
    if (opened) return;
    await page.keyboard.press('Escape').catch(() => {});
  }
  throw new Error('inventory.js did not open');
}

/** Selects lines `first`..`last` (1-based) of the active editor with the keyboard: Go to Line, then Expand Line Selection. */
async function selectLines(page, first, last) {
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(first));
  await page.keyboard.press('Enter');
  for (let line = first; line <= last; line++) await page.keyboard.press('Control+L');
}

const composerValue = (chat) => chat.locator('#prompt-input').evaluate((e) => e.value);
const inputSize = (chat) => chat.locator('#prompt-input').evaluate((e) => ({ rows: Number(e.getAttribute('rows')), lines: e.value.split('\n').length, height: Math.round(e.getBoundingClientRect().height) }));

wb.test('Add Selection to Chat appends the selected lines to the side bar chat\'s draft, quoted with file and range', async (page) => {
  const chat = await readyChat(page);
  await chat.locator('#prompt-input textarea').fill('Explain this:');
  const before = await inputSize(chat);
  await openInventory(page);
  await selectLines(page, 6, 10);
  await runCommand(page, 'Arbor: Add Selection to Chat');
  await chat.locator('#prompt-input').evaluate((e) => new Promise((resolve) => {
    const done = () => e.value.includes('```') && resolve();
    done();
    e.addEventListener('input', done);
    setTimeout(resolve, 10_000);
  }));
  const value = await composerValue(chat);
  assert.match(value, /^Explain this:\n\n`src\/inventory\.js` \(lines 6-10\):\n```javascript\n {2}add\(isbn, title, copies = 1\) \{\n/, value);
  assert.match(value, /\n```$/);
  // issue #28 walk-through: the 3-line input cut the quoted selection mid-line; it grows with its lines (up to 10)
  const after = await inputSize(chat);
  assert.equal(after.rows, Math.min(10, after.lines), `one row per line: ${JSON.stringify(after)}`);
  assert.ok(after.height > before.height * 2, `the input grew: ${JSON.stringify({ before, after })}`);
  await screenshot(page, 'editor-entry-sidebar');
});

for (const [theme, kind, tag] of THEMES) {
  wb.test(`the quoted selection in the composer at 300 px in ${tag}`, async (page) => {
    const chat = await setColorTheme(page, theme, kind);
    assert.match(await composerValue(chat), /`src\/inventory\.js` \(lines 6-10\)/);
    await screenshot(page, `editor-entry-theme-${tag}`);
  });
}

wb.test('with the chat in a wide editor tab, the selection goes to that chat', async (page) => {
  await runCommand(page, 'Arbor: Open Chat in Editor');
  const [opened] = await editorChats(page, 1);
  await opened.doc.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  await openInventory(page);
  await selectLines(page, 13, 14);
  await runCommand(page, 'Arbor: Add Selection to Chat');
  const [{ doc: tabChat }] = await editorChats(page, 1); // the command brought the chat's tab forward
  await tabChat.locator('#prompt-input').waitFor();
  const deadline = Date.now() + 15_000;
  while (!(await composerValue(tabChat)).includes('lines 13-14') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.match(await composerValue(tabChat), /^`src\/inventory\.js` \(lines 13-14\):\n```javascript\n/);
  await screenshot(page, 'editor-entry-editor-tab');
});
