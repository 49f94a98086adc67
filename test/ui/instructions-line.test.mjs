// Issue #27 item 4 in the real workbench at the default ~300 px side bar (fake LLM): the chat's
// "Instructions: … · Skills: n" line lists the user's global file (arbor.instructions.globalFiles), the
// workspace's AGENTS.md and, once the agent read a file under src/api/, src/api/AGENTS.md; the skills
// count includes a real skill from anthropics/skills and notes the broken one; a file's link opens it.
// Screenshots in dark, light and high contrast: test-results/instructions-line-*.png.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatFrame, editorChats, readyChat, runCommand, screenshot, setColorTheme } from '../harness/browser.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const base = mkdtempSync(join(tmpdir(), 'arbor-ui-instructions-'));
const sessionsDir = join(base, 'sessions');
const workspace = join(base, 'shop');
const globalFile = join(base, 'my-agents', 'AGENTS.md');
const files = {
  'AGENTS.md': '# Shop\nRun `npm test` before you finish.\n',
  'src/api/AGENTS.md': '# API\nEvery handler validates its input.\n',
  'src/api/users.ts': 'export const users: string[] = [];\n',
  '.agents/skills/broken/SKILL.md': '# No front matter here\n',
};
for (const [rel, text] of Object.entries({ ...files })) {
  mkdirSync(join(workspace, rel, '..'), { recursive: true });
  writeFileSync(join(workspace, rel), text);
}
cpSync(join(repoRoot, 'test', 'fixtures', 'skills', 'workspace', '.agents', 'skills', 'mcp-builder'), join(workspace, '.agents', 'skills', 'mcp-builder'), { recursive: true });
mkdirSync(join(globalFile, '..'), { recursive: true });
writeFileSync(globalFile, 'Answer in British English.\n');
mkdirSync(sessionsDir, { recursive: true });

const { wb, llm } = useFakeLlmWorkbench('instructions-line', { sessionsDir, workspace, settings: () => ({ 'arbor.instructions.globalFiles': [globalFile] }) });

async function send(chat, text) {
  const input = chat.locator('#prompt-input textarea');
  await input.fill(text);
  await input.press('Enter');
}

wb.test('the line lists the global and root instruction files and the skills before the first prompt', async (page) => {
  const chat = await readyChat(page);
  const line = chat.locator('#instructions-line');
  await line.locator('.instructions-skills').waitFor({ timeout: 30_000 });
  const links = await line.locator('.instructions-file').allInnerTexts();
  assert.deepEqual(links, ['AGENTS.md', '…/my-agents/AGENTS.md']);
  assert.equal(await line.locator('.instructions-label').innerText(), 'Instructions (2):');
  assert.match(await line.locator('.instructions-skills').innerText(), /^Skills: [1-9]\d* \(1 problem\)$/);
});

wb.test('reading a file under src/api adds src/api/AGENTS.md to the line; it fits the 300 px side bar', async (page) => {
  const chat = chatFrame(page);
  llm.server.enqueue({ toolCalls: [{ id: 'call_read_users', name: 'read', input: { path: 'src/api/users.ts' } }] }, { text: 'The users list is empty.' });
  await send(chat, 'What is in the users API?');
  await chat.locator('.msg-assistant', { hasText: 'The users list is empty.' }).waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  const line = chat.locator('#instructions-line');
  await line.locator('.instructions-file', { hasText: 'src/api/AGENTS.md' }).waitFor({ timeout: 30_000 });
  assert.deepEqual(await line.locator('.instructions-file').allInnerTexts(), ['AGENTS.md', 'src/api/AGENTS.md', '…/my-agents/AGENTS.md']);
  // the model got the nested file's text with the read result
  const request = llm.server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
  assert.match(JSON.stringify(request.body.messages), /Every handler validates its input/);
  const box = await line.evaluate((e) => {
    const skills = e.querySelector('.instructions-skills').getBoundingClientRect();
    const row = e.getBoundingClientRect();
    return { width: document.body.clientWidth, height: row.height, lineHeight: parseFloat(getComputedStyle(e).lineHeight), scroll: e.scrollWidth, client: e.clientWidth, skillsInside: skills.right <= row.right + 0.5 && skills.width > 0 };
  });
  console.log(`# figures instructions-line: webview ${box.width} px wide, line ${box.height.toFixed(1)} px high (${(box.height / box.lineHeight).toFixed(1)} rows)`);
  assert.ok(box.width <= 340, `the side bar is narrow: ${box.width}`);
  assert.ok(box.height <= box.lineHeight + 8, `one row: ${JSON.stringify(box)}`);
  assert.ok(box.scroll <= box.client, 'no sideways overflow');
  assert.ok(box.skillsInside, 'the skills link is whole on the row');
  await screenshot(page, 'instructions-line-dark');
});

wb.test('a file link opens that file in an editor', async (page) => {
  const chat = chatFrame(page);
  // the link may be under the ellipsis at 300 px: the host opens it by the path the state listed
  await chat.locator('#instructions-line .instructions-file', { hasText: 'src/api/AGENTS.md' }).dispatchEvent('click');
  const tab = page.locator('.tabs-container .tab', { hasText: 'AGENTS.md' });
  await tab.first().waitFor({ timeout: 30_000 });
  await page.locator('.monaco-editor .view-lines', { hasText: 'Every handler validates its input.' }).first().waitFor({ timeout: 30_000 });
});

wb.test('the line\'s label lists every file, skill and skill problem in a pick', async (page) => {
  const chat = chatFrame(page);
  await chat.locator('#instructions-line .instructions-label').click();
  const quick = page.locator('.quick-input-widget');
  await quick.waitFor({ state: 'visible', timeout: 30_000 });
  for (const text of ['src/api/AGENTS.md', 'mcp-builder', '.agents/skills/broken/SKILL.md']) {
    await quick.locator('.monaco-list-row', { hasText: text }).first().waitFor({ timeout: 10_000 });
  }
  await screenshot(page, 'instructions-line-pick');
  await page.keyboard.press('Escape');
  await quick.waitFor({ state: 'hidden', timeout: 10_000 });
});

for (const [theme, kind, tag] of [
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
]) {
  wb.test(`the line in ${tag}`, async (page) => {
    const chat = await setColorTheme(page, theme, kind);
    await chat.locator('#instructions-line .instructions-file').first().waitFor();
    await screenshot(page, `instructions-line-${tag}`);
  });
}

wb.test('in a wide editor tab the whole line shows, every file and the skills, without an ellipsis', async (page) => {
  // a new chat (Open Chat in Editor would move the side bar's session, with its nested file, into the tab)
  await runCommand(page, 'Arbor: New Chat in Editor');
  await runCommand(page, 'View: Close Primary Side Bar');
  const [tab] = await editorChats(page, 1);
  const line = tab.doc.locator('#instructions-line');
  await line.locator('.instructions-skills').waitFor({ timeout: 30_000 });
  // a new chat in the tab has no session yet: the project's and the user's files, and the skills
  assert.deepEqual(await line.locator('.instructions-file').allInnerTexts(), ['AGENTS.md', '…/my-agents/AGENTS.md']);
  const files = await line.locator('.instructions-files').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
  console.log(`# figures instructions-line: editor tab ${Math.round(tab.box.width)} px wide, file list ${files.client}/${files.scroll} px shown`);
  assert.ok(tab.box.width >= 900, `a wide tab: ${tab.box.width}`);
  assert.ok(files.scroll <= files.client, 'no ellipsis in a wide tab');
  await screenshot(page, 'instructions-line-editor-tab');
});
