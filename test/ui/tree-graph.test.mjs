// Issue #19, the conversation tree drawn as a tree (real workbench, a pre-written branched session with a
// compaction and a branch summary): the chat's tree panel in Graph mode at the default ~300 px side bar,
// and the "Arbor: Open Conversation Tree" editor tab. Turns, lanes, marks and the active path are drawn;
// hover shows the turn's text; the arrow keys move along the tree and between branches; Enter switches
// through the switch dialog; zoom works. Screenshots of both in dark, light, high-contrast dark and
// high-contrast light go to test-results/tree-graph-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatFrame, openSessionFromList, reloadWindow, runCommand, screenshot, setColorTheme } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-graph-'));
const { at, user, assistant } = seedEntries('2025-04-01T09:00:00.000Z');

// Turns (a graph node each):  u1 ─┬─ u2 ─ b1 ─ u5          (the first branch, left behind)
//                                 └─ u3 ─ c1 ─ u4 (leaf)   (the active path)
const entries = [
  user('u1', null, 'Add a README intro for the bookshop'),
  assistant('a1', 'u1', 'The README now starts with a short intro.'),
  user('u2', 'a1', 'Now add a changelog entry'),
  assistant('a2', 'u2', 'The changelog has an entry for 1.1.'),
  { type: 'branch_summary', id: 'b1', parentId: 'a2', timestamp: at(), fromId: 'a4', summary: '## Goal\nA license file.\n\n## Done\nMIT license added.' },
  user('u5', 'b1', 'Back on the changelog: add the date'),
  assistant('a5', 'u5', 'The entry is dated now.'),
  user('u3', 'a1', 'Add a license file instead'),
  assistant('a3', 'u3', 'LICENSE added (MIT).'),
  {
    type: 'compaction', id: 'c1', parentId: 'a3', timestamp: at(),
    summary: '## Goal\nDocs for the bookshop.\n\n## Done\nREADME intro, license.', firstKeptEntryId: 'a3', tokensBefore: 42_000,
  },
  user('u4', 'c1', 'Continue with the tests'),
  assistant('a4', 'u4', 'The tests cover the README links now.'),
];
const header = { type: 'session', version: 3, id: 'ui-graph', timestamp: at(), cwd: sessionsDir };
writeFileSync(join(sessionsDir, '2025-04-01T09-00-00-000Z_ui-graph.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

const { wb } = useFakeLlmWorkbench('tree-graph', { sessionsDir });

const openSeeded = (page) => openSessionFromList(page, 'Add a README intro', 'a4');

/** The Conversation Tree tab's document (the webview whose page is the tree view). */
async function treeTab(page) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (await frame.$('#app[data-view="tree"][data-status="ready"]').catch(() => null)) return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error('the Conversation Tree tab did not load');
}

/** The text of the focused graph item in a frame. */
const focusedText = (frame) => frame.locator('html').evaluate(() => document.activeElement?.closest('[data-row]')?.textContent ?? '(nothing focused)');

/** What the graph draws: turns, lanes, marks, edges (all turns fit in view here). */
async function drawn(frame) {
  return frame.locator('html').evaluate(() => {
    const view = document.querySelector('.graph-view');
    const svg = view.querySelector('.graph-svg');
    return {
      turns: Number(view.dataset.turns),
      lanes: Number(view.dataset.lanes),
      labels: view.querySelectorAll('.graph-node').length,
      edges: svg.querySelectorAll('.edge').length,
      activeEdges: svg.querySelectorAll('.edge.active').length,
      compactions: svg.querySelectorAll('.node.compaction').length,
      summaries: svg.querySelectorAll('.node.summary').length,
      leafRings: svg.querySelectorAll('.leaf-ring').length,
      leaf: view.querySelector('.graph-node.leaf')?.textContent ?? '',
    };
  });
}

wb.test('the tree panel draws the session as a graph of turns with lanes, marks and the active path', async (page) => {
  const chat = await openSeeded(page);
  await chat.locator('#toggle-tree').click();
  await chat.locator('.tree-mode-graph').click();
  await chat.locator('#tree-panel .graph-node.leaf').waitFor();
  const graph = await drawn(chat);
  console.log(`# figures tree-graph panel: ${JSON.stringify(graph)}`);
  assert.equal(graph.turns, 7, 'one node per turn');
  assert.equal(graph.labels, 7, 'every turn labelled');
  assert.ok(graph.lanes >= 2, 'the branch has a lane of its own');
  assert.equal(graph.edges, 6, 'an edge per parent → child turn');
  assert.equal(graph.activeEdges, 3, 'u1 → u3 → c1 → u4 highlighted');
  assert.equal(graph.compactions, 1);
  assert.equal(graph.summaries, 1);
  assert.equal(graph.leafRings, 1);
  assert.match(graph.leaf, /Continue with the tests/);
  // labels stay readable at 300 px: one line, not squeezed to nothing
  const title = await chat.locator('#tree-panel .graph-node.leaf .graph-title').evaluate((e) => ({ width: e.getBoundingClientRect().width, height: e.getBoundingClientRect().height, line: parseFloat(getComputedStyle(e).lineHeight) || 18 }));
  console.log(`# figures tree-graph panel label: ${JSON.stringify(title)}`);
  assert.ok(title.width >= 100, `the label has room: ${title.width} px`);
  // hover preview: the turn's text
  await chat.locator('#tree-panel .graph-node', { hasText: 'Now add a changelog entry' }).hover();
  const tip = chat.locator('#tree-panel .graph-tip');
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.innerText(), /Now add a changelog entry[\s\S]*The changelog has an entry/);
});

