// Issue 25 in the real workbench (code-server + Chromium, ~300 px side bar, fake LLM): "Edit summary before
// saving" opens the summary in an editor tab the user can type into (no modal dialog in front of it), with
// Save Summary / Cancel in the tab's title bar; saving compacts with the edited text, the tab closes and no
// dirty "Untitled" tab is left; Cancel leaves the session as it was. A session too small to shrink is refused
// with a notice before anything is asked. Screenshots (wide editor tab) in dark, light and high contrast go to
// test-results/compaction-review-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyChat, runCommand, screenshot, setColorTheme } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-review-'));

const SUMMARY = [
  '## Goal',
  'REVIEW-GOAL: parse the nightly invoice exports',
  '',
  '## Progress',
  '### Done',
  '- [x] Drafted the parser in src/invoice.ts',
  '',
  '### In Progress',
  '- [ ] Tests for quoted fields',
  '',
  '### Blocked',
  '- (none)',
  '',
  '## Constraints & Preferences',
  '- (none)',
  '',
  '## Key Decisions',
  '- **CSV by hand**: no new dependency',
  '',
  '## Next Steps',
  '1. Write the quoted-field tests',
  '',
  '## Critical Context',
  '- (none)',
].join('\n');
const EDIT = 'USER-EDIT: amounts are stored in cents';
const LONG = 'The parser reads each row, splits on commas outside quotes and checks the invoice number. '.repeat(30);

const { wb, llm } = useFakeLlmWorkbench('compaction-review', { sessionsDir });

async function send(chat, text, reply) {
  llm.server.enqueue({ text: reply });
  const input = chat.locator('#prompt-input textarea');
  await input.fill(text);
  await input.press('Enter');
  await chat.locator('.msg-assistant', { hasText: reply.slice(0, 40) }).first().waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
}

