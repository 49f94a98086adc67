// The composer's images beyond one send, at the default ~300 px side bar (real workbench, real Chromium,
// fake LLM): a pasted screenshot goes alone with Enter (Send is enabled by the image, not only by text);
// a queued prompt taken back (Remove, or Stop) returns its images as chips with its text; and the
// draft's chips come back with its text after the view is hidden and shown (the webview re-created).
// Screenshots go to test-results/chat-images-draft-*.png (dark, light, high contrast).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyChat, screenshot, setColorTheme, sidebar } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';
import { paste, redPng } from '../harness/images.mjs';

const PNG = redPng(160, 90);
const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-images-draft-'));
const { wb, llm } = useFakeLlmWorkbench('chat-images-draft', {
  sessionsDir,
  models: ([seeing]) => [{ ...seeing, images: true }],
});

const sendDisabled = (chat) => chat.locator('#send').evaluate((b) => b.hasAttribute('disabled'));
const chipNames = (chat) => chat.locator('#image-chips .image-chip-name').allInnerTexts();

wb.test('a pasted image alone is sent with Enter; Send is enabled by the image and disabled with nothing to send', async (page) => {
  const chat = await readyChat(page);
  const input = chat.locator('#prompt-input textarea');
  assert.equal(await sendDisabled(chat), true, 'nothing to send: Send is disabled');
  await input.click();
  await input.pressSequentially('x');
  assert.equal(await sendDisabled(chat), false, 'text enables Send');
  await input.press('Backspace');
  assert.equal(await sendDisabled(chat), true, 'blank again');
  await paste(chat, [{ name: 'screenshot.png', type: 'image/png', base64: PNG }]);
  await chat.locator('#image-chips .image-chip').waitFor({ timeout: 15_000 });
  assert.equal(await sendDisabled(chat), false, 'an image alone enables Send');
  await screenshot(page, 'chat-images-draft-image-only-composer');

  const before = llm.server.requests.length;
  await input.press('Enter');
  const sent = chat.locator('.msg-user').last();
  await sent.locator('.message-images .message-image img').waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  assert.equal(await chat.locator('#image-chips .image-chip').count(), 0, 'sending took the chip');
  assert.equal(await sendDisabled(chat), true, 'nothing left to send');
  assert.equal(await sent.locator('.markdown').count(), 0, 'no empty text paragraph');
  const user = llm.server.requests.slice(before).map((r) => r.body.messages.filter((m) => m.role === 'user').at(-1)).at(-1);
  assert.deepEqual(user.content, [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }], 'the model got the image and no empty text');
  await screenshot(page, 'chat-images-draft-image-only-message');
}, { timeout: 120_000 });

/** Sends a first prompt whose reply hangs, so what follows is queued behind it. */
async function busyTurn(chat, input) {
  llm.server.enqueue({ text: 'Working on it, slowly.', chunkSize: 2, hangAfterChunks: 3 });
  await input.click();
  await input.pressSequentially('Start something long');
  await input.press('Enter');
  await chat.locator('#app[data-busy="true"]').waitFor({ timeout: 30_000 });
}

/** Queues `text` with one pasted image `name` behind the running turn. */
async function queueWithImage(chat, input, text, name) {
  await paste(chat, [{ name, type: 'image/png', base64: PNG }]);
  await chat.locator('#image-chips .image-chip', { hasText: name }).waitFor({ timeout: 15_000 });
  await input.click();
  await input.pressSequentially(text);
  await input.press('Enter');
  await chat.locator('#queue .queued', { hasText: text }).waitFor({ timeout: 15_000 });
  assert.equal(await chat.locator('#image-chips .image-chip').count(), 0, 'queuing took the chip');
}