wb.test('arrow keys move along the graph and Enter switches there through the switch dialog', async (page) => {
  const chat = chatFrame(page);
  await chat.locator('#tree-panel .graph-node.leaf').focus();
  await page.keyboard.press('ArrowUp');
  assert.match(await focusedText(chat), /Compaction/, 'Up: the parent turn (the compaction)');
  await page.keyboard.press('ArrowUp');
  assert.match(await focusedText(chat), /Add a license file instead/);
  await page.keyboard.press('ArrowLeft');
  assert.match(await focusedText(chat), /Now add a changelog entry/, 'Left: the sibling branch');
  await page.keyboard.press('ArrowDown');
  assert.match(await focusedText(chat), /Branch summary/, 'Down: its child turn');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  const dialog = chat.locator('#branch-dialog');
  await dialog.waitFor({ state: 'visible' });
  await chat.locator('#switch-none').click();
  await chat.locator('#app[data-leaf="a2"]').waitFor({ timeout: 20_000 });
  await chat.locator('#tree-panel .graph-node.leaf', { hasText: 'Now add a changelog entry' }).waitFor();
  // Space shows the turn's entries; an entry can be switched to as well
  await chat.locator('#tree-panel .graph-node.leaf').focus();
  await page.keyboard.press('Space');
  await chat.locator('#tree-panel .graph-entry').first().waitFor();
  assert.equal(await chat.locator('#tree-panel .graph-entry').count(), 2, 'u2 and a2');
  await page.keyboard.press('Space');
  assert.equal(await chat.locator('#tree-panel .graph-entry').count(), 0);
});

wb.test('zoom changes the row size; the minimap shows once the graph overflows, and scrolls it', async (page) => {
  const chat = chatFrame(page);
  const panel = chat.locator('#tree-panel');
  const height = () => panel.locator('.graph-node.leaf').evaluate((e) => e.getBoundingClientRect().height);
  const fits = () => panel.locator('.graph-scroll').evaluate((e) => e.scrollHeight <= e.clientHeight);
  const before = await height();
  assert.ok(await fits(), 'seven turns fit the panel at 100%');
  assert.equal(await panel.locator('.graph-minimap').isHidden(), true, 'no minimap while everything is in view');
  const zoomIn = panel.locator('.graph-tool[aria-label="Zoom in"]');
  await zoomIn.click();
  await panel.locator('.graph-zoom-label', { hasText: '120%' }).waitFor();
  assert.ok((await height()) > before, 'rows grow with the zoom');
  for (let i = 0; i < 3; i++) await zoomIn.click();
  await panel.locator('.graph-zoom-label', { hasText: '180%' }).waitFor();
  assert.equal(await fits(), false, 'at 180% the graph overflows the panel');
  const minimap = panel.locator('.graph-minimap');
  await minimap.waitFor({ state: 'visible' });
  await chat.locator('#tree-panel .graph-minimap-canvas').evaluate((c) => new Promise((resolve) => {
    const check = () => (c.width > 0 ? resolve() : requestAnimationFrame(check));
    check();
  }));
  const box = await minimap.boundingBox();
  const scrollTop = () => panel.locator('.graph-scroll').evaluate((e) => e.scrollTop);
  await panel.locator('.graph-scroll').evaluate((e) => { e.scrollTop = 0; });
  // (the panel's resize grip sits in the bottom corner)
  await minimap.click({ position: { x: box.width / 2, y: box.height * 0.8 } });
  assert.ok((await scrollTop()) > 0, 'a click low on the minimap scrolls the graph down');
  for (let i = 0; i < 4; i++) await panel.locator('.graph-tool[aria-label="Zoom out"]').click();
  await panel.locator('.graph-zoom-label', { hasText: '100%' }).waitFor();
});

