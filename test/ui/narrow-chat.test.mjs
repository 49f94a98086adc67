// Issue #19 at the default ~300 px side bar (real workbench, fake LLM, a pre-written session): Ctrl+Alt+A
// puts the cursor in the chat input; a branch summary shows its file lists without the raw file blocks and
// long paths do not give the conversation a horizontal scrollbar; tool names stay on one line; Send stays
// on the composer's row; summaries use small headings; inline code is readable. Screenshots in dark,
// light, high-contrast dark and high-contrast light go to test-results/narrow-chat-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatFrame, openSessionFromList, readyChat, screenshot, setColorTheme } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-narrow-'));
const { at, user, assistant, toolResult } = seedEntries('2025-03-01T09:00:00.000Z');
const longPath = 'src/components/checkout/payment-providers/international/very-long-directory-name/PaymentProviderConfiguration.test.ts';

const entries = [
  user('u1', null, 'Run the tests in `src/checkout.test.ts`'),
  assistant('a1', 'u1', [{ type: 'text', text: 'Running `npm test` now.' }, { type: 'toolCall', id: 'call1', name: 'bash', arguments: { command: `npm test -- --reporter=spec ${longPath}` } }], { stopReason: 'toolUse' }),
  toolResult('t1', 'a1', 'call1', 'bash', '3 passing'),
  assistant('a2', 't1', [{ type: 'text', text: 'All three pass. The config lives in `package.json` under `scripts.test`.' }]),
  {
    type: 'branch_summary', id: 'b1', parentId: 'a2', timestamp: at(), fromId: 'a2',
    summary: `## Goal\nTry a refactor of the payment step.\n\n## Progress\n- Moved \`${longPath}\`\n\n<modified-files>\nREADME.md\n${longPath}\n</modified-files>`,
    details: { readFiles: [], modifiedFiles: ['README.md', longPath] },
  },
  user('u2', 'b1', 'Continue with the checkout'),
  assistant('a3', 'u2', [{ type: 'text', text: 'Continuing.' }]),
];
const header = { type: 'session', version: 3, id: 'ui-narrow', timestamp: at(), cwd: sessionsDir };
writeFileSync(join(sessionsDir, '2025-03-01T09-00-00-000Z_ui-narrow.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

// a reasoning model, so the composer shows the thinking picker next to the model picker and Send
const { wb } = useFakeLlmWorkbench('narrow-chat', { sessionsDir, models: (list) => list.map((m) => ({ ...m, reasoning: true })) });

const openSeeded = (page) => openSessionFromList(page, 'Run the tests', 'a3');

wb.test('Ctrl+Alt+A opens the chat with the cursor in its input', async (page) => {
  await readyChat(page);
  // focus leaves the chat for the editor area, then the keybinding brings it back
  await page.locator('.monaco-workbench .part.editor').first().click();
  await page.keyboard.press('Control+Alt+A');
  const chat = chatFrame(page);
  await chat.locator('#prompt-input:focus, #prompt-input:focus-within').waitFor({ timeout: 10_000 });
  await page.keyboard.type('typed after the shortcut');
  assert.equal(await chat.locator('#prompt-input').evaluate((e) => e.value), 'typed after the shortcut');
  await chat.locator('#prompt-input').evaluate((e) => { e.value = ''; });
});

wb.test('a branch summary shows its file lists without raw file blocks, and long paths do not scroll sideways', async (page) => {
  const chat = await openSeeded(page);
  const marker = chat.locator('.marker-branch_summary[data-entry="b1"]');
  await marker.locator('.marker-line').click();
  const body = marker.locator('.marker-body');
  await body.locator('.file-list', { hasText: 'Modified files' }).waitFor();
  const text = await body.innerText();
  assert.doesNotMatch(text, /<\/?modified-files>/, 'no raw file block');
  const overflow = await chat.locator('#conversation, .conversation').first().evaluate((e) => {
    const scroller = e.querySelector('.vl-scroller') ?? e;
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
  console.log(`# figures narrow-chat overflow: scrollWidth ${overflow.scrollWidth} px, clientWidth ${overflow.clientWidth} px`);
  assert.ok(overflow.scrollWidth <= overflow.clientWidth, `no horizontal scrollbar: ${JSON.stringify(overflow)}`);
  const heading = await body.locator('h2').first().evaluate((h) => ({ heading: parseFloat(getComputedStyle(h).fontSize), body: parseFloat(getComputedStyle(document.body).fontSize) }));
  console.log(`# figures narrow-chat summary heading: ${heading.heading} px, body ${heading.body} px`);
  assert.ok(heading.heading <= heading.body * 1.2, `summary headings stay small: ${JSON.stringify(heading)}`);
});

wb.test('a tool name stays on one line and Send stays on the composer row at 300 px', async (page) => {
  const chat = chatFrame(page);
  const name = chat.locator('.tool-card .tool-name').first();
  await name.waitFor();
  const lines = await name.evaluate((e) => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight || '18')));
  const width = await chat.locator('body').evaluate(() => document.body.clientWidth);
  console.log(`# figures narrow-chat: webview ${width} px wide, tool name ${lines} line(s)`);
  assert.equal(lines, 1, 'the tool name is not broken over lines');
  const rows = await chat.locator('.composer').evaluate((composer) => {
    const send = composer.querySelector('#send, [data-action="send"], .send-actions');
    const picker = composer.querySelector('.pickers');
    return { sendTop: Math.round(send.getBoundingClientRect().top), pickerTop: Math.round(picker.getBoundingClientRect().top) };
  });
  assert.ok(Math.abs(rows.sendTop - rows.pickerTop) < 8, `Send on the pickers' row: ${JSON.stringify(rows)}`);
});

for (const [theme, kind, tag] of [
  ['Default Dark Modern', 'vscode-dark', 'dark'],
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
  ['Default High Contrast Light', 'vscode-high-contrast-light', 'hc-light'],
]) {
  wb.test(`inline code is readable in ${tag}`, async (page) => {
    const chat = await setColorTheme(page, theme, kind);
    const code = chat.locator('.msg[data-entry="a2"] .markdown :not(pre) > code').first();
    await code.waitFor();
    const contrast = await code.evaluate((e) => {
      const rgb = (c) => (c.match(/[\d.]+/g) ?? []).slice(0, 4).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      // the code's background, laid over the page's (themes give inline code a translucent one)
      const page = rgb(getComputedStyle(document.body).backgroundColor);
      const own = rgb(getComputedStyle(e).backgroundColor);
      const alpha = own.length > 3 ? own[3] : 1;
      const bg = [0, 1, 2].map((i) => own[i] * alpha + page[i] * (1 - alpha));
      const fg = lum(rgb(getComputedStyle(e).color));
      const b = lum(bg);
      return (Math.max(fg, b) + 0.05) / (Math.min(fg, b) + 0.05);
    });
    console.log(`# figures narrow-chat inline code contrast ${tag}: ${contrast.toFixed(2)}:1`);
    assert.ok(contrast >= 4.5, `inline code contrast ${contrast.toFixed(2)}:1 in ${tag}`);
    await screenshot(page, `narrow-chat-theme-${tag}`);
  });
}
