// UI tests of the native surfaces in Chromium: the Sessions view opens a pre-written two-branch session,
// the Session Tree's context menu "Switch Here with Summary…" → "Summarize with my instructions" puts a
// branch summary (from the fake LLM) at the new position while the old branch stays; Switch Branch from
// the palette; the status bar meter opens Compact Session; Compact Session with instructions adds the
// compaction marker; the walkthrough opens.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandPane, openArborContainer, sidebarPane } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-sessions-'));
const filler = 'The bookshop keeps its inventory in a JSON file and the checkout flow needs tests. '.repeat(60);
const { at, user, assistant: seededAssistant } = seedEntries('2025-01-01T00:00:00.000Z');
const assistant = (id, parentId, text, tokens) => seededAssistant(id, parentId, text, { tokens });

/** u1 → a1 ┬ u2 "Try approach Alpha" → a2        (old branch)
 *           └ u3 "Try approach Beta" → a3 → … → a7 (current, long enough to compact) */
function writeSession() {
  const entries = [
    user('u1', null, 'Plan the checkout tests'),
    assistant('a1', 'u1', `Two approaches come to mind. ${filler}`, 1500),
    user('u2', 'a1', 'Try approach Alpha'),
    assistant('a2', 'u2', `Alpha failed because the fixtures were stale. ${filler}`, 3000),
    user('u3', 'a1', 'Try approach Beta'),
    assistant('a3', 'u3', `Beta works so far. ${filler}`, 3000),
  ];
  let parent = 'a3';
  for (let i = 4; i <= 7; i++) {
    entries.push(user(`u${i}`, parent, `Step ${i} of Beta ${filler}`));
    entries.push(assistant(`a${i}`, `u${i}`, `Done with step ${i}. ${filler}`, 3000 + i * 2000));
    parent = `a${i}`;
  }
  const header = { type: 'session', version: 3, id: 'ui-two-branches', timestamp: at(), cwd: sessionsDir };
  writeFileSync(join(sessionsDir, '2025-01-01T00-00-00-000Z_ui-two-branches.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');
}

writeSession();
const { wb, llm } = useFakeLlmWorkbench('surfaces', { sessionsDir, settings: () => ({ 'arbor.compaction.keepRecentTokens': 2000 }) });

const quickInput = (page) => page.locator('.quick-input-widget');

/** Runs a palette command whose own QuickPick/InputBox follows (runCommand waits for the palette to close). */
async function runPickerCommand(page, title) {
  await page.keyboard.press('F1');
  const box = quickInput(page).locator('.quick-input-box input');
  await box.waitFor({ state: 'visible', timeout: 5000 });
  await box.fill(`>${title}`);
  await quickInput(page).locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: title }) }).first().waitFor({ timeout: 5000 });
  await page.keyboard.press('Enter');
  // The command's own picker replaces the palette: wait until the "> title" text is gone.
  await page.waitForFunction(() => !document.querySelector('.quick-input-widget .quick-input-box input')?.value.startsWith('>'), null, { timeout: 10_000 });
}

async function pickQuick(page, text) {
  const row = quickInput(page).locator('.monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout: 10_000 });
  await row.click();
}

function treeRow(page, text) {
  return sidebarPane(page, 'Session Tree').locator('.monaco-list-row', { hasText: text }).first();
}

/** Right-clicks `row`, runs the context-menu item `item` and waits for the QuickPick row `expect` (retries). */
async function contextMenu(page, row, item, expect) {
  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await row.click({ button: 'right' });
      const entry = page.locator('.context-view .action-menu-item', { hasText: item }).first();
      await entry.waitFor({ timeout: 5000 });
      await entry.hover();
      await entry.click();
      await quickInput(page).locator('.monaco-list-row', { hasText: expect }).first().waitFor({ timeout: 5000 });
      return;
    } catch (error) {
      lastError = error;
      await page.keyboard.press('Escape').catch(() => {});
    }
  }
  throw lastError;
}