wb.test('Arbor: Open Conversation Tree shows the graph in an editor tab; keys and Enter switch from there', async (page) => {
  await runCommand(page, 'Arbor: Open Conversation Tree');
  const tab = await treeTab(page);
  await tab.locator('.graph-node.leaf', { hasText: 'Now add a changelog entry' }).waitFor();
  const graph = await drawn(tab);
  console.log(`# figures tree-graph tab: ${JSON.stringify(graph)}`);
  assert.equal(graph.turns, 7);
  await tab.locator('.graph-node.leaf').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.match(await focusedText(tab), /Back on the changelog/);
  await page.keyboard.press('Enter');
  await tab.locator('#branch-dialog').waitFor({ state: 'visible' });
  await tab.locator('#switch-none').click();
  await tab.locator('#app[data-leaf="a5"]').waitFor({ timeout: 20_000 });
  await chatFrame(page).locator('#app[data-leaf="a5"]').waitFor({ timeout: 20_000 });
});

wb.test('switching to a user message from the tab puts its text into the chat input to edit', async (page) => {
  const tab = await treeTab(page);
  await tab.locator('.graph-node.leaf').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  assert.match(await focusedText(tab), /Back on the changelog: add the date/, 'the turn\'s first entry: the user message');
  await page.keyboard.press('Enter');
  await tab.locator('#branch-dialog').waitFor({ state: 'visible' });
  await tab.locator('#switch-none').click();
  // a user message is switched to by going to its parent, with its text ready to edit and resend
  await tab.locator('#app[data-leaf="b1"]').waitFor({ timeout: 20_000 });
  const chat = chatFrame(page);
  await chat.locator('#app[data-leaf="b1"]').waitFor({ timeout: 20_000 });
  await chat.locator('#prompt-input').evaluate((input) => new Promise((resolve) => {
    const check = () => (input.value.includes('Back on the changelog: add the date') ? resolve() : requestAnimationFrame(check));
    check();
  }));
  await chat.locator('#prompt-input').evaluate((e) => { e.value = ''; });
});

for (const [theme, kind, tag] of [
  ['Default Dark Modern', 'vscode-dark', 'dark'],
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
  ['Default High Contrast Light', 'vscode-high-contrast-light', 'hc-light'],
]) {
  wb.test(`the graph in the side bar and in the editor tab, ${tag}`, async (page) => {
    await setColorTheme(page, theme, kind);
    const tab = await treeTab(page);
    await tab.locator(`body.${kind}`).waitFor({ timeout: 30_000 });
    await tab.locator('.graph-node.leaf').waitFor();
    await chatFrame(page).locator('#tree-panel .graph-node.leaf').waitFor();
    await screenshot(page, `tree-graph-theme-${tag}`);
  });
}

wb.test('after a window reload the Conversation Tree tab comes back on its session, drawn', async (page) => {
  await reloadWindow(page);
  // the tab (src/vscode/tree-tabs.ts, its serializer) waits for the side bar's chat to reopen the session
  const tab = await treeTab(page);
  await tab.locator('#app[data-leaf="b1"]').waitFor({ timeout: 30_000 });
  await tab.locator('.graph-node', { hasText: 'Back on the changelog' }).first().waitFor();
  const graph = await drawn(tab);
  console.log(`# figures tree-graph tab after reload: ${JSON.stringify(graph)}`);
  assert.equal(graph.turns, 7, 'the whole tree of the session is drawn again');
  const frame = page.locator('iframe.webview.ready[src*="extensionId=arbor-dev.arbor"]:visible');
  const widths = await frame.evaluateAll((frames) => frames.map((f) => Math.round(f.getBoundingClientRect().width)));
  assert.ok(Math.max(...widths) >= 600, `the tab is a wide editor tab (${widths.join(', ')} px)`);
});
