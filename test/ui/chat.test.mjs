// UI end-to-end tests: the real workbench (code-server) in Debian's Chromium, driven by Playwright.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  chatFrame, expandPane, openArborContainer, readyChat, runCommand, sidebar, sidebarPane,
} from '../harness/browser.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { useWorkbench } from '../harness/ui.mjs';

const version = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')).version;
const wb = useWorkbench('chat');


wb.test('the activity bar opens the Arbor container with Chat and Session Tree', async (page) => {
  await openArborContainer(page);
  const headers = await sidebar(page).locator('.pane-header .title').allInnerTexts();
  assert.ok(headers.some((h) => /chat/i.test(h)), `Chat pane present in ${JSON.stringify(headers)}`);
  assert.ok(headers.some((h) => /session tree/i.test(h)), `Session Tree pane present in ${JSON.stringify(headers)}`);
});

wb.test('the chat webview renders toolkit components in the theme colours', async (page) => {
  const chat = await readyChat(page, { openContainer: false });
  const look = await chat.locator('body').evaluate(() => {
    const probe = (value) => {
      const el = document.createElement('div');
      el.style.color = value;
      document.body.append(el);
      const color = getComputedStyle(el).color;
      el.remove();
      return color;
    };
    // A secondary (filled) button; the header's are icon buttons, transparent by design.
    const button = document.querySelector('vscode-button[appearance="secondary"]');
    const inner = button?.shadowRoot?.querySelector('button');
    // FAST components paint on the host element; the shadow <button> is transparent on top of it.
    return {
      buttonDefined: customElements.get('vscode-button') !== undefined,
      tagDefined: customElements.get('vscode-tag') !== undefined,
      dividerDefined: customElements.get('vscode-divider') !== undefined,
      hasShadowButton: inner !== null && inner !== undefined,
      buttonBackground: button ? getComputedStyle(button).backgroundColor : '',
      buttonColor: inner ? getComputedStyle(inner).color : '',
      themeSecondaryForeground: probe('var(--vscode-button-secondaryForeground)'),
      themeSecondaryBackground: probe('var(--vscode-button-secondaryBackground)'),
      bodyColor: getComputedStyle(document.body).color,
      themeForeground: probe('var(--vscode-foreground)'),
      foregroundVariable: getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground').trim(),
      cspViolations: document.getElementById('app')?.dataset.cspViolations ?? '0',
    };
  });
  assert.equal(look.buttonDefined, true, 'vscode-button is a defined custom element');
  assert.equal(look.tagDefined, true, 'vscode-tag is a defined custom element');
  assert.equal(look.dividerDefined, true, 'vscode-divider is a defined custom element');
  assert.equal(look.hasShadowButton, true, 'vscode-button rendered its shadow DOM');
  assert.notEqual(look.foregroundVariable, '', 'VS Code injected its theme variables');
  assert.equal(look.bodyColor, look.themeForeground, 'body text uses --vscode-foreground');
  assert.equal(look.buttonBackground, look.themeSecondaryBackground, 'toolkit button uses the theme colour');
  assert.equal(look.buttonColor, look.themeSecondaryForeground, 'toolkit button text uses the theme colour');
  assert.notEqual(look.buttonBackground, 'rgba(0, 0, 0, 0)');
  assert.equal(look.cspViolations, '0', 'nothing was blocked by the Content-Security-Policy');
});

wb.test('the ready handshake brings the host state into the webview header', async (page, server) => {
  const chat = await readyChat(page, { openContainer: false });
  const folder = server.workspace.split('/').pop();
  await chat.locator('#workspace-label', { hasText: folder }).waitFor();
  assert.equal(await chat.locator('#version-label').innerText(), `Arbor v${version}`);
  // With no model configured the host falls back to the offline demo model and names it.
  assert.match(await chat.locator('#model-label').innerText(), /\S/);
  assert.equal(await chat.locator('#trust-tag').isHidden(), true, 'trusted workspace: no Restricted Mode tag');
  await chat.locator('#welcome', { hasText: 'Welcome to Arbor' }).waitFor();
});

wb.test('the webview drops a malformed message instead of acting on it', async (page) => {
  const chat = await readyChat(page, { openContainer: false });
  const before = await chat.locator('#workspace-label').innerText();
  await chat.locator('body').evaluate(() => {
    window.postMessage({ type: 'state', state: { extensionVersion: 42 } }, '*');
    window.postMessage({ type: 'bogus' }, '*');
  });
  await chat.locator('#app[data-dropped="2"]').waitFor();
  assert.equal(await chat.locator('#workspace-label').innerText(), before, 'header unchanged');
  assert.equal(await chat.locator('#version-label').innerText(), `Arbor v${version}`);
});

wb.test('Arbor: Open Chat from the command palette reveals the chat', async (page) => {
  // Leave the Arbor container first so the command has something to do.
  await page.locator('.part.activitybar .action-item .action-label[aria-label^="Explorer"]').click();
  await sidebar(page).locator('.composite.title', { hasText: /explorer/i }).waitFor();
  await page.locator('.part.editor').click();
  await runCommand(page, 'Arbor: Open Chat');
  await sidebar(page).locator('.composite.title', { hasText: /arbor/i }).waitFor();
  const chat = chatFrame(page);
  await chat.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  assert.equal(await sidebarPane(page, 'Chat').locator('.pane-header').getAttribute('aria-expanded'), 'true');
});

wb.test('the Session Tree shows its welcome message until a session exists', async (page) => {
  await openArborContainer(page);
  await expandPane(page, 'Session Tree');
  const welcome = sidebarPane(page, 'Session Tree').locator('.welcome-view-content');
  await welcome.waitFor();
  const text = await welcome.innerText();
  assert.match(text, /No session yet/);
  await welcome.locator('.monaco-button', { hasText: 'Open Chat' }).waitFor();
});

wb.test('the webview Session Tree button reaches the host, which focuses the tree', async (page) => {
  const chat = await readyChat(page, { openContainer: false });
  const treeHeader = sidebarPane(page, 'Session Tree').locator('.pane-header');
  if ((await treeHeader.getAttribute('aria-expanded')) === 'true') await treeHeader.click();
  await sidebarPane(page, 'Session Tree').locator('.pane-header[aria-expanded="false"]').waitFor();
  await chat.locator('vscode-button#show-session-tree').click();
  await sidebarPane(page, 'Session Tree').locator('.pane-header[aria-expanded="true"]').waitFor();
});
