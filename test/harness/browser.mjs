// Playwright helpers for driving the real workbench in Debian's Chromium.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, runsDir, testResultsDir } from './paths.mjs';
import { removeOnExit } from './processes.mjs';
import { retry } from './retry.mjs';

/** Launches headless Chromium with a fresh profile (under the run dir); close() removes it. */
export async function launchBrowser({ profileParent = runsDir } = {}) {
  mkdirSync(profileParent, { recursive: true });
  const profile = mkdtempSync(join(profileParent, 'chromium-'));
  const releaseProfile = removeOnExit(profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    env: { ...process.env, XDG_CONFIG_HOME: join(profile, 'xdg-config'), XDG_CACHE_HOME: join(profile, 'xdg-cache') },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      releaseProfile();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * VS Code >= ~1.100 honours `payload` dev parameters (extensionDevelopmentPath, extensionTestsPath)
 * only in smoke-test-driver mode, which code-server cannot switch on; patch the value the workbench reads.
 * Side effect: notification toasts are suppressed (read the Notification Center instead).
 */
export async function allowDevPayload(page) {
  await page.addInitScript(() => {
    const original = Element.prototype.getAttribute;
    Element.prototype.getAttribute = function (name) {
      const value = original.call(this, name);
      if (name === 'data-settings' && this.id === 'vscode-workbench-web-configuration' && value) {
        const config = JSON.parse(value);
        config.developmentOptions = { ...(config.developmentOptions ?? {}), enableSmokeTestDriver: true };
        return JSON.stringify(config);
      }
      return value;
    };
  });
}

/** Opens the workbench and waits until it is usable (workbench rendered, Arbor in the activity bar). */
export async function openWorkbench(page, server, { timeout = 60_000 } = {}) {
  await page.goto(server.workbenchUrl());
  await page.locator('.monaco-workbench').waitFor({ timeout });
  await arborActivityTab(page).waitFor({ timeout });
}

/**
 * Reloads the window through the workbench's own shutdown (Developer: Reload Window), which saves which
 * editors are open; a bare page reload may leave before that is saved, and the restored window then lacks a tab.
 */
export async function reloadWindow(page, { timeout = 60_000 } = {}) {
  const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 30_000 });
  await runCommand(page, 'Developer: Reload Window');
  await navigated;
  await page.locator('.monaco-workbench').waitFor({ timeout });
  await arborActivityTab(page).waitFor({ timeout });
}

export function arborActivityTab(page) {
  return page.locator('.part.activitybar .action-item .action-label[aria-label="Arbor"]');
}

export function sidebar(page) {
  return page.locator('#workbench\\.parts\\.sidebar');
}

/** A pane of the side bar by its header title (e.g. "Chat", "Session Tree"). */
export function sidebarPane(page, title) {
  return sidebar(page).locator('.pane', { has: page.locator('.pane-header', { hasText: title }) });
}

/** Expands a side-bar pane if it is collapsed. */
export async function expandPane(page, title) {
  const header = sidebarPane(page, title).locator('.pane-header');
  await header.waitFor();
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
}

/** Opens the Arbor container from the activity bar (no-op if it is already showing). */
export async function openArborContainer(page) {
  const tab = arborActivityTab(page);
  await tab.waitFor();
  const title = sidebar(page).locator('.composite.title', { hasText: /arbor/i });
  // Arbor's tab can be the checked one while the side bar is hidden (a window reloaded with it closed):
  // then a click shows it. A click on the checked tab of a shown side bar hides it, so the click is made
  // only while the title is not visible, and again if a side bar still being laid out swallowed it.
  for (let attempt = 1; !(await title.isVisible()); attempt++) {
    await tab.click();
    if (await title.waitFor({ timeout: 10_000 }).then(() => true, () => attempt >= 3)) break;
  }
  await title.waitFor();
}

/**
 * The chat view's document: the outer webview iframe (picked by extension id; VS Code adds
 * `purpose=webviewView` only when the view was opened from its container, not via `<view>.focus`), then
 * the inner `#active-frame` that holds Arbor's HTML. Hidden views' iframes are removed, so the visible
 * Arbor webview is the chat view until Arbor opens other webviews.
 */
export function chatFrame(page) {
  return page
    .locator('iframe.webview.ready[src*="extensionId=arbor-dev.arbor"]:visible')
    .first()
    .contentFrame()
    .locator('iframe#active-frame')
    .contentFrame();
}

