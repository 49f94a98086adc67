// Issue #19: `npm start` shows a newcomer Arbor's walkthrough, not a bare workbench. The workbench starts
// as scripts/start.mjs starts it (walkthroughs may open on install) and nothing of Arbor is touched: the
// walkthrough is open on its own. It opens once: closed and reloaded, it stays closed.
// Screenshots: test-results/walkthrough-<theme>.png.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readyChat, reloadWindow, runCommand, screenshot, setColorTheme } from '../harness/browser.mjs';
import { THEMES } from '../harness/themes.mjs';
import { useWorkbench } from '../harness/ui.mjs';

const wb = useWorkbench('walkthrough', { settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true, 'workbench.colorTheme': 'Default Dark Modern' } });

/** How many times Arbor's log (every Arbor.log under the user data) says it opened the walkthrough. */
function openedInLog(server) {
  const logs = readdirSync(server.dirs.userData, { recursive: true }).filter((f) => String(f).endsWith('Arbor.log'));
  return logs.map((f) => readFileSync(join(server.dirs.userData, String(f)), 'utf8').split('\n').filter((l) => l.includes('walkthrough opened')).length).reduce((a, b) => a + b, 0);
}

const walkthrough = (page) => page.locator('.part.editor .gettingStartedSlideDetails', { hasText: 'Get started with Arbor' });

wb.test('the walkthrough is open after the first start, without opening Arbor', async (page) => {
  await walkthrough(page).first().waitFor({ timeout: 60_000 });
  await page.locator('.part.editor', { hasText: 'Pick a provider or the offline demo model' }).first().waitFor();
  assert.equal(await page.locator('.part.editor .tab.active').count() > 0, true, 'it is an editor tab');
  await screenshot(page, 'walkthrough-dark');
});

wb.test('in light and high-contrast themes as well', async (page) => {
  for (const [theme, kind, tag] of THEMES.slice(1)) {
    await readyChat(page);
    await setColorTheme(page, theme, kind);
    await walkthrough(page).first().waitFor();
    await screenshot(page, `walkthrough-${tag}`);
  }
  await setColorTheme(page, THEMES[0][0], THEMES[0][1]);
});

// Issue #28: the walkthrough names the editor entry points and Retry (its "Start from your code" step).
wb.test('the "Start from your code" step shows the editor entry points and Retry', async (page) => {
  await page.locator('.part.editor .getting-started-step', { hasText: 'Start from your code' }).first().click();
  await page.locator('.part.editor', { hasText: 'Send the selected lines' }).first().waitFor({ timeout: 20_000 });
  // the step's Markdown is drawn in a webview of its own: find the frame that holds it
  const deadline = Date.now() + 30_000;
  let text = '';
  while (Date.now() < deadline && !text.includes('Retry')) {
    for (const frame of page.frames()) {
      const body = await frame.locator('body').innerText({ timeout: 1000 }).catch(() => '');
      if (body.includes('Add Selection to Chat') && body.includes('Fix with')) text = body;
    }
    if (!text.includes('Retry')) await page.waitForTimeout(300);
  }
  for (const words of ['Add Selection to Chat', 'Fix with', 'Open Chat in Editor', 'New Chat in Editor', 'Retry with another']) {
    assert.ok(text.includes(words), `the step names ${words}: ${text.slice(0, 400)}`);
  }
  // a button whose command has a keybinding adds a "Tip: Use keyboard shortcut" line that did not wrap and
  // widened the step: its description was cut at the column's edge
  const step = page.locator('.part.editor .getting-started-step.expanded').first();
  const fit = await step.evaluate((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth }));
  assert.ok(fit.scrollWidth <= fit.clientWidth + 1, `the step's text fits its column: ${JSON.stringify(fit)}`);
  await screenshot(page, 'walkthrough-start-from-editor');
});

wb.test('it opens only once: closed, then reloaded, it stays closed', async (page, server) => {
  assert.equal(openedInLog(server), 1, 'opened on the first activation');
  await runCommand(page, 'View: Close All Editors');
  await walkthrough(page).first().waitFor({ state: 'detached' });
  await reloadWindow(page);
  // the chat being ready means Arbor activated (where the walkthrough would be opened)
  await readyChat(page);
  await runCommand(page, 'Arbor: Open Chat');
  console.log(`# figures walkthrough: opened ${openedInLog(server)} time(s) in the log, ${await walkthrough(page).count()} walkthrough editor(s) after the reload`);
  assert.equal(openedInLog(server), 1, 'not opened again on the second activation');
  assert.equal(await walkthrough(page).count(), 0, 'no walkthrough after the reload');
});