/** Expands a collapsed tree row until `child` shows (keyboard: select, then ArrowRight; retried). */
async function expandRow(page, row, child) {
  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await row.click();
      await page.keyboard.press('ArrowRight');
      await child.waitFor({ timeout: 5000 });
      return;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function openSeededSession(page) {
  await openArborContainer(page);
  await expandPane(page, 'Sessions');
  const row = sidebarPane(page, 'Sessions').locator('.monaco-list-row', { hasText: 'Plan the checkout tests' }).first();
  await row.waitFor({ timeout: 20_000 });
  await row.click();
  await expandPane(page, 'Session Tree');
  await treeRow(page, 'Try approach Beta').waitFor({ timeout: 20_000 });
}

wb.test('Session Tree: Switch Here with Summary… → Summarize with my instructions', async (page) => {
  await openSeededSession(page);
  const old = treeRow(page, 'Try approach Alpha');
  await old.waitFor();
  // Switch to the old branch's reply (an assistant entry: it becomes the leaf).
  const reply = treeRow(page, 'Alpha failed because');
  await expandRow(page, old, reply);
  await contextMenu(page, reply, 'Switch Here with Summary…', 'Summarize with my instructions');
  await pickQuick(page, 'Summarize with my instructions');
  const input = quickInput(page).locator('.quick-input-box input');
  await input.waitFor();
  await input.fill('Focus on what Beta found');
  await page.keyboard.press('Enter');
  // The summary marker appears at the new position, and the branch we left is still in the tree.
  await treeRow(page, 'Branch summary').waitFor({ timeout: 30_000 });
  await treeRow(page, 'Try approach Beta').waitFor();
  await treeRow(page, 'Try approach Alpha').waitFor();
  const summaryRow = treeRow(page, 'Branch summary');
  assert.match(await summaryRow.innerText(), /current/);
  const requests = await (await fetch(`${llm.server.url}/__admin/requests`)).json();
  assert.ok(JSON.stringify(requests).includes('Focus on what Beta found'), 'the instructions reached the summarizer');
});

wb.test('Switch Branch from the palette: QuickPick of tips, no summary', async (page) => {
  await runPickerCommand(page, 'Arbor: Switch Branch');
  await pickQuick(page, 'Done with step 7');
  await pickQuick(page, 'No summary');
  const row = treeRow(page, 'Done with step 7');
  await row.waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('.monaco-list-row')].some((r) => r.textContent?.includes('Done with step 7') && r.textContent.includes('current')), null, { timeout: 10_000 });
});

wb.test('the status bar meter opens Compact Session', async (page) => {
  const meter = page.locator('#arbor\\.contextMeter, .statusbar-item[id*="arbor.contextMeter"]').first();
  await meter.waitFor({ timeout: 15_000 });
  assert.match(await meter.innerText(), /\d+(\.\d)?k \/ 128k/);
  await meter.click();
  const input = quickInput(page).locator('.quick-input-box input');
  await input.waitFor();
  assert.match(await quickInput(page).innerText(), /Compact Session/);
  await page.keyboard.press('Escape');
});

wb.test('Compact Session from the palette with instructions: the marker appears in the tree', async (page) => {
  await runPickerCommand(page, 'Arbor: Compact Session');
  const input = quickInput(page).locator('.quick-input-box input');
  await input.waitFor();
  await input.fill('Keep the Beta decisions');
  await page.keyboard.press('Enter');
  await pickQuick(page, 'Compact');
  await treeRow(page, 'Compaction summary').waitFor({ timeout: 90_000 });
  await page.waitForFunction(() => [...document.querySelectorAll('.monaco-list-row')].some((r) => r.textContent?.includes('Compaction summary') && r.textContent.includes('current')), null, { timeout: 10_000 });
  const requests = await (await fetch(`${llm.server.url}/__admin/requests`)).json();
  assert.ok(JSON.stringify(requests).includes('Keep the Beta decisions'), 'the focus instructions reached the summarizer');
}, { timeout: 120_000 });

wb.test('the walkthrough opens', async (page) => {
  await runPickerCommand(page, 'Welcome: Open Walkthrough');
  await pickQuick(page, 'Get started with Arbor');
  await page.locator('.getting-started-category, .gettingStartedSlideDetails', { hasText: 'Get started with Arbor' }).first().waitFor({ timeout: 15_000 });
  await page.locator('text=Pick a provider or the offline demo model').first().waitFor();
});
