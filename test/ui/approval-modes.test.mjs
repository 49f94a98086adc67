// Issue #28 item 2 in the real workbench (code-server + Chromium, fake LLM): the composer's mode picker at
// the default ~300 px side bar. Plan: the model is offered only the read tools and its write is refused
// without a card asking; the plan reply gets "Run this plan"; "Run in Auto-edit" switches and the write of
// the follow-up runs without asking; the chat's keybinding cycles the mode. Then a wide editor tab in
// Auto-edit set from the command. Screenshots: test-results/approval-modes-*.png (300 px and the editor tab in the four themes).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorChats, readyChat, runCommand, screenshot, setColorTheme, sidebarPane } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';
import { THEMES } from '../harness/themes.mjs';
import { pillOverText } from '../harness/pill-overlap.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-modes-'));
const { wb, llm } = useFakeLlmWorkbench('approval-modes', { sessionsDir });

/** The picker's shown value, and whether it is cut or leaves the chat's width. */
async function pickerState(chat) {
  return chat.locator('#mode-picker').evaluate((d) => {
    const value = d.shadowRoot?.querySelector('.selected-value') ?? d;
    const box = d.getBoundingClientRect();
    return { text: value.textContent.trim(), cut: value.scrollWidth > value.clientWidth + 1, right: Math.round(box.right), width: Math.round(box.width), viewport: document.documentElement.clientWidth };
  });
}

async function pickMode(chat, label, mode) {
  await chat.locator('#mode-picker').click();
  await chat.locator('#mode-picker vscode-option', { hasText: label }).first().click();
  await chat.locator(`#mode-bar[data-mode="${mode}"]`).waitFor({ timeout: 20_000 });
}

const offeredTools = (request) => (request.body?.tools ?? []).map((t) => t.function?.name ?? t.name).sort();

function modeEntries() {
  const files = readdirSync(sessionsDir, { recursive: true }).filter((f) => String(f).endsWith('.jsonl'));
  return files.flatMap((f) => readFileSync(join(sessionsDir, String(f)), 'utf8').trim().split('\n').map((l) => JSON.parse(l)))
    .filter((e) => e.type === 'custom' && e.customType === 'arbor.approvalMode').map((e) => e.data.mode);
}

wb.test('Plan refuses the write and offers Run this plan; Run in Auto-edit writes without a card; the keybinding cycles', async (page, server) => {
  const chat = await readyChat(page);
  const ask = await pickerState(chat);
  console.log(`# figures approval-modes picker at 300 px: ${JSON.stringify(ask)}`);
  assert.equal(ask.text, 'Ask');
  assert.ok(!ask.cut && ask.right <= ask.viewport, `the mode reads whole inside the chat: ${JSON.stringify(ask)}`);

  await pickMode(chat, 'Plan', 'plan');
  assert.equal(await chat.locator('#run-plan').isVisible(), false, 'no Run this plan in an empty session');
  llm.server.enqueue(
    { text: 'Let me write it down.', toolCalls: [{ id: 'call_plan_write', name: 'write', input: { path: 'plan-notes.txt', content: 'x\n' } }] },
    { text: '## Goal\nAdd a greeting.\n\n## Steps\n1. `src/hello.txt` — create it.\n\n## How to check\nRead the file.' },
  );
  const input = chat.locator('#prompt-input textarea');
  await input.fill('Plan a greeting file');
  await input.press('Enter');
  const card = chat.locator('.tool-card[data-tool="call_plan_write"]');
  await card.locator('.tool-status', { hasText: 'denied' }).waitFor({ timeout: 30_000 });
  assert.equal(await card.locator('.approval').count(), 0, 'no card asked');
  assert.match(await card.innerText(), /Plan mode: only tools that read are allowed/);
  assert.equal(existsSync(join(server.workspace, 'plan-notes.txt')), false);
  const runPlan = chat.locator('#run-plan');
  await runPlan.waitFor({ state: 'visible', timeout: 30_000 });
  const requests = llm.server.requests.filter((r) => Array.isArray(r.body?.messages));
  const planTools = offeredTools(requests.at(-2));
  assert.ok(planTools.includes('read'), planTools.join(','));
  assert.deepEqual(planTools.filter((n) => ['write', 'edit', 'bash'].includes(n)), [], `Plan offered only tools that read: ${planTools.join(',')}`);
  assert.match(JSON.stringify(requests.at(-2).body.messages[0]), /Plan mode/);
  const plan = await pickerState(chat);
  assert.ok(!plan.cut && plan.right <= plan.viewport, JSON.stringify(plan));
  await runPlan.scrollIntoViewIfNeeded();
  await screenshot(page, 'approval-modes-plan-300');

  llm.server.enqueue(
    { text: 'Creating it.', toolCalls: [{ id: 'call_auto_write', name: 'write', input: { path: 'src/hello.txt', content: 'hello\n' } }] },
    { text: 'Done: src/hello.txt holds the greeting.' },
  );
  await runPlan.locator('vscode-button[data-run-plan="autoEdit"]').click();
  await chat.locator('#mode-bar[data-mode="autoEdit"]').waitFor({ timeout: 20_000 });
  await chat.locator('.msg-assistant', { hasText: 'Done: src/hello.txt holds the greeting.' }).waitFor({ timeout: 30_000 });
  const autoCard = chat.locator('.tool-card[data-tool="call_auto_write"]');
  assert.match(await autoCard.locator('.tool-status').innerText(), /done/);
  assert.match(await autoCard.locator('.tool-traits').innerText(), /writes files/);
  assert.equal(readFileSync(join(server.workspace, 'src/hello.txt'), 'utf8'), 'hello\n', 'the write ran without asking');
  assert.ok(await chat.locator('.msg-user', { hasText: 'Carry out the plan above' }).count() > 0, 'the follow-up prompt was sent');
  assert.equal(await runPlan.isVisible(), false, 'Run this plan is gone outside Plan mode');
  await screenshot(page, 'approval-modes-autoedit-300');

  // Keys pressed while a webview has the focus stay in its frame in this harness (test/ui/editor-entry):
  // the chord is pressed with the focus on the Chat view's header, where `focusedView` is the chat.
  await sidebarPane(page, 'Chat').locator('.pane-header').focus();
  await page.keyboard.press('Control+Alt+Shift+M');
  await chat.locator('#mode-bar[data-mode="plan"]').waitFor({ timeout: 20_000 });
  assert.deepEqual(modeEntries(), ['plan', 'autoEdit', 'plan'], 'each switch is recorded in the session');
  // the host's rule (src/app/plan-ready.ts): the newest reply was made in Auto-edit, so it is no plan to run
  assert.equal(await runPlan.isVisible(), false, 'no Run this plan under a reply made in Auto-edit');
  await screenshot(page, 'approval-modes-plan-no-plan-300');

  // a new plan: hidden while it streams, shown once it is finished
  const steps = Array.from({ length: 30 }, (_, i) => `${i + 1}. step${i}`).join('\n');
  llm.server.enqueue({ text: `## Goal\nSay hello.\n\n## Steps\n${steps}\nPLAN-END`, chunkSize: 6, delayMs: 150 });
  await input.fill('Plan a hello');
  await input.press('Enter');
  await chat.locator('.msg-assistant', { hasText: 'Say hello' }).waitFor({ timeout: 30_000 });
  const streamingShown = await runPlan.isVisible();
  const finishedYet = await chat.locator('.msg-assistant', { hasText: 'PLAN-END' }).count();
  assert.equal(finishedYet, 0, 'the plan still streams (else this check proves nothing)');
  assert.equal(streamingShown, false, 'no Run this plan while the plan streams');
  await chat.locator('.msg-assistant', { hasText: 'PLAN-END' }).waitFor({ timeout: 60_000 });
  await runPlan.waitFor({ state: 'visible', timeout: 20_000 });
  for (const [theme, kind, tag] of THEMES) {
    const themed = await setColorTheme(page, theme, kind);
    await themed.locator('#run-plan').waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, `approval-modes-plan-300-${tag}`);
  }
  assert.equal(await chat.locator('#app').getAttribute('data-csp-violations'), null, 'no CSP violations');
}, { timeout: 240_000 });

