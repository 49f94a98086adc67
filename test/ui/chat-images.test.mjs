// Images in the chat at the default ~300 px side bar (real workbench, real Chromium, fake LLM): an image
// pasted into the composer becomes a chip with a thumbnail and a remove button; a text file posing as a
// PNG is refused with a notice; the prompt sends the image to the model (an image_url data URL) and the
// user message shows it as a thumbnail that opens larger; a model without image input gets a notice and
// the composer keeps the text and the chip. Screenshots go to test-results/chat-images-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { readyChat, screenshot, setColorTheme } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';
import { paste, redPng } from '../harness/images.mjs';

const PNG = redPng(200, 120);

const axeSource = createRequire(import.meta.url)('axe-core').source;

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-images-'));
const { wb, llm } = useFakeLlmWorkbench('chat-images', {
  sessionsDir,
  models: ([seeing]) => [{ ...seeing, images: true }, { ...seeing, id: 'text-only', name: 'Text Only' }],
});

wb.test('a pasted image becomes a chip, goes to the model with the prompt and shows as a thumbnail that opens larger', async (page) => {
  const chat = await readyChat(page);
  await paste(chat, [{ name: 'screenshot.png', type: 'image/png', base64: PNG }]);
  const chip = chat.locator('#image-chips .image-chip', { hasText: 'screenshot.png' });
  await chip.waitFor({ timeout: 15_000 });
  assert.ok(await chip.locator('img').evaluate((img) => img.complete && img.naturalWidth === 200), 'the thumbnail decoded (the CSP allows it)');
  assert.equal(await chip.locator('button.image-chip-remove').getAttribute('aria-label'), 'Remove image screenshot.png');

  // text copied with a picture of itself (spreadsheet cells) pastes as text, without a chip
  await chat.locator('#prompt-input textarea').evaluate((textarea, base64) => {
    const data = new DataTransfer();
    data.setData('text/plain', 'A1 B1');
    data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'cells.png', { type: 'image/png' }));
    textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true, cancelable: true }));
  }, PNG);
  // a chip for the cells would come before the next paste's (the host answers in order)
  await paste(chat, [{ name: 'second.png', type: 'image/png', base64: PNG }]);
  await chat.locator('#image-chips .image-chip', { hasText: 'second.png' }).waitFor({ timeout: 15_000 });
  assert.deepEqual(await chat.locator('#image-chips .image-chip-name').allInnerTexts(), ['screenshot.png', 'second.png'], 'no chip for the copied cells');
  await chat.locator('#image-chips button[aria-label="Remove image second.png"]').click();
  await paste(chat, [{ name: 'notes.png', type: 'image/png', base64: btoa('just some text, not a picture') }]);
  await chat.locator('.inline-notice', { hasText: 'notes.png was not attached: it is not a PNG, JPEG, GIF or WebP image.' }).waitFor({ timeout: 10_000 });
  assert.equal(await chat.locator('#image-chips .image-chip').count(), 1, 'the fake image got no chip');
  await screenshot(page, 'chat-images-composer');

  const input = chat.locator('#prompt-input textarea');
  await input.click();
  await input.pressSequentially('What is on this screenshot?');
  const before = llm.server.requests.length;
  await input.press('Enter');
  const sent = chat.locator('.msg-user', { hasText: 'What is on this screenshot?' });
  await sent.waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  assert.equal(await chat.locator('#image-chips .image-chip').count(), 0, 'sending took the chip');
  const body = JSON.stringify(llm.server.requests.slice(before).map((r) => r.body));
  assert.ok(body.includes(`"image_url":{"url":"data:image/png;base64,${PNG}"}`), 'the image reached the model as a data URL');

  const thumb = sent.locator('.message-images .message-image img');
  await thumb.waitFor();
  assert.ok(await thumb.evaluate((img) => img.complete && img.naturalWidth === 200), 'the message thumbnail decoded');
  await screenshot(page, 'chat-images-message');
  await sent.locator('.message-image').click();
  const viewer = chat.locator('#image-viewer[open] img');
  await viewer.waitFor({ timeout: 5000 });
  const sizes = await chat.locator('body').evaluate(() => ({
    thumbnail: document.querySelector('.message-image img').getBoundingClientRect().width,
    viewer: document.querySelector('#image-viewer img').getBoundingClientRect().width,
  }));
  console.log(`# figures chat-images: thumbnail ${sizes.thumbnail} px, larger view ${sizes.viewer} px`);
  assert.ok(sizes.viewer > sizes.thumbnail * 2, `the larger view is larger than the thumbnail: ${JSON.stringify(sizes)}`);
  await screenshot(page, 'chat-images-viewer');
  await chat.locator('#image-viewer .image-viewer-close').click();
  await chat.locator('#image-viewer:not([open])').waitFor({ state: 'attached', timeout: 5000 });
  assert.equal(await chat.locator('#app').getAttribute('data-csp-violations'), null, 'no CSP violation');
}, { timeout: 120_000 });

wb.test('× removes a chip; a model without image input gets a notice and the composer keeps text and image', async (page) => {
  const chat = await readyChat(page);
  await paste(chat, [{ name: 'a.png', type: 'image/png', base64: PNG }, { name: 'b.png', type: 'image/png', base64: PNG }]);
  await chat.locator('#image-chips .image-chip').nth(1).waitFor({ timeout: 15_000 });
  await chat.locator('#image-chips button[aria-label="Remove image a.png"]').click();
  assert.deepEqual(await chat.locator('#image-chips .image-chip-name').allInnerTexts(), ['b.png']);

  await chat.locator('#model-picker').evaluate((picker) => {
    picker.value = 'fake/text-only';
    picker.dispatchEvent(new Event('change'));
  });
  await chat.locator('#model-picker[title="Model: Text Only"]').waitFor({ timeout: 15_000 });
  const input = chat.locator('#prompt-input textarea');
  await input.click();
  await input.pressSequentially('Describe it');
  const before = llm.server.requests.length;
  await input.press('Enter');
  await chat.locator('.inline-notice', { hasText: 'Text Only does not take images.' }).waitFor({ timeout: 10_000 });
  assert.equal(llm.server.requests.length, before, 'nothing was sent');
  assert.equal(await chat.locator('#prompt-input').evaluate((e) => e.value), 'Describe it', 'the text stays');
  assert.equal(await chat.locator('#image-chips .image-chip').count(), 1, 'the image stays');
  await screenshot(page, 'chat-images-text-only-model');
}, { timeout: 90_000 });

wb.test('a dropped image file becomes a chip; axe-core finds no serious or critical violation around the images in high-contrast light', async (page) => {
  const chat = await setColorTheme(page, 'Default High Contrast Light', 'vscode-high-contrast-light');
  await chat.locator('#composer').evaluate((composer, base64) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'dropped.png', { type: 'image/png' }));
    composer.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    composer.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, PNG);
  await chat.locator('#image-chips .image-chip', { hasText: 'dropped.png' }).waitFor({ timeout: 15_000 });
  const frame = await (await chat.locator('html').elementHandle()).ownerFrame();
  await frame.evaluate(axeSource);
  const violations = await frame.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })));
  console.log(`# figures chat-images axe hc-light: ${violations.map((v) => `${v.impact} ${v.id} ${v.nodes.length}`).join(', ') || 'none'}`);
  const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(severe, [], 'no serious or critical violation');
  await screenshot(page, 'chat-images-hc-light');
}, { timeout: 90_000 });