/** The Arbor webviews in the editor area (not the side bar), left to right, as their inner documents. */
export async function editorChats(page, count) {
  const frames = page.locator('iframe.webview.ready[src*="extensionId=arbor-dev.arbor"]:visible');
  const sidebarRight = await page.locator('#workbench\\.parts\\.sidebar').evaluate((e) => (e.offsetParent ? e.getBoundingClientRect().right : 0)).catch(() => 0);
  for (let attempt = 0; attempt < 60; attempt++) {
    const boxes = [];
    for (let i = 0; i < (await frames.count()); i++) {
      const box = await frames.nth(i).boundingBox();
      if (box && box.x >= sidebarRight - 1 && box.width > 0) boxes.push({ i, box });
    }
    if (boxes.length >= count) {
      boxes.sort((a, b) => a.box.x - b.box.x);
      return boxes.map(({ i, box }) => ({ box, doc: frames.nth(i).contentFrame().locator('iframe#active-frame').contentFrame() }));
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`expected ${count} Arbor chat(s) in the editor area`);
}

/**
 * The chat document once the webview finished the ready -> state handshake. `openContainer: false` for
 * tests whose point is that something else (a command) revealed the chat.
 */
export async function readyChat(page, { openContainer = true } = {}) {
  if (openContainer) await openArborContainer(page);
  await expandPane(page, 'Chat');
  const chat = chatFrame(page);
  await chat.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  return chat;
}

/** Settings that point Arbor at the fake LLM server's OpenAI-compatible endpoint as its model. */
export function fakeModelSettings(fake, { id = 'fake-gpt', name = 'Fake GPT' } = {}) {
  return {
    'arbor.models': [{ provider: 'fake', id, name, api: 'openai-compatible', baseUrl: fake.openaiBaseUrl, contextWindow: 128000, maxOutputTokens: 1024 }],
    'arbor.model': `fake/${id}`,
  };
}

/** Runs a command from the palette by its title, e.g. "Arbor: Open Chat" (retries if focus is stolen). */
export async function runCommand(page, title, { attempts = 3 } = {}) {
  let lastError;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await page.keyboard.press('F1');
      const quickInput = page.locator('.quick-input-widget');
      await quickInput.waitFor({ state: 'visible', timeout: 5000 });
      // fill(), never type(): keystrokes can stay inside a focused webview iframe.
      await quickInput.locator('.quick-input-box input').fill(`>${title}`);
      const row = quickInput.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: title }) }).first();
      await row.waitFor({ timeout: 5000 });
      await page.keyboard.press('Enter');
      await quickInput.waitFor({ state: 'hidden', timeout: 5000 });
      return;
    } catch (error) {
      lastError = error;
      await page.keyboard.press('Escape').catch(() => {});
    }
  }
  throw new Error(`could not run command "${title}": ${lastError?.message}`);
}

/**
 * Clicks an item of the open context menu. VS Code's menu items listen for the mouse-up only 100 ms after
 * they are rendered (so the right-click that opened the menu does not choose an item), and on a loaded
 * machine that timer fires late: a click that came too early is ignored and the menu stays open, so it is
 * clicked again until the menu closes.
 */
export async function clickMenuItem(page, label) {
  const menu = page.locator('.context-view .monaco-menu');
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.locator('.context-view .action-label', { hasText: label }).first().click();
    if (await menu.first().waitFor({ state: 'hidden', timeout: 2_000 }).then(() => true, () => false)) return;
  }
  throw new Error(`the context menu did not take the click on ${label}`);
}

/** Saves a full-page screenshot as test-results/<name>.png and returns its path. */
export async function screenshot(page, name) {
  mkdirSync(testResultsDir, { recursive: true });
  const path = join(testResultsDir, `${name.replace(/[^A-Za-z0-9_.-]+/g, '-')}.png`);
  await page.mouse.move(700, 880).catch(() => {}); // park the pointer on the status bar: no stray hovers
  await page.screenshot({ path });
  return path;
}

/** Switches the colour theme through "Preferences: Color Theme" and waits for the webview to follow. */
export async function setColorTheme(page, theme, kind) {
  const quick = page.locator('.quick-input-widget');
  const box = quick.locator('.quick-input-box input');
  const label = theme.replace(/^Default /, '').replace(/^High Contrast$/, 'Dark High Contrast').replace(/^High Contrast Light$/, 'Light High Contrast');
  await retry(`switching to ${theme}`, async () => {
    try {
      await page.keyboard.press('F1');
      await box.waitFor({ state: 'visible', timeout: 5000 });
      await box.fill('>Preferences: Color Theme');
      await quick.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }) }).first().click({ timeout: 5000 });
      await quick.locator('.monaco-list-row', { hasText: /Modern/ }).first().waitFor({ timeout: 5000 });
      await box.fill(label);
      await quick.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^(Default )?${label}$`) }) }).first().click({ timeout: 5000 });
      await quick.waitFor({ state: 'hidden', timeout: 5000 });
    } catch (error) {
      await page.keyboard.press('Escape').catch(() => {});
      throw error;
    }
  });
  const chat = chatFrame(page);
  await chat.locator(`body.${kind}`).waitFor({ timeout: 30_000 });
  return chat;
}

/**
 * Opens a pre-written session from the Sessions view (the row whose text contains `rowText`) and returns
 * the chat once it shows that session (its leaf is `leafId`); clicks again if the first click was lost.
 */
export async function openSessionFromList(page, rowText, leafId) {
  await openArborContainer(page);
  await expandPane(page, 'Sessions');
  const row = sidebarPane(page, 'Sessions').locator('.monaco-list-row', { hasText: rowText }).first();
  await row.waitFor({ timeout: 20_000 });
  const chat = await readyChat(page);
  await retry(`opening session "${rowText}"`, async () => {
    await row.click();
    await chat.locator(`#app[data-leaf="${leafId}"]`).waitFor({ timeout: 20_000 });
  });
  return chat;
}
