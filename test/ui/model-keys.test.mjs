// Issue #19: the model picker marks models whose provider has no API key, and what fails for want of one
// offers Set API Key… (a notice when such a model is chosen, the failed reply's error when one is sent with
// it). At the default ~300 px side bar, screenshots in the four themes: test-results/model-keys-<theme>.png.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyChat, screenshot, setColorTheme } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';
import { THEMES } from '../harness/themes.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-model-keys-'));
const { wb } = useFakeLlmWorkbench('model-keys', { sessionsDir });

/** Opens the composer's model picker and clicks the option whose text matches. */
async function pick(chat, text) {
  const picker = chat.locator('#model-picker');
  await picker.click();
  await chat.locator('#model-picker vscode-option', { hasText: text }).first().click();
}

const quickInput = (page) => page.locator('.quick-input-widget');

wb.test('models without a key are marked "no key"; choosing one offers Set API Key…', async (page) => {
  const chat = await readyChat(page);
  const options = await chat.locator('#model-picker vscode-option').allTextContents();
  const text = (name) => options.find((o) => o.startsWith(name))?.trim();
  assert.equal(text('Claude Sonnet 4.5'), 'Claude Sonnet 4.5 — no key', JSON.stringify(options));
  assert.equal(text('GPT-5 mini'), 'GPT-5 mini — no key');
  assert.equal(text('Fake GPT'), 'Fake GPT', 'a model with no key to need is not marked');
  assert.equal(text('Arbor Demo'), 'Arbor Demo (offline)', 'the offline demo needs no key');
  assert.equal(options.at(-1).trim(), 'Set API key…');

  await pick(chat, 'Claude Sonnet 4.5');
  const notice = chat.locator('.inline-notice', { hasText: 'Claude Sonnet 4.5 needs an API key for Anthropic' });
  await notice.waitFor({ timeout: 20_000 });
  await notice.locator('button', { hasText: 'Set API Key…' }).waitFor();
  const shown = await chat.locator('#model-picker').evaluate((d) => ({ value: d.value, title: d.title }));
  assert.equal(shown.value, 'anthropic/claude-sonnet-4-5');
  assert.match(shown.title, /no API key for anthropic/);
  // the picker's text is cut at 300 px: the key button beside it says what is missing
  const keyButton = chat.locator('#model-key');
  await keyButton.waitFor();
  assert.equal(await keyButton.getAttribute('aria-label'), 'No API key for anthropic: Set API key…');
  const row = await chat.locator('.composer-row').evaluate((r) => ({ width: r.getBoundingClientRect().width, scroll: r.scrollWidth, sendTop: r.querySelector('#send').getBoundingClientRect().top, pickerTop: r.querySelector('#model-picker').getBoundingClientRect().top }));
  assert.ok(row.scroll <= row.width + 1 && Math.abs(row.sendTop - row.pickerTop) < 8, `the row still fits one line: ${JSON.stringify(row)}`);

  for (const [theme, kind, tag] of THEMES) {
    await setColorTheme(page, theme, kind);
    await screenshot(page, `model-keys-${tag}`);
  }
  await setColorTheme(page, THEMES[0][0], THEMES[0][1]);

  // the notice's button runs Arbor: Set API Key for that provider: the password box asks for its key
  await notice.locator('button', { hasText: 'Set API Key…' }).click();
  await quickInput(page).locator('.quick-input-title', { hasText: 'API key for anthropic' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Escape');
  await quickInput(page).waitFor({ state: 'hidden' });
});

wb.test('sending with a model without a key fails with Set API Key… and Retry on the reply', async (page) => {
  const chat = await readyChat(page);
  const input = chat.locator('#prompt-input textarea');
  await input.fill('hello without a key');
  await input.press('Enter');
  const failed = chat.locator('.msg-assistant', { hasText: 'No API key for provider "anthropic"' });
  await failed.waitFor({ timeout: 20_000 });
  await failed.locator('button[data-action="setApiKey"][data-provider="anthropic"]', { hasText: 'Set API Key…' }).waitFor();
  await failed.locator('button[data-action="retry"]', { hasText: 'Retry' }).waitFor();
  assert.equal(await chat.locator('.inline-notice', { hasText: 'No API key for provider' }).count(), 0, 'the error is shown once, on the reply');
  await screenshot(page, 'model-keys-failed-reply');
});

wb.test('the picker\'s "Set API key…" entry asks which provider; the key button asks for the chosen model\'s key', async (page) => {
  const chat = await readyChat(page);
  await pick(chat, 'Set API key…');
  await quickInput(page).locator('.monaco-list-row', { hasText: 'Anthropic' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Escape');
  await quickInput(page).waitFor({ state: 'hidden' });
  assert.equal(await chat.locator('#model-picker').evaluate((d) => d.value), 'anthropic/claude-sonnet-4-5');
  // back to a model that works, so nothing else in this workbench depends on the missing key
  await chat.locator('#model-key').click();
  await quickInput(page).locator('.quick-input-title', { hasText: 'API key for anthropic' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Escape');
  await quickInput(page).waitFor({ state: 'hidden' });
  await pick(chat, 'Fake GPT');
  await chat.locator('#model-picker[title="Model: Fake GPT"]').waitFor({ timeout: 20_000 });
  await chat.locator('#model-key').waitFor({ state: 'hidden' });
});
