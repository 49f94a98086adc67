// What the user sees of pi 1.6.0's new shapes and of a provider-native compaction context, in the real
// workbench (code-server + Chromium, fake LLM): the session pi 1.6.0's own SessionManager wrote
// (test/fixtures/pi-1.6/new-shapes.jsonl) shows its never-started call as aborted and says which model
// got a placeholder instead of the read image; a compaction holding OpenAI's compacted context says on
// its marker which model gets it instead of the summary. Screenshots at the ~300 px side bar in dark,
// light and high-contrast themes and in a wide editor tab go to test-results/pi16-shapes-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clickMenuItem, expandPane, openSessionFromList, runCommand, screenshot, setColorTheme, sidebarPane } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-pi16-'));
const fixture = join(import.meta.dirname, '..', 'fixtures', 'pi-1.6', 'new-shapes.jsonl');
const [header, ...rest] = readFileSync(fixture, 'utf8').split('\n');
writeFileSync(join(sessionsDir, '2026-01-01T00-00-00-000Z_pi16-shapes.jsonl'), [JSON.stringify({ ...JSON.parse(header), cwd: sessionsDir }), ...rest].join('\n'));
const PI_LEAF = JSON.parse(rest.filter(Boolean).at(-1)).id;

const at = (n) => new Date(Date.UTC(2026, 0, 2, 9, 0, n)).toISOString();
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const native = {
  provider: 'openai', model: 'gpt-5.2', baseUrl: 'https://api.openai.com/v1', scope: 'summarized', createdAt: at(3),
  replacementHistory: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Plan the refund flow' }] }, { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAABp' }],
  compactionItem: { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAABp' },
};
const nativeLines = [
  { type: 'session', version: 3, id: 'ui-native', timestamp: at(0), cwd: sessionsDir },
  { type: 'message', id: 'n1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'Plan the refund flow', timestamp: 1 } },
  { type: 'message', id: 'n2', parentId: 'n1', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'text', text: 'Refunds go through the payment provider.' }], api: 'openai-responses', provider: 'openai', model: 'gpt-5.2', usage, stopReason: 'stop', timestamp: 2 } },
  { type: 'compaction', id: 'nc', parentId: 'n2', timestamp: at(3), summary: '## Goal\nA refund flow.', firstKeptEntryId: 'n2', tokensBefore: 30_000, preserveData: { openaiRemoteCompaction: native } },
  { type: 'message', id: 'n3', parentId: 'nc', timestamp: at(4), message: { role: 'user', content: 'Now write the tests', timestamp: 4 } },
];
writeFileSync(join(sessionsDir, '2026-01-02T09-00-00-000Z_ui-native.jsonl'), nativeLines.map((l) => JSON.stringify(l)).join('\n') + '\n');

const { wb } = useFakeLlmWorkbench('pi16-shapes', { sessionsDir });
const THEMES = [['Default Light Modern', 'vscode-light', 'light'], ['Default High Contrast', 'vscode-high-contrast', 'hc'], ['Default Dark Modern', 'vscode-dark', 'dark']];

async function checkPiShapes(chat) {
  const aborted = chat.locator('.tool-card.status-aborted');
  await aborted.waitFor({ timeout: 20_000 });
  assert.equal(await aborted.locator('.tool-status').innerText(), 'aborted');
  const note = chat.locator('.tool-card .image-not-sent');
  await note.waitFor();
  assert.match(await note.innerText(), /gpt-4\.1-text does not read images: it was sent a placeholder/);
}

async function checkNativeMarker(chat) {
  const marker = chat.locator('.marker-compaction[data-entry="nc"]');
  await marker.waitFor({ timeout: 20_000 });
  assert.match(await marker.locator('.marker-text').innerText(), /native context for gpt-5\.2/);
  if ((await marker.locator('.marker-line[aria-expanded="true"]').count()) === 0) await marker.locator('.marker-line').click();
  const note = marker.locator('.native-context-note');
  await note.waitFor();
  assert.match(await note.innerText(), /gpt-5\.2 at api\.openai\.com is sent the provider's own compacted context/);
}

wb.test("pi 1.6.0's aborted call and unsent image, and a native compaction marker, in the side bar in three themes", async (page) => {
  let chat = await openSessionFromList(page, 'look at shot.png', PI_LEAF);
  await checkPiShapes(chat);
  for (const [theme, kind, name] of THEMES) {
    chat = await setColorTheme(page, theme, kind);
    await checkPiShapes(chat);
    await chat.locator('.tool-card').first().scrollIntoViewIfNeeded();
    await screenshot(page, `pi16-shapes-tools-sidebar-${name}`);
  }
  chat = await openSessionFromList(page, 'Plan the refund flow', 'n3');
  await checkNativeMarker(chat);
  for (const [theme, kind, name] of THEMES) {
    chat = await setColorTheme(page, theme, kind);
    await checkNativeMarker(chat);
    await screenshot(page, `pi16-shapes-native-marker-sidebar-${name}`);
  }
});

wb.test('the same in a wide editor tab', async (page) => {
  await expandPane(page, 'Sessions');
  const row = sidebarPane(page, 'Sessions').locator('.monaco-list-row', { hasText: 'look at shot.png' }).first();
  await row.waitFor({ timeout: 20_000 });
  await row.click({ button: 'right' });
  await clickMenuItem(page, 'Open Chat in Editor');
  await runCommand(page, 'View: Close Primary Side Bar');
  const frame = page.locator('iframe.webview.ready[src*="extensionId=arbor-dev.arbor"]:visible').last();
  const doc = frame.contentFrame().locator('iframe#active-frame').contentFrame();
  await doc.locator(`#app[data-status="ready"][data-leaf="${PI_LEAF}"]`).waitFor({ timeout: 30_000 });
  await checkPiShapes(doc);
  const box = await frame.boundingBox();
  assert.ok(box && box.width >= 900, `a wide editor tab (${box?.width} px)`);
  await screenshot(page, 'pi16-shapes-tools-editor-dark');
});
