// Chat panel end to end in the real workbench (code-server + Chromium) against the fake LLM server: a
// prompt streams a scripted reply with an edit that the user approves in the panel (file changed on disk,
// entries in the session file), webview-side protocol fuzz through the real channel (the host drops
// everything, stays responsive, and the session file does not change), and the in-panel tree kept open
// while a turn is appended and while a switch made in it adds a branch point.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyChat } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-sessions-'));
// one model of its own (no output limit), on the fake's endpoint
const { wb, llm } = useFakeLlmWorkbench('chat-flow', {
  sessionsDir,
  models: ([{ baseUrl }]) => [{ provider: 'fake', id: 'fake-model', name: 'Fake Model', api: 'openai-compatible', baseUrl, contextWindow: 128000 }],
  settings: () => ({ 'arbor.model': 'fake/fake-model' }),
});


function sessionFiles() {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.jsonl')) out.push(full);
    }
  };
  walk(sessionsDir);
  return out;
}

async function send(chat, text) {
  const input = chat.locator('#prompt-input textarea');
  await input.fill(text);
  await input.press('Enter');
}

wb.test('a prompt streams a reply with an edit; approving it in the panel changes the file and the session', async (page, server) => {
  const chat = await readyChat(page);
  const readme = join(server.workspace, 'README.md');
  const original = readFileSync(readme, 'utf8');
  assert.match(original, /^# Demo: a tiny bookshop inventory/);
  llm.server.enqueue(
    {
      text: 'I will retitle the README.\n\n```md\n# Bookshop inventory\n```',
      toolCalls: [{ id: 'call_edit_1', name: 'edit', input: { path: 'README.md', oldText: '# Demo: a tiny bookshop inventory', newText: '# Bookshop inventory' } }],
      chunkSize: 4,
    },
    { text: 'Done: the README now starts with **Bookshop inventory**.', chunkSize: 4 },
  );
  await send(chat, 'Please retitle the README');
  await chat.locator('.msg-user', { hasText: 'Please retitle the README' }).waitFor({ timeout: 30_000 });
  const card = chat.locator('.tool-card[data-tool="call_edit_1"]');
  await card.locator('.approval').waitFor({ timeout: 30_000 });
  assert.match(await card.locator('.tool-key').innerText(), /README\.md/);
  assert.equal(await chat.locator('#stop').isVisible(), true, 'Stop shown while the agent waits');
  assert.equal(readFileSync(readme, 'utf8'), original, 'nothing written before approval');
  await card.locator('vscode-button[data-action="approve"]').click();
  await chat.locator('.tool-card.status-done[data-tool="call_edit_1"]').waitFor({ timeout: 30_000 });
  await chat.locator('.msg-assistant', { hasText: 'the README now starts with' }).waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  assert.match(readFileSync(readme, 'utf8'), /^# Bookshop inventory\n/);
  // The code block got its language label and actions; the reply is Markdown, not raw text.
  await chat.locator('.code-block[data-lang="md"] [data-action="copyCode"]').first().waitFor();
  assert.equal(await chat.locator('.msg-assistant strong', { hasText: 'Bookshop inventory' }).count(), 1);
  const files = sessionFiles();
  assert.equal(files.length, 1, `one session file in ${sessionsDir}`);
  const entries = readFileSync(files[0], 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const roles = entries.filter((e) => e.type === 'message').map((e) => e.message.role);
  assert.deepEqual(roles, ['user', 'assistant', 'toolResult', 'assistant']);
  const result = entries.find((e) => e.message?.role === 'toolResult');
  assert.equal(result.message.isError, false);
  assert.equal(await chat.locator('#app').getAttribute('data-csp-violations'), null, 'no CSP violations');
}, { timeout: 120_000 });

wb.test('random and malformed messages posted through the real channel are dropped; the host stays responsive', async (page) => {
  const chat = await readyChat(page);
  const [file] = sessionFiles();
  const before = readFileSync(file, 'utf8');
  // The frame that owns the webview's real channel: acquireVsCodeApi().postMessage calls this function of
  // VS Code's webview host document (pre/index.html), which forwards to the extension host.
  let channelFrame;
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => typeof window.__vscode_post_message__ === 'function').catch(() => false))) continue;
    for (const child of frame.childFrames()) {
      if (await child.evaluate(() => document.querySelector('#app[data-status="ready"]') !== null).catch(() => false)) channelFrame = frame;
    }
  }
  assert.ok(channelFrame, 'found the webview channel');
  const posted = await channelFrame.evaluate(() => {
    const post = (message) => window.__vscode_post_message__('onmessage', { message });
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const types = ['prompt', 'stop', 'approve', 'deny', 'navigate', 'label', 'fork', 'compact', 'dequeue', 'selectModel', 'continueBeforeCompaction', 'newSession', 'bogus'];
    const junk = () => [null, 42, -1, 1.5, '', 'x'.repeat(300_000), [], {}, { a: 1 }, true][Math.floor(rnd() * 10)];
    const messages = [null, 0, 'prompt', [], [{ type: 'prompt', text: 'hi' }], { type: 'prompt' }, { type: 'prompt', text: '' },
      { type: 'prompt', text: 'x'.repeat(200_001) }, { type: 'prompt', text: 'hi', extra: 1 }, { type: 'navigate', targetId: 1, mode: 'none' },
      { type: 'navigate', targetId: 'x', mode: 'delete' }, { type: 'label', entryId: '', label: 'x' }, { type: 'dequeue', index: -1 },
      { type: 'fork' }, { type: 'newSession', now: true }, { type: 'compact', instructions: 5 }, { type: 'stop', really: 1 }];
    for (let i = 0; i < 400; i++) {
      const m = { type: types[Math.floor(rnd() * types.length)] };
      // every random message carries at least one key no schema allows, so none is valid
      m[`k${i}`] = junk();
      for (let j = Math.floor(rnd() * 3); j > 0; j--) m[['text', 'targetId', 'mode', 'entryId', 'index', 'key', 'label'][Math.floor(rnd() * 7)]] = junk();
      messages.push(m);
    }
    for (const m of messages) post(m);
    return messages.length;
  });
  assert.ok(posted > 400);
  // Responsive: a real prompt still runs a turn afterwards; before it, the file is unchanged.
  await page.waitForTimeout(1500);
  assert.equal(readFileSync(file, 'utf8'), before, 'the session file is unchanged by the fuzz');
  llm.server.enqueue({ text: 'Still here after the fuzz.' });
  await send(chat, 'are you alive?');
  await chat.locator('.msg-assistant', { hasText: 'Still here after the fuzz.' }).waitFor({ timeout: 30_000 });
}, { timeout: 90_000 });