wb.test('a queued prompt taken back (Remove, then Stop) returns its images as chips with its text', async (page) => {
  const chat = await readyChat(page);
  const input = chat.locator('#prompt-input textarea');
  await busyTurn(chat, input);
  await queueWithImage(chat, input, 'Look at this', 'queued.png');
  await chat.locator('#queue button[aria-label="Remove queued message 1"]').click();
  await chat.locator('#image-chips .image-chip').waitFor({ timeout: 15_000 });
  assert.equal(await chat.locator('#prompt-input').evaluate((e) => e.value), 'Look at this', 'the text is back');
  assert.equal((await chipNames(chat)).length, 1, 'the image is back as a chip');
  assert.ok(await chat.locator('#image-chips .image-chip img').evaluate((img) => img.complete && img.naturalWidth === 160), 'its thumbnail decodes');
  await screenshot(page, 'chat-images-draft-dequeued');

  // queue it again (the chip goes with it), then Stop: the turn ends and the prompt comes back whole
  await input.press('Enter');
  await chat.locator('#queue .queued', { hasText: 'Look at this' }).waitFor({ timeout: 15_000 });
  assert.equal(await chat.locator('#image-chips .image-chip').count(), 0);
  await chat.locator('#stop').click();
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  await chat.locator('#image-chips .image-chip').waitFor({ timeout: 15_000 });
  assert.equal(await chat.locator('#prompt-input').evaluate((e) => e.value), 'Look at this');
  assert.equal((await chipNames(chat)).length, 1);
}, { timeout: 120_000 });

/** Hides the Arbor container (VS Code drops the hidden webview), then shows the chat again. */
async function hideAndShow(page, chat) {
  await chat.locator('#app').evaluate(() => { window.__arborBeforeHide = true; });
  await page.locator('.part.activitybar .action-item .action-label[aria-label^="Explorer"]').click();
  await sidebar(page).locator('.composite.title', { hasText: /explorer/i }).waitFor();
  const again = await readyChat(page);
  assert.equal(await again.locator('#app').evaluate(() => window.__arborBeforeHide ?? null), null, 'the webview was re-created');
  return again;
}

wb.test('the draft keeps its chips when the view is hidden and shown; in light and high contrast too', async (page) => {
  let chat = await readyChat(page);
  // the chip of the previous test is still in the draft; add a second one and change the text
  await paste(chat, [{ name: 'second.png', type: 'image/png', base64: PNG }]);
  await chat.locator('#image-chips .image-chip', { hasText: 'second.png' }).waitFor({ timeout: 15_000 });
  const names = await chipNames(chat);
  assert.equal(names.length, 2);
  chat = await hideAndShow(page, chat);
  await chat.locator('#image-chips .image-chip', { hasText: 'second.png' }).waitFor({ timeout: 15_000 });
  assert.deepEqual(await chipNames(chat), names, 'the same chips, in order');
  assert.equal(await chat.locator('#prompt-input').evaluate((e) => e.value), 'Look at this', 'with the draft text');
  assert.equal(await sendDisabled(chat), false);

  // a chip removed before the view is hidden stays removed
  await chat.locator(`#image-chips button[aria-label="Remove image ${names[0]}"]`).click();
  chat = await hideAndShow(page, chat);
  await chat.locator('#image-chips .image-chip', { hasText: 'second.png' }).waitFor({ timeout: 15_000 });
  assert.deepEqual(await chipNames(chat), ['second.png']);
  for (const [theme, kind] of [['Default Light Modern', 'vscode-light'], ['Default High Contrast', 'vscode-high-contrast']]) {
    chat = await setColorTheme(page, theme, kind);
    await chat.locator('#image-chips .image-chip').waitFor({ timeout: 15_000 });
    await screenshot(page, `chat-images-draft-${kind}`);
  }
  // sent, the draft is empty: hidden and shown, no chip comes back
  llm.server.enqueue({ text: 'Two squares.' });
  await chat.locator('#prompt-input textarea').press('Enter');
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  await chat.locator('.msg-user', { hasText: 'Look at this' }).last().waitFor({ timeout: 30_000 });
  assert.equal(await sendDisabled(chat), true);
  await screenshot(page, 'chat-images-draft-send-disabled-hc');
  chat = await hideAndShow(page, chat);
  await chat.locator('.msg-user').first().waitFor({ timeout: 15_000 });
  assert.equal(await chat.locator('#image-chips .image-chip').count(), 0, 'the sent draft does not come back');
}, { timeout: 180_000 });