wb.test('in a wide editor tab the mode reads on the composer in every theme', async (page) => {
  await runCommand(page, 'Arbor: Open Chat in Editor');
  await runCommand(page, 'View: Close Primary Side Bar');
  const [tab] = await editorChats(page, 1);
  await tab.doc.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  // the new chat took the focus: give it to the workbench so the palette opens (keys stay in a webview)
  await page.locator('.part.statusbar').click({ position: { x: 2, y: 2 } });
  // the command opens its own QuickPick, so the palette stays up (runCommand waits for it to close)
  await page.keyboard.press('F1');
  const quick = page.locator('.quick-input-widget');
  await quick.locator('.quick-input-box input').fill('>Arbor: Set Approval Mode');
  await quick.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: 'Arbor: Set Approval Mode' }) }).first().click();
  await quick.locator('.monaco-list-row', { hasText: 'File changes inside the workspace run without asking' }).first().click();
  await tab.doc.locator('#mode-bar[data-mode="autoEdit"]').waitFor({ timeout: 20_000 });
  const state = await pickerState(tab.doc);
  console.log(`# figures approval-modes editor tab ${Math.round(tab.box.width)} px: ${JSON.stringify(state)}`);
  assert.equal(state.text, 'Auto-edit');
  for (const [theme, kind, tag] of THEMES) {
    const chat = await setColorTheme(page, theme, kind);
    await chat.locator('#mode-bar[data-mode="autoEdit"]').waitFor({ timeout: 20_000 });
    await screenshot(page, `approval-modes-editor-${tag}`);
  }
  // scrolled up from the end of the plan, the wide tab's "Jump to latest" covers no text either
  await tab.doc.locator('#conversation').evaluate((c) => { c.scrollTop = 0; c.dispatchEvent(new Event('scroll')); });
  await tab.doc.locator('#jump-latest:not([hidden])').waitFor({ timeout: 10_000 });
  const pill = await tab.doc.locator('#app').evaluate(pillOverText);
  console.log(`# figures approval-modes editor tab pill vs text: ${JSON.stringify(pill)}`);
  assert.ok(pill.lines > 0, 'text is in view');
  assert.deepEqual(pill.covered, [], `the pill covers no message text: ${JSON.stringify(pill)}`);
  await screenshot(page, 'approval-modes-editor-jump-pill');
}, { timeout: 240_000 });
