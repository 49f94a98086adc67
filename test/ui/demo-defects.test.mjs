// Issue #28 item 3 with the offline demo model (no model configured, the real workbench at the default
// ~300 px side bar): what a newcomer meets first. The welcome suggestion "Summarize a file with @" must not
// make the demo propose overwriting the attached README (its scripted rules read the user's words, never
// the attached file's). Screenshots: test-results/demo-defects-*.png.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readyChat, screenshot } from '../harness/browser.mjs';
import { useWorkbench } from '../harness/ui.mjs';

const wb = useWorkbench('demo-defects', { settings: { 'workbench.colorTheme': 'Default Dark Modern' } });

wb.test('the "Summarize a file with @" suggestion gets a summary, never a proposed write', async (page, server) => {
  const readme = readFileSync(join(server.workspace, 'README.md'), 'utf8');
  assert.match(readme, /\badd\b/, 'the attached README holds the word that used to trigger a write');
  const chat = await readyChat(page);
  await chat.locator('.welcome-tip', { hasText: 'Summarize a file with @' }).click();
  const input = chat.locator('#prompt-input textarea');
  assert.equal(await input.inputValue(), 'Summarize @README.md');
  await input.press('Enter');
  const reply = chat.locator('.msg-assistant').last();
  await reply.locator('.markdown', { hasText: 'README.md' }).waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  const text = await reply.innerText();
  console.log(`# demo reply to the suggestion: ${JSON.stringify(text.slice(0, 300))}`);
  assert.equal(await chat.locator('.tool-card').count(), 0, 'no tool call, so no write proposed');
  assert.doesNotMatch(text, /Hello from Arbor Demo/);
  assert.match(text, /summary of `?README\.md`?/i, 'the demo summarises the attached file');
  assert.equal(readFileSync(join(server.workspace, 'README.md'), 'utf8'), readme, 'README.md untouched');
  await screenshot(page, 'demo-defects-suggestion-dark');
}, { timeout: 120_000 });
