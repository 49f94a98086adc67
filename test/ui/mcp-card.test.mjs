// Issue #27 item 2 in the real workbench (code-server + Chromium): the reference "everything" MCP server
// from npm, configured in the user's arbor.mcp.servers, runs (the status bar says MCP 1/1); the scripted
// model calls its echo tool with markup in the argument and its tiny-image tool; each card asks with the
// exact arguments, is approved, and shows the server, the tool, the text (markup as text) and the image.
// At the default ~300 px side bar and in a wide editor tab; screenshots go to test-results/.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorChats, readyChat, runCommand, screenshot, setColorTheme } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';
import { repoRoot } from '../harness/paths.mjs';

const everything = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const MARKUP = 'hello <b>bold?</b> <img src=x onerror=alert(1)>';

const { wb, llm } = useFakeLlmWorkbench('mcp-card', {
  sessionsDir: mkdtempSync(join(tmpdir(), 'arbor-ui-mcp-')),
  settings: () => ({ 'arbor.mcp.servers': { everything: { command: process.execPath, args: [everything, 'stdio'] } } }),
});

async function serverRunning(page) {
  await page.locator('#workbench\\.parts\\.statusbar', { hasText: 'MCP 1/1' }).waitFor({ timeout: 60_000 });
}

/** Sends a prompt whose scripted reply calls echo and the tiny image; approves both cards after screenshots. */
async function mcpTurn(page, doc, where) {
  llm.server.enqueue(
    { text: 'Calling the MCP server.', toolCalls: [
      { id: `call_echo_${where}`, name: 'everything_echo', input: { message: MARKUP } },
      { id: `call_img_${where}`, name: 'everything_get-tiny-image', input: {} },
    ] },
    { text: `The server answered (${where}).` },
  );
  const input = doc.locator('#prompt-input textarea');
  await input.fill('Use the everything server');
  await input.press('Enter');
  const echo = doc.locator(`.tool-card[data-tool="call_echo_${where}"]`);
  await echo.locator('.approval').waitFor({ timeout: 30_000 });
  await echo.scrollIntoViewIfNeeded();
  assert.equal(await echo.locator('.tool-name').innerText(), 'everything_echo');
  assert.ok((await echo.innerText()).includes(MARKUP), 'the card shows the exact argument, markup as text');
  assert.equal(await echo.locator('b, img').count(), 0, 'no markup from the arguments became elements');
  await screenshot(page, `mcp-card-asking-${where}`);
  await echo.locator('vscode-button[data-action="approve"]').click();
  const image = doc.locator(`.tool-card[data-tool="call_img_${where}"]`);
  await image.locator('.approval').waitFor({ timeout: 30_000 });
  await image.locator('vscode-button[data-action="approve"]').click();
  await doc.locator('.msg-assistant', { hasText: `The server answered (${where}).` }).waitFor({ timeout: 30_000 });
  assert.match(await echo.locator('.tool-traits').innerText(), /from MCP server everything/, 'the card names the server');
  assert.equal(await echo.locator('.tool-origin').innerText(), 'MCP tool echo', 'and the tool as the server names it');
  await echo.locator('details.tool-section summary', { hasText: 'Result' }).click();
  assert.ok((await echo.locator('details.tool-section[open] pre').last().innerText()).includes(`Echo: ${MARKUP}`), 'the result is the server\'s text, as text');
  assert.equal(await echo.locator('b, img').count(), 0, 'no markup from the result became elements');
  const thumb = image.locator('.message-image img');
  await thumb.waitFor({ timeout: 10_000 });
  assert.match(await thumb.getAttribute('src'), /^data:image\/png;base64,/);
  await image.scrollIntoViewIfNeeded();
  await screenshot(page, `mcp-card-result-${where}`);
  assert.equal(await doc.locator('#app').getAttribute('data-csp-violations'), null, 'no CSP violations');
}

wb.test('an MCP tool card asks with the exact arguments and shows the result at the default side bar width', async (page) => {
  const chat = await readyChat(page);
  await serverRunning(page);
  await mcpTurn(page, chat, 'sidebar');
}, { timeout: 180_000 });

wb.test('the same in a wide editor tab', async (page) => {
  await readyChat(page);
  await serverRunning(page);
  await runCommand(page, 'Arbor: Open Chat in Editor');
  await runCommand(page, 'View: Close Primary Side Bar');
  const [tab] = await editorChats(page, 1);
  await tab.doc.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  await mcpTurn(page, tab.doc, 'editor');
}, { timeout: 180_000 });

for (const [theme, kind, tag] of [
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
]) {
  wb.test(`the MCP result card in the editor tab in ${tag}`, async (page) => {
    await editorChats(page, 1);
    await setColorTheme(page, theme, kind);
    const [tab] = await editorChats(page, 1);
    const card = tab.doc.locator('.tool-card[data-tool="call_img_editor"]');
    await card.locator('.tool-origin').waitFor({ timeout: 30_000 });
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, `mcp-card-result-editor-${tag}`);
  });
}
