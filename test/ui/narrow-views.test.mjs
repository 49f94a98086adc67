// Issue #19 at the default ~300 px side bar, the native views next to the chat: the Sessions view, expanded
// while sessions exist, goes from an empty pane to its rows without flashing the "No sessions" welcome; the
// composer's thinking picker says what it is ("Thinking: off", uncut) and the model name gets the room (full
// names in tooltips), in the four themes and in a wide editor tab.
// Screenshots: test-results/narrow-views-pickers*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorChats, expandPane, readyChat, runCommand, screenshot, setColorTheme, sidebarPane } from '../harness/browser.mjs';
import { THEMES } from '../harness/themes.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-narrow-views-'));
const { at, user, assistant } = seedEntries('2025-03-01T09:00:00.000Z');
for (let s = 0; s < 3; s++) {
  const entries = [];
  let parent = null;
  for (let i = 0; i < 6; i++) {
    entries.push(user(`u${i}`, parent, `Session ${s} question ${i}`));
    entries.push(assistant(`a${i}`, `u${i}`, `Answer ${i}`));
    parent = `a${i}`;
  }
  const header = { type: 'session', version: 3, id: `ui-views-${s}`, timestamp: at(), cwd: sessionsDir };
  writeFileSync(join(sessionsDir, `2025-03-01T09-0${s}-00-000Z_ui-views-${s}.jsonl`), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');
}

// a long reasoning model's name, so the pickers must give up width at 300 px
const LARGE = { id: 'fake-gpt-large', name: 'Fake GPT Large Reasoner' };
const { wb } = useFakeLlmWorkbench('narrow-views', {
  sessionsDir,
  models: (list) => list.map((m) => ({ ...m, ...LARGE, reasoning: true })),
  settings: () => ({ 'arbor.model': `fake/${LARGE.id}` }),
});

wb.test('the Sessions view shows its rows as soon as it is expanded, never a false "no sessions"', async (page) => {
  await readyChat(page);
  // every frame from the click on, what the Sessions pane shows: the welcome, nothing, or rows
  await page.evaluate(() => {
    const states = (window.__arborSessionsStates = []);
    const pane = () => [...document.querySelectorAll('#workbench\\.parts\\.sidebar .pane')].find((p) => p.querySelector('.pane-header')?.textContent?.includes('Sessions'));
    const look = () => {
      const p = pane();
      const state = p?.querySelector('.monaco-list-row') ? 'rows' : /No sessions/.test(p?.querySelector('.pane-body')?.textContent ?? '') ? 'welcome' : 'blank';
      if (states.at(-1)?.split('@')[0] !== state) states.push(`${state}@${Date.now()}`);
      if (state !== 'rows') requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  const started = Date.now();
  await expandPane(page, 'Sessions');
  await sidebarPane(page, 'Sessions').locator('.monaco-list-row', { hasText: 'Session 2 question 0' }).waitFor({ timeout: 20_000 });
  const states = await page.evaluate(() => window.__arborSessionsStates);
  // each state with the ms since the click it was first seen at
  const seen = states.map((s) => `${s.split('@')[0]} +${Number(s.split('@')[1]) - started}`);
  console.log(`# figures narrow-views: Sessions rows after ${Date.now() - started} ms, states ${seen.join(' → ')}`);
  assert.ok(!states.some((s) => s.startsWith('welcome')), `no "No sessions" welcome while there are sessions: ${seen.join(' → ')}`);
});

wb.test('the model and thinking pickers stay readable at 300 px; the full names are in their tooltips', async (page) => {
  const chat = await readyChat(page);
  const thinking = chat.locator('#thinking-picker');
  await thinking.waitFor();
  const shown = await chat.locator('.pickers').evaluate((row) => [...row.querySelectorAll('vscode-dropdown')].map((d) => {
    const value = d.shadowRoot?.querySelector('.selected-value') ?? d;
    return { id: d.id, text: value.textContent.trim(), cut: value.scrollWidth > value.clientWidth + 1, width: Math.round(d.getBoundingClientRect().width), title: d.title };
  }));
  console.log(`# figures narrow-views pickers: ${JSON.stringify(shown)}`);
  const [model, level] = ['model-picker', 'thinking-picker'].map((id) => shown.find((p) => p.id === id));
  assert.equal(level.cut, false, `the thinking level is not cut: ${JSON.stringify(level)}`);
  assert.ok(model.width > level.width, `the model name gets the room: ${JSON.stringify(shown)}`);
  assert.match(model.title, /Fake GPT Large Reasoner/, 'the full model name is in the tooltip');
  assert.match(level.text, /^Thinking: \w+/, `the thinking picker says what it is, not a bare level: ${JSON.stringify(level)}`);
  assert.match(level.title, /^Thinking: \w+/);
  await screenshot(page, 'narrow-views-pickers');
  for (const [theme, kind, tag] of THEMES) {
    const themed = await setColorTheme(page, theme, kind);
    await themed.locator('#thinking-picker').waitFor();
    await screenshot(page, `narrow-views-pickers-${tag}`);
  }
});

wb.test('in a wide editor tab the thinking picker says what it is', async (page) => {
  await runCommand(page, 'Arbor: Open Chat in Editor');
  await runCommand(page, 'View: Close Primary Side Bar');
  const [tab] = await editorChats(page, 1);
  await tab.doc.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  const picker = tab.doc.locator('#thinking-picker');
  await picker.waitFor();
  const shown = await picker.evaluate((d) => (d.shadowRoot?.querySelector('.selected-value') ?? d).textContent.trim());
  console.log(`# figures narrow-views thinking picker in a ${Math.round(tab.box.width)} px tab: ${shown}`);
  assert.match(shown, /^Thinking: \w+/);
  await screenshot(page, 'narrow-views-pickers-editor');
});
