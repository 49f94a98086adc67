// The four colour themes UI tests check (dark, light, high-contrast dark and light), and switching to one
// through "Preferences: Color Theme" (the palette, as a user would) until the chat webview follows.
import { chatFrame } from './browser.mjs';

/** [theme, body class the webview gets, short tag for screenshot names] */
export const THEMES = [
  ['Default Dark Modern', 'vscode-dark', 'dark'],
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
  ['Default High Contrast Light', 'vscode-high-contrast-light', 'hc-light'],
];

/** Switches the colour theme through "Preferences: Color Theme" and waits for the webview to follow. */
export async function setTheme(page, theme, kind) {
  const quick = page.locator('.quick-input-widget');
  const box = quick.locator('.quick-input-box input');
  const label = theme.replace(/^Default /, '').replace(/^High Contrast$/, 'Dark High Contrast').replace(/^High Contrast Light$/, 'Light High Contrast');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await page.keyboard.press('F1');
      await box.waitFor({ state: 'visible', timeout: 5000 });
      await box.fill('>Preferences: Color Theme');
      await quick.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }) }).first().click({ timeout: 5000 });
      await quick.locator('.monaco-list-row', { hasText: /Modern/ }).first().waitFor({ timeout: 5000 });
      await box.fill(label);
      await quick.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^(Default )?${label}$`) }) }).first().click({ timeout: 5000 });
      await quick.waitFor({ state: 'hidden', timeout: 5000 });
      break;
    } catch {
      await page.keyboard.press('Escape').catch(() => {});
    }
  }
  const chat = chatFrame(page);
  await chat.locator(`body.${kind}`).waitFor({ timeout: 30_000 });
  return chat;
}
