// Issue #28 item 3.5: "Open Chat in Editor" started a new session every time. Now the chat's own button
// (the Chat view's title bar) shows the focused chat's session in a wide editor tab, the side bar goes on
// with a new session, a second "Open Chat in Editor" brings that tab forward, and a new session in the
// tab comes only from the tab's own New Session button (the editor title bar). The chat's header names
// the session as soon as the tab's title does (it lagged behind until the reply ended).
// Screenshots: test-results/editor-chat-focused-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorChats, openSessionFromList, runCommand, screenshot, sidebarPane } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-editor-focused-'));
const { at, user, assistant } = seedEntries('2025-04-02T09:00:00.000Z');
const entries = [
  user('u1', null, 'Where is the checkout total computed?'),
  assistant('a1', 'u1', 'In `src/checkout.ts`, line 12.'),
  user('u2', 'a1', 'Add the taxes there'),
  assistant('a3', 'u2', 'Done: `total` now includes the taxes.'),
];
const header = { type: 'session', version: 3, id: 'ui-editor-focused', timestamp: at(), cwd: sessionsDir };
writeFileSync(join(sessionsDir, '2025-04-02T09-00-00-000Z_ui-editor-focused.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

const { wb, llm } = useFakeLlmWorkbench('editor-chat-focused', { sessionsDir });
const TITLE = 'Where is the checkout total computed?';

/** Clicks an action of a title bar (`bar`), shown on hover, by its label. */
async function clickTitleAction(page, bar, label) {
  await bar.hover();
  await bar.locator(`.action-label[aria-label="${label}"]`).first().click();
}

wb.test("the Chat view's Open Chat in Editor shows the focused chat's session in the tab", async (page) => {
  const sideChat = await openSessionFromList(page, 'Where is the checkout total', 'a3');
  await sideChat.locator('.msg[data-entry="a3"]').click(); // the side bar chat is the focused one
  await clickTitleAction(page, sidebarPane(page, 'Chat').locator('.pane-header'), 'Open Chat in Editor');
  const tabTitle = page.locator('.tabs-container .tab', { hasText: 'Where is the checkout total' });
  await tabTitle.waitFor({ timeout: 30_000 });
  const [tab] = await editorChats(page, 1);
  await tab.doc.locator('#app[data-status="ready"][data-leaf="a3"]').waitFor({ timeout: 30_000 });
  await tab.doc.locator('.msg[data-entry="a1"]', { hasText: 'src/checkout.ts' }).waitFor();
  assert.equal(await tab.doc.locator('#session-title').textContent(), TITLE, "the tab's header names the session");
  // a session is open in one chat at a time: the side bar went on with a new one
  await sideChat.locator('#session-title', { hasText: /^New session$/ }).waitFor({ timeout: 10_000 });
  assert.equal(await sideChat.locator('.msg[data-entry="a3"]').count(), 0, 'the side bar no longer shows the session');
});

wb.test('Open Chat in Editor again brings that tab forward instead of a new session', async (page) => {
  await runCommand(page, 'Arbor: Open Chat in Editor');
  await page.waitForTimeout(1500); // a second tab, if one were opened, has its frame by now
  const tabs = page.locator('.tabs-container .tab');
  assert.equal(await tabs.count(), 1, `one editor tab: ${await tabs.allTextContents()}`);
  const [tab] = await editorChats(page, 1);
  await tab.doc.locator('#app[data-leaf="a3"]').waitFor({ timeout: 10_000 });
});

wb.test("the tab's own New Session button starts a new session there; the header follows the tab title during the first reply", async (page) => {
  const tabBar = page.locator('.part.editor .title');
  await clickTitleAction(page, tabBar, 'New Session');
  const [tab] = await editorChats(page, 1);
  await tab.doc.locator('#session-title', { hasText: /^New session$/ }).waitFor({ timeout: 20_000 });
  await page.locator('.tabs-container .tab', { hasText: 'New Arbor Chat' }).waitFor({ timeout: 10_000 });
  assert.equal(await tab.doc.locator('.msg').count(), 0, 'the new session is empty');

  // a slow reply: the header must name the session while it still streams, as the tab title does
  const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
  llm.server.enqueue({ text: `${words} END-OF-REPLY`, chunkSize: 6, delayMs: 200 });
  const input = tab.doc.locator('#prompt-input textarea');
  await input.fill('Name this tab after me');
  await input.press('Enter');
  await page.locator('.tabs-container .tab', { hasText: 'Name this tab after me' }).waitFor({ timeout: 20_000 });
  await tab.doc.locator('.msg', { hasText: 'word1' }).waitFor({ timeout: 20_000 });
  const headerNow = await tab.doc.locator('#session-title').textContent();
  const replyDone = await tab.doc.locator('.msg', { hasText: 'END-OF-REPLY' }).count();
  await screenshot(page, 'editor-chat-focused-streaming');
  assert.equal(replyDone, 0, 'the reply is still streaming (else this check proves nothing)');
  assert.equal(headerNow, 'Name this tab after me', 'the header names the session while the reply streams');
  await tab.doc.locator('.msg', { hasText: 'END-OF-REPLY' }).waitFor({ timeout: 60_000 });
}, { timeout: 120_000 });
