// Issue #19, the chat in an editor tab (real workbench, fake LLM, a pre-written session): the Sessions
// view's "Open Chat in Editor" opens a session in a wide editor tab; "Arbor: New Chat in Editor" opens a
// second chat beside it on a new session, where a prompt gets its reply; after a window reload both tabs
// come back on their sessions (also when the workbench restores a tab without its state, or not at all).
// Screenshots of the wide tab in dark, light, high-contrast dark and high-contrast light go to
// test-results/editor-chat-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clickMenuItem, editorChats, expandPane, readyChat, reloadWindow, runCommand, screenshot, setColorTheme, sidebarPane } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-editor-'));
const { at, user, assistant, toolResult } = seedEntries('2025-04-01T09:00:00.000Z');
const entries = [
  user('u1', null, 'Where is the checkout total computed?'),
  assistant('a1', 'u1', [{ type: 'text', text: 'Let me search for it.' }, { type: 'toolCall', id: 'call1', name: 'grep', arguments: { pattern: 'total', path: 'src' } }], { stopReason: 'toolUse' }),
  toolResult('t1', 'a1', 'call1', 'grep', 'src/checkout.ts:12: const total = sum(items);'),
  assistant('a2', 't1', [{ type: 'text', text: 'In `src/checkout.ts`, line 12:\n\n```ts\nconst total = sum(items);\n```\n\nIt adds the **item prices**; taxes come later.' }]),
  user('u2', 'a2', 'Add the taxes there'),
  assistant('a3', 'u2', [{ type: 'text', text: 'Done: `total` now includes the taxes.' }]),
];
const header = { type: 'session', version: 3, id: 'ui-editor', timestamp: at(), cwd: sessionsDir };
writeFileSync(join(sessionsDir, '2025-04-01T09-00-00-000Z_ui-editor.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

const { wb, llm } = useFakeLlmWorkbench('editor-chat', { sessionsDir });

async function send(chat, text) {
  const input = chat.locator('#prompt-input textarea');
  await input.fill(text);
  await input.press('Enter');
}

wb.test("the Sessions view's Open Chat in Editor shows the session in a wide editor tab", async (page) => {
  await readyChat(page);
  await expandPane(page, 'Sessions');
  const row = sidebarPane(page, 'Sessions').locator('.monaco-list-row', { hasText: 'Where is the checkout total' }).first();
  await row.waitFor({ timeout: 20_000 });
  const sessionTab = page.locator('.tabs-container .tab', { hasText: 'Where is the checkout total' });
  await row.click({ button: 'right' });
  await clickMenuItem(page, 'Open Chat in Editor');
  await sessionTab.waitFor({ timeout: 30_000 });
  await runCommand(page, 'View: Close Primary Side Bar');
  const [tab] = await editorChats(page, 1);
  await tab.doc.locator('#app[data-status="ready"][data-leaf="a3"]').waitFor({ timeout: 30_000 });
  await tab.doc.locator('.msg[data-entry="a2"] pre code', { hasText: 'const total' }).waitFor();
  console.log(`# figures editor-chat: editor tab webview ${Math.round(tab.box.width)} px wide`);
  assert.ok(tab.box.width >= 900, `the chat fills a wide editor tab (${tab.box.width} px)`);
});

wb.test('New Chat in Editor opens a second chat beside it on a new session, and a prompt there gets its reply', async (page) => {
  llm.server.enqueue({ text: 'Hello from the second tab.', chunkSize: 4 });
  await runCommand(page, 'Arbor: New Chat in Editor');
  const [left, right] = await editorChats(page, 2);
  assert.ok(right.box.x >= left.box.x + left.box.width - 2, 'the new chat sits beside the first');
  await right.doc.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  await send(right.doc, 'Say hello in the new tab');
  await right.doc.locator('.msg', { hasText: 'Hello from the second tab.' }).waitFor({ timeout: 30_000 });
  await page.locator('.tabs-container .tab', { hasText: 'Say hello in the new tab' }).waitFor({ timeout: 10_000 });
  assert.equal(await left.doc.locator('.msg', { hasText: 'Hello from the second tab.' }).count(), 0, 'the first tab did not get the reply');
  await left.doc.locator('#app[data-leaf="a3"]').waitFor();
});

/** Reloads the window; both editor chats must come back, each on its session. */
async function reloadAndFindBothChats(page) {
  await reloadWindow(page);
  await page.locator('.tabs-container .tab', { hasText: 'Where is the checkout total' }).waitFor({ timeout: 60_000 });
  await page.locator('.tabs-container .tab', { hasText: 'Say hello in the new tab' }).waitFor({ timeout: 60_000 });
  const [left, right] = await editorChats(page, 2);
  await left.doc.locator('#app[data-status="ready"][data-leaf="a3"]').waitFor({ timeout: 60_000 });
  await right.doc.locator('.msg', { hasText: 'Hello from the second tab.' }).waitFor({ timeout: 60_000 });
  assert.equal(await left.doc.locator('.msg', { hasText: 'Hello from the second tab.' }).count(), 0, 'the first tab is on its own session');
}

wb.test('after a window reload both editor chats come back on their sessions', async (page) => {
  // Right after the reply: the workbench may restore the new tab without the state its webview saved
  // (its layout was saved before), so the tab finds its session in the workspace state
  // (src/vscode/editor-chat-memory.ts).
  await reloadAndFindBothChats(page);
  // Once more, later: the restored tabs kept their sessions for the next reload.
  await page.waitForTimeout(1500);
  await reloadAndFindBothChats(page);
  // back to one wide tab for the theme screenshots
  const second = page.locator('.tabs-container .tab', { hasText: 'Say hello in the new tab' });
  await second.click({ button: 'middle' }); // VS Code closes a tab on a middle click
  await second.waitFor({ state: 'detached', timeout: 10_000 });
  await page.locator('.tabs-container .tab', { hasText: 'Where is the checkout total' }).waitFor();
}, { timeout: 180_000 });

for (const [theme, kind, tag] of [
  ['Default Dark Modern', 'vscode-dark', 'dark'],
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
  ['Default High Contrast Light', 'vscode-high-contrast-light', 'hc-light'],
]) {
  wb.test(`the wide editor chat in ${tag}`, async (page) => {
    await editorChats(page, 1);
    // the side bar is closed: the one Arbor webview on screen is the editor tab's
    await setColorTheme(page, theme, kind);
    const [tab] = await editorChats(page, 1);
    await tab.doc.locator('.msg[data-entry="a2"] pre code').waitFor();
    const overflow = await tab.doc.locator('body').evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    assert.ok(overflow.scrollWidth <= overflow.clientWidth, `no horizontal scrollbar in ${tag}: ${JSON.stringify(overflow)}`);
    // issue #28 walk-through: code in a block took the inline-code chip (a box behind the text; white on navy in hc-light)
    const code = await tab.doc.locator('.msg[data-entry="a2"] pre code').evaluate((e) => {
      const own = getComputedStyle(e);
      return { background: own.backgroundColor, color: own.color, blockBackground: getComputedStyle(e.closest('.code-block')).backgroundColor };
    });
    assert.equal(code.background, 'rgba(0, 0, 0, 0)', `no chip behind code in a block in ${tag}: ${JSON.stringify(code)}`);
    assert.notEqual(code.color, code.blockBackground, `block code is readable in ${tag}: ${JSON.stringify(code)}`);
    await screenshot(page, `editor-chat-theme-${tag}`);
  });
}