/** Runs Compact Session from the palette, leaves the focus empty and picks `action` in the preview. */
async function compactSession(page, action) {
  const quick = page.locator('.quick-input-widget');
  await page.keyboard.press('F1');
  await quick.locator('.quick-input-box input').fill('>Arbor: Compact Session');
  await quick.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: 'Arbor: Compact Session' }) }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  // the focus question (an input box titled like the command) replaces the palette
  await quick.locator('.quick-input-title', { hasText: 'Compact Session' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter'); // no focus instructions
  const row = quick.locator('.monaco-list-row', { hasText: action }).first();
  await row.waitFor({ timeout: 10_000 });
  await row.click();
}

const reviewTab = (page) => page.locator('.tabs-container .tab', { hasText: /Untitled/ });
const titleAction = (page, label) => page.locator(`.editor-actions .action-label[aria-label^="${label}"]`);
const summaryEditor = (page) => page.locator('.editor-instance .monaco-editor', { hasText: 'REVIEW-GOAL' }).first();

async function openReview(page) {
  await compactSession(page, 'Edit summary before saving');
  await summaryEditor(page).waitFor({ timeout: 30_000 });
  await titleAction(page, 'Save Summary').first().waitFor({ timeout: 10_000 });
}

wb.test('a small session is refused with a notice: no preview, no model call', async (page) => {
  const chat = await readyChat(page);
  llm.server.addRule({ when: { lastUserIncludes: 'Write a recap' }, then: { text: 'We drafted the invoice parser.' } });
  llm.server.addRule({ when: { lastUserIncludes: '<conversation>' }, then: { text: SUMMARY } });
  // two short turns: the older one could be summarized, but a summary would not be smaller than it
  await send(chat, 'Hello', 'Hi there.');
  await send(chat, 'Thanks', 'You are welcome.');
  const before = llm.server.requests.length;
  await runCommand(page, 'Arbor: Compact Session');
  const notice = page.locator('.notifications-toasts .notification-toast', { hasText: 'would not make the context smaller' });
  await notice.waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Edit summary before saving' }).count(), 0, 'no preview was offered');
  assert.equal(llm.server.requests.length, before, 'the model was not asked');
  assert.equal(await chat.locator('.marker-compaction').count(), 0);
  await notice.locator('.codicon-notifications-clear, .codicon-close').first().click().catch(() => {});
}, { timeout: 120_000 });

wb.test('Edit summary before saving: the user types into the summary and saves it from the title bar', async (page) => {
  const chat = await readyChat(page);
  for (let i = 0; i < 3; i++) await send(chat, `Step ${i}: work on the invoice parser.`, `Done with step ${i}. ${LONG}`);
  await openReview(page);
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog blocks the editor');
  const editor = summaryEditor(page);
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(`- ${EDIT}`);
  await editor.locator('.view-line', { hasText: EDIT }).waitFor({ timeout: 10_000 });
  for (const [theme, kind, tag] of [['Default Light Modern', 'vscode-light', 'light'], ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'], ['Default Dark Modern', 'vscode-dark', 'dark']]) {
    await setColorTheme(page, theme, kind);
    await titleAction(page, 'Save Summary').first().waitFor({ timeout: 10_000 });
    await screenshot(page, `compaction-review-editor-${tag}`);
  }
  await titleAction(page, 'Save Summary').first().click();
  const marker = chat.locator('.marker-compaction').first();
  await marker.waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  await reviewTab(page).first().waitFor({ state: 'detached', timeout: 10_000 });
  assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'no dirty tab is left behind');
  assert.equal(await titleAction(page, 'Save Summary').count(), 0, 'the review actions are gone with the tab');
  await marker.locator('.marker-line').click();
  const body = marker.locator('.marker-body');
  await body.waitFor({ timeout: 10_000 });
  assert.match(await body.innerText(), new RegExp(EDIT), 'the saved summary is the edited one');
  assert.doesNotMatch(await body.innerText(), /\[x\]|\[ \]/, 'task items show boxes, not brackets');
  assert.ok((await body.locator('input.task-box[disabled]').count()) >= 2, 'task boxes rendered');
  await marker.scrollIntoViewIfNeeded();
}, { timeout: 240_000 });

for (const [theme, kind, tag] of [['Default Dark Modern', 'vscode-dark', 'dark'], ['Default Light Modern', 'vscode-light', 'light'], ['Default High Contrast', 'vscode-high-contrast', 'hc-dark']]) {
  wb.test(`the saved summary's marker reads at 300 px in ${tag}`, async (page) => {
    const chat = await setColorTheme(page, theme, kind);
    const marker = chat.locator('.marker-compaction').first();
    if ((await marker.locator('.marker-body').count()) === 0) await marker.locator('.marker-line').click();
    await marker.locator('.task-box').first().waitFor({ timeout: 10_000 });
    await marker.scrollIntoViewIfNeeded();
    const fit = await marker.evaluate((e) => ({ width: document.body.clientWidth, right: e.getBoundingClientRect().right }));
    assert.ok(fit.width <= 420, `a narrow side bar: ${fit.width} px`);
    assert.ok(fit.right <= fit.width + 1, `the marker fits: ${JSON.stringify(fit)}`);
  });
}

wb.test('Cancel in the title bar leaves the session unchanged and closes the tab cleanly', async (page) => {
  const chat = await readyChat(page);
  for (let i = 3; i < 6; i++) await send(chat, `Step ${i}: more parser work.`, `Done with step ${i}. ${LONG}`);
  const markers = await chat.locator('.marker-compaction').count();
  await openReview(page);
  await summaryEditor(page).locator('.view-lines').click();
  await page.keyboard.type('typed then cancelled ');
  await titleAction(page, 'Cancel Summary Edit').first().click();
  await page.locator('.notifications-toasts .notification-toast', { hasText: 'Compaction cancelled' }).waitFor({ timeout: 20_000 });
  await reviewTab(page).first().waitFor({ state: 'detached', timeout: 10_000 });
  assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'no dirty tab is left behind');
  assert.equal(await chat.locator('.marker-compaction').count(), markers, 'nothing was compacted');
}, { timeout: 240_000 });