// The panel re-renders its rows on every scroll and resize, so rows are looked up by id inside one
// evaluation of the (stable) panel instead of through a row element handle that may just have been replaced.

/** Whether the row of `id` lies within the tree panel's scrolled viewport (not just in its DOM). */
function inTreeViewport(tree, id) {
  return tree.evaluate((panel, id) => {
    const node = panel.querySelector(`.tree-row[data-id="${id}"]`);
    const view = panel.querySelector('.tree-viewport').getBoundingClientRect();
    const box = node?.getBoundingClientRect();
    return Boolean(box && box.top >= view.top - 1 && box.bottom <= view.bottom + 1);
  }, id);
}

/** What the row of `id` shows: its place in the rows, path and leaf marks. */
function rowState(tree, id) {
  return tree.evaluate((panel, id) => {
    const node = panel.querySelector(`.tree-row[data-id="${id}"]`);
    return node && {
      index: Number(node.dataset.index),
      active: node.classList.contains('active'),
      leaf: node.classList.contains('leaf'),
      current: node.getAttribute('aria-current'),
      mark: node.querySelector('.tree-leaf-mark')?.textContent ?? null,
    };
  }, id);
}

wb.test('the open in-panel tree shows a new turn as it is appended, then the branch point of a switch made in it', async (page) => {
  const chat = await readyChat(page);
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  const app = chat.locator('#app');
  const treeOpen = chat.locator('#app[data-tree-open="true"]');
  if ((await treeOpen.count()) === 0) await chat.locator('vscode-button#toggle-tree').click();
  await treeOpen.waitFor();
  // the panel opens as a graph (tree-graph.test.mjs); these checks are on its list of entries
  await chat.locator('#tree-panel .tree-mode-list').click();
  const tree = chat.locator('#tree-panel');
  const previousLeaf = await app.getAttribute('data-leaf');
  await tree.locator(`.tree-row.leaf[data-id="${previousLeaf}"]`).waitFor();
  const entries = async () => Number((await tree.locator('.tree-count').innerText()).match(/^(\d+) entries/)?.[1]);
  const entriesBefore = await entries();
  // From here on the panel must stay open: it is updated in place, never closed and laid out again on open.
  await app.evaluate((node) => {
    window.__treeOpenChanges = [];
    window.__treePanel = document.getElementById('tree-panel');
    new MutationObserver(() => window.__treeOpenChanges.push(node.dataset.treeOpen)).observe(node, { attributes: true, attributeFilter: ['data-tree-open'] });
  });

  // A short panel with the current leaf on its last line: the new rows land below the visible ones, so they
  // are in view only if the panel follows the leaf.
  const viewport = tree.locator('.tree-viewport');
  await tree.evaluate((panel) => { panel.style.height = '120px'; });
  const previousIndex = (await rowState(tree, previousLeaf)).index;
  const below = await viewport.evaluate((view, index) => {
    const row = 22;
    view.scrollTop = (index + 1) * row - view.clientHeight;
    return { room: view.clientHeight >= 2 * row, nextHidden: (index + 2) * row > view.scrollTop + view.clientHeight };
  }, previousIndex);
  assert.deepEqual(below, { room: true, nextHidden: true }, 'the row after the leaf is out of view');
  assert.ok(await inTreeViewport(tree, previousLeaf), 'the leaf is in view');

  llm.server.enqueue({ text: 'The changelog now has an entry for the new title.', chunkSize: 6 });
  await send(chat, 'Add a changelog entry for the retitle');
  const userRow = tree.locator('.tree-row.kind-user', { hasText: 'Add a changelog entry for the retitle' });
  const replyRow = tree.locator('.tree-row.kind-assistant', { hasText: 'The changelog now has an entry' });
  // The prompt's node, then the reply's once it is stored.
  await userRow.waitFor({ timeout: 30_000 });
  await replyRow.waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  const [userId, replyId] = [await userRow.getAttribute('data-id'), await replyRow.getAttribute('data-id')];
  assert.equal(await app.getAttribute('data-leaf'), replyId, 'the reply is the new leaf');
  // Both on the active path, right after the previous leaf (the path is the top of the rows), the reply marked.
  const previous = await rowState(tree, previousLeaf);
  const user = await rowState(tree, userId);
  const reply = await rowState(tree, replyId);
  assert.deepEqual(user, { index: previous.index + 1, active: true, leaf: false, current: null, mark: null }, 'the prompt, on the path');
  assert.deepEqual(reply, { index: previous.index + 2, active: true, leaf: true, current: 'location', mark: '◀ here' }, 'the reply, the highlighted leaf');
  assert.deepEqual([previous.active, previous.leaf], [true, false], 'the previous leaf stays on the path, unmarked');
  assert.equal(await tree.locator('.tree-row.leaf').count(), 1, 'one leaf');
  assert.ok(await inTreeViewport(tree, replyId), 'the panel followed the leaf: its row is in view');
  assert.equal(await entries(), entriesBefore + 2, 'the count says two more entries');

  // Branch from an earlier node in the panel: the first reply of the session, with a summary of what is left.
  const target = tree.locator('.tree-row.kind-assistant', { hasText: 'the README now starts with' });
  const targetId = await target.getAttribute('data-id');
  await target.scrollIntoViewIfNeeded();
  assert.equal(await tree.locator(`.tree-row.branch-point[data-id="${targetId}"]`).count(), 0, 'not a branch point yet');
  for (let attempt = 1; ; attempt++) {
    await target.click();
    try {
      await chat.locator('#branch-dialog').waitFor({ state: 'visible', timeout: 5000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  assert.match(await chat.locator('#branch-dialog-preview').innerText(), /the README now starts with/);
  await chat.locator('vscode-button#switch-summarize').click();
  const summary = chat.locator('.marker-branch_summary');
  await summary.waitFor({ timeout: 30_000 });
  const summaryId = await summary.getAttribute('data-entry');
  await chat.locator(`#app[data-leaf="${summaryId}"]`).waitFor();
  // The panel shows the target as a branch point (the old continuation and the summary), the summary as leaf.
  const branchPoint = tree.locator(`.tree-row.branch-point[data-id="${targetId}"]`);
  await branchPoint.waitFor({ timeout: 10_000 });
  assert.equal(await branchPoint.locator('.tree-branches').innerText(), '2');
  assert.equal(await branchPoint.locator('.tree-branches svg.icon-branch').count(), 1, 'the branch count has its drawn icon');
  await tree.locator(`.tree-row.kind-branch_summary[data-id="${summaryId}"]`).waitFor();
  const summaryState = await rowState(tree, summaryId);
  const point = await rowState(tree, targetId);
  assert.deepEqual(summaryState, { index: point.index + 1, active: true, leaf: true, current: 'location', mark: '◀ here' }, 'the summary right under the branch point, the leaf');
  assert.ok(await inTreeViewport(tree, summaryId), 'the new leaf is in view');
  for (const id of [userId, replyId]) {
    assert.equal(await tree.locator(`.tree-row.active[data-id="${id}"]`).count(), 0, `${id} left the active path`);
    await tree.locator(`.tree-row[data-id="${id}"]`).waitFor({ state: 'attached' });
  }
  assert.equal(await tree.locator('.tree-row.leaf').count(), 1, 'one leaf');
  assert.equal(await entries(), entriesBefore + 3);
  assert.match(await tree.locator('.tree-count').innerText(), /1 branch point\b/);
  await chat.locator('#branch-dialog').waitFor({ state: 'hidden', timeout: 10_000 }).catch(async () => {
    await chat.locator('vscode-button#switch-close').click();
    await chat.locator('#branch-dialog').waitFor({ state: 'hidden' });
  });

  await tree.evaluate((panel) => { panel.style.height = ''; });
  const stayed = await app.evaluate(() => ({ changes: window.__treeOpenChanges, same: window.__treePanel === document.getElementById('tree-panel') }));
  assert.deepEqual(stayed, { changes: [], same: true }, 'the panel stayed open the whole time (no reopen, no new webview)');
}, { timeout: 120_000 });
