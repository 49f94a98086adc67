// Chat panel UI tests on pre-written session files (real workbench, fake LLM): a compaction marker expands
// and "Continue from before this compaction" navigates without touching the file; the in-panel tree shows
// two branches and a click + Summarize puts a branch-summary marker into the chat; selecting a Session
// Tree row scrolls the chat to that message (revealEntry); screenshots in light, dark and high-contrast
// themes; a 5,000-message branch opens with only its tail (the newest 200), scrolling to the top loads the
// page before it without moving the message under the viewport, selecting its first message in the
// Session Tree loads the pages up to it and reveals it, and the message at the top of the viewport (in an
// earlier page) is at the top again after the view was hidden and shown (the webview re-created).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandPane, openSessionFromList, readyChat, screenshot, setColorTheme, sidebar, sidebarPane } from '../harness/browser.mjs';
import { retry } from '../harness/retry.mjs';
import { THEMES } from '../harness/themes.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-chat-seeded-'));
const filler = 'The bookshop keeps its inventory in a JSON file and the checkout flow needs tests. '.repeat(25);
const { at, user, assistant: seededAssistant } = seedEntries('2025-02-01T09:00:00.000Z');
const assistant = (id, parentId, text, tokens = 1000) => seededAssistant(id, parentId, text, { tokens });

function writeSession(name, id, entries) {
  const header = { type: 'session', version: 3, id, timestamp: at(), cwd: sessionsDir };
  const file = join(sessionsDir, name);
  writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');
  return file;
}

/** u1 → a1 ┬ u2 "Try approach Alpha" → a2                                   (old branch)
 *           └ u3 "Try approach Beta" → a3 → u4 → a4 → c1 (compaction) → u5 → a5 (current) */
const branchedFile = writeSession('2025-02-01T09-00-00-000Z_ui-chat-branches.jsonl', 'ui-chat-branches', [
  user('u1', null, 'Plan the checkout tests'),
  assistant('a1', 'u1', `Two approaches come to mind. ${filler}`),
  user('u2', 'a1', 'Try approach Alpha'),
  assistant('a2', 'u2', `Alpha failed because the fixtures were stale. ${filler}`),
  user('u3', 'a1', 'Try approach Beta'),
  assistant('a3', 'u3', `Beta works so far. ${filler}`),
  user('u4', 'a3', `Add the payment step ${filler}`),
  assistant('a4', 'u4', `The payment step is covered. ${filler}`),
  {
    type: 'compaction', id: 'c1', parentId: 'a4', timestamp: at(),
    summary: '## Goal\nCheckout tests for the bookshop.\n\n## Done\nApproach Beta with a payment step.',
    firstKeptEntryId: 'u4', tokensBefore: 42_000,
    details: {
      readFiles: ['src/inventory.json'], modifiedFiles: ['test/checkout.test.js'], reason: 'manual', tokensAfter: 9000,
      summarizer: { provider: 'fake', id: 'fake-small' }, cost: { calls: 2, input: 9000, output: 400, total: 0.0042 },
    },
  },
  user('u5', 'c1', 'Now cover refunds'),
  assistant('a5', 'u5', 'Refunds are covered too.'),
]);

/** 5,000 messages on one branch: m0 (user) … m4999 (assistant). */
const LONG = 5000;
const longEntries = [];
for (let i = 0; i < LONG; i++) {
  const parent = i === 0 ? null : `m${i - 1}`;
  if (i % 2 === 0) longEntries.push(user(`m${i}`, parent, i === 0 ? 'First message of the long branch' : `Question number ${i} about the inventory`));
  else longEntries.push(assistant(`m${i}`, parent, `Answer number ${i}: the inventory file is fine.${i % 10 === 1 ? ` ${filler.slice(0, 400)}` : ''}`, 100));
}
writeSession('2025-02-02T09-00-00-000Z_ui-chat-long.jsonl', 'ui-chat-long', longEntries);

const { wb } = useFakeLlmWorkbench('chat-seeded', { sessionsDir });

wb.test('a compaction marker expands to its summary and files; "Continue from before" navigates and deletes nothing', async (page) => {
  const before = readFileSync(branchedFile, 'utf8');
  const chat = await openSessionFromList(page, 'Plan the checkout tests', 'a5');
  const marker = chat.locator('.marker-compaction[data-entry="c1"]');
  await marker.waitFor();
  // Markers tell the truth (issue 17): after → the next request's prompt tokens (a5: 1000) less the new prompt
  // u5 (~5), not the saved estimate (9000); the summarizer and its cost as saved in the entry.
  const line = 'Compacted on request · 42.0k → 995 tokens · fake-small · $0.0042';
  assert.equal(await marker.locator('.marker-text').innerText(), line);
  // Reloaded from the file (another session, then this one again): the same figures.
  await openSessionFromList(page, 'First message of the long branch', `m${LONG - 1}`);
  const reopened = await openSessionFromList(page, 'Plan the checkout tests', 'a5');
  await reopened.locator('.marker-compaction[data-entry="c1"]').waitFor();
  assert.equal(await reopened.locator('.marker-compaction[data-entry="c1"] .marker-text').innerText(), line);
  const toggle = marker.locator('.marker-line');
  await toggle.click();
  await marker.locator('.marker-line[aria-expanded="true"]').waitFor();
  const body = marker.locator('.marker-body');
  await body.locator('h2', { hasText: 'Goal' }).waitFor();
  assert.match(await body.innerText(), /Approach Beta with a payment step/);
  // the paths are in the collapsed "Kept" section under the marker line
  const kept = marker.locator('.marker-kept');
  assert.match(await kept.locator('summary').innerText(), /^Kept: 2 paths$/);
  await kept.locator('summary').click();
  assert.match(await kept.locator('.file-list', { hasText: 'Read files (1)' }).innerText(), /src\/inventory\.json/);
  assert.match(await kept.locator('.file-list', { hasText: 'Modified files (1)' }).innerText(), /test\/checkout\.test\.js/);
  await screenshot(page, 'chat-seeded-compaction-marker-expanded');

  await body.locator('vscode-button[data-action="continueBefore"]').click();
  // The leaf moves to a3 (the first kept entry's predecessor): the compaction and what followed leave the path.
  await chat.locator('#app[data-leaf="a3"]').waitFor({ timeout: 20_000 });
  await chat.locator('.marker-compaction').waitFor({ state: 'detached' });
  await chat.locator('.msg[data-entry="a3"]', { hasText: 'Beta works so far' }).waitFor();
  assert.equal(await chat.locator('.msg[data-entry="u5"]').count(), 0, 'messages after the compaction left the active path');
  assert.equal(readFileSync(branchedFile, 'utf8'), before, 'the session file is unchanged');
});

wb.test('the in-panel tree shows two branches; clicking the other branch and Summarize puts a summary marker into the chat', async (page) => {
  const chat = await readyChat(page);
  await chat.locator('#app[data-leaf="a3"]').waitFor();
  const treeOpen = chat.locator('#app[data-tree-open="true"]');
  if ((await treeOpen.count()) === 0) await chat.locator('vscode-button#toggle-tree').click();
  await treeOpen.waitFor();
  // the panel opens as a graph (tree-graph.test.mjs); these checks are on its list of entries
  await chat.locator('#tree-panel .tree-mode-list').click();
  const tree = chat.locator('#tree-panel');
  await tree.locator('.tree-row[data-id="u2"]').waitFor();
  await tree.locator('.tree-row[data-id="u3"]').waitFor();
  assert.match(await tree.locator('.tree-row[data-id="a1"] .tree-branches').innerText(), /2/, 'a1 is a branch point with two branches');

  // Record every navigation state the webview goes through (the summary may finish quickly).
  await chat.locator('#app').evaluate((app) => {
    window.__navStates = [];
    new MutationObserver(() => window.__navStates.push(app.dataset.navigation ?? '')).observe(app, { attributes: true, attributeFilter: ['data-navigation'] });
  });
  await retry('opening the branch dialog from the tree', async () => {
    await tree.locator('.tree-row[data-id="a2"]').click();
    await chat.locator('#branch-dialog').waitFor({ state: 'visible', timeout: 5000 });
  });
  assert.match(await chat.locator('#branch-dialog-preview').innerText(), /Alpha failed/);
  await chat.locator('vscode-button#switch-summarize').click();
  const summaryMarker = chat.locator('.marker-branch_summary');
  await summaryMarker.waitFor({ timeout: 30_000 });
  const states = await chat.locator('#app').evaluate(() => window.__navStates);
  assert.ok(states.includes('summarizing'), `progress was shown (states: ${states.join(',')})`);
  assert.ok(states.includes('done'), `navigation finished (states: ${states.join(',')})`);
  // The marker is the new leaf, right after the Alpha reply; the Beta branch stays in the tree.
  const leaf = await chat.locator('#app').getAttribute('data-leaf');
  assert.equal(await summaryMarker.getAttribute('data-entry'), leaf);
  // Path order: … u2, a2, summary (rows carry their index in the virtualized path).
  const count = Number(await chat.locator('#conversation').getAttribute('data-count'));
  assert.equal(await summaryMarker.getAttribute('data-vl-index'), String(count - 1), 'the summary is the last item of the path');
  assert.equal(await chat.locator('.row[data-entry="a2"]').getAttribute('data-vl-index'), String(count - 2), 'right after the Alpha reply');
  assert.equal(count, 5, 'u1, a1, u2, a2, summary');
  await tree.locator('.tree-row[data-id="u3"]').waitFor();
  await tree.locator(`.tree-row[data-id="${leaf}"].leaf`).waitFor();
  await chat.locator('#branch-dialog').waitFor({ state: 'hidden', timeout: 10_000 }).catch(async () => {
    await chat.locator('vscode-button#switch-close').click();
    await chat.locator('#branch-dialog').waitFor({ state: 'hidden' });
  });
  await chat.locator('vscode-button#toggle-tree').click();
  await chat.locator('#app[data-tree-open="false"]').waitFor();
});

wb.test('selecting a Session Tree row scrolls the chat to that message and highlights it', async (page) => {
  const chat = await readyChat(page);
  const scroller = chat.locator('#conversation');
  await scroller.evaluate((s) => { s.scrollTop = s.scrollHeight; });
  await expandPane(page, 'Session Tree');
  const row = sidebarPane(page, 'Session Tree').locator('.monaco-list-row', { hasText: 'Plan the checkout tests' }).first();
  await row.waitFor({ timeout: 20_000 });
  await retry('selecting the Session Tree row', async () => {
    await row.click();
    await chat.locator('#conversation[data-revealed="u1"]').waitFor({ timeout: 10_000 });
  });
  await chat.locator('.msg[data-entry="u1"].revealed').waitFor();
  // The revealed message is inside the viewport, near its top.
  const geometry = await chat.locator('.msg[data-entry="u1"]').evaluate((node) => {
    const s = node.closest('#conversation').getBoundingClientRect();
    const r = node.getBoundingClientRect();
    return { top: r.top - s.top, height: s.height };
  });
  assert.ok(geometry.top >= -1 && geometry.top < geometry.height / 2, `u1 is near the top of the viewport (${JSON.stringify(geometry)})`);

  // An entry on another branch cannot be shown: the chat says so instead of scrolling somewhere else.
  const off = sidebarPane(page, 'Session Tree').locator('.monaco-list-row', { hasText: 'Try approach Beta' }).first();
  await off.waitFor();
  await retry('selecting an off-path Session Tree row', async () => {
    await off.click();
    await chat.locator('.inline-notice', { hasText: 'not on the active path' }).first().waitFor({ timeout: 10_000 });
  });
});

wb.test('screenshots in light, dark and both high-contrast themes: readable colours, toolkit defined', async (page) => {
  const chat = await readyChat(page);
  // The newest messages (the Alpha reply and the branch summary) in view.
  await retry('scrolling to the newest message', async () => {
    await chat.locator('#conversation').evaluate((s) => { s.scrollTop = s.scrollHeight; });
    await chat.locator('.marker-branch_summary').waitFor({ timeout: 5000 });
  });
  for (const [theme, kind, name] of [THEMES[1], THEMES[0], THEMES[2], THEMES[3]]) {
    const frame = await setColorTheme(page, theme, kind);
    // Hover a message so its action toolbar shows in the screenshot, and focus its Copy button (focus ring).
    const message = frame.locator('.msg[data-entry="a2"]');
    await message.hover();
    const look = await frame.locator('#app').evaluate(() => {
      const style = (el) => getComputedStyle(el);
      const msg = document.querySelector('.msg[data-entry="a2"] .markdown');
      const who = document.querySelector('.msg[data-entry="a2"] .who');
      return {
        body: { color: style(document.body).color, background: style(document.body).backgroundColor },
        message: msg ? style(msg).color : '',
        who: who ? style(who).color : '',
        toolkit: ['vscode-button', 'vscode-dropdown', 'vscode-text-area'].map((name) => Boolean(customElements.get(name))),
        actionsWrapped: [...document.querySelectorAll('.msg-actions')].some((bar) => bar.getBoundingClientRect().height > 30),
      };
    });
    assert.notEqual(look.body.color, look.body.background, `${name}: text and background differ`);
    assert.notEqual(look.message, look.body.background, `${name}: message text differs from the background`);
    assert.notEqual(look.body.background, 'rgba(0, 0, 0, 0)', `${name}: the body has a theme background`);
    assert.deepEqual(look.toolkit, [true, true, true], `${name}: toolkit components are defined`);
    assert.equal(look.actionsWrapped, false, `${name}: message action toolbars stay on one line`);
    await screenshot(page, `chat-theme-${name}`);
  }
  await setColorTheme(page, 'Default Dark Modern', 'vscode-dark');
}, { timeout: 120_000 });

/** Indexes of the mounted rows that intersect the chat's viewport. */
function visibleIndexes(chat) {
  return chat.locator('.vl-rows > .row').evaluateAll((rows) => {
    const s = document.getElementById('conversation').getBoundingClientRect();
    return rows.filter((r) => {
      const b = r.getBoundingClientRect();
      return b.bottom > s.top && b.top < s.bottom;
    }).map((r) => Number(r.dataset.vlIndex));
  });
}

wb.test('a 5,000-message branch opens with only its tail; scrolling to the top loads earlier messages in place', async (page) => {
  const chat = await openSessionFromList(page, 'First message of the long branch', `m${LONG - 1}`);
  const scroller = chat.locator('#conversation');
  // The host sends the newest 200 messages (CONVERSATION_PAGE) and says there are more.
  await chat.locator('#conversation[data-count="200"][data-has-earlier="true"]').waitFor({ timeout: 30_000 });
  await chat.locator(`.msg[data-entry="m${LONG - 1}"]`).waitFor({ timeout: 20_000 });
  assert.equal(await chat.locator('.msg[data-entry="m0"]').count(), 0, 'the first message was not sent');
  assert.ok((await chat.locator('.vl-rows > .row').count()) < 300, 'only a window of rows is mounted');
  await chat.locator('#earlier').waitFor({ state: 'attached' });

  // Record the loading row's states: it must say it is loading while the page is on its way.
  await scroller.evaluate((s) => {
    window.__loadingStates = [];
    new MutationObserver(() => window.__loadingStates.push(`${s.dataset.loadingEarlier}:${document.querySelector('#earlier button').textContent}`)).observe(s, {
      attributes: true,
      attributeFilter: ['data-loading-earlier'],
    });
  });
  // Scroll to just below the "near the top" zone (one viewport), so the rows up there get mounted first …
  await retry('scrolling near the top of the tail', async () => {
    await scroller.evaluate((s) => { s.scrollTop = s.clientHeight * 1.5; });
    await chat.locator(`.row[data-entry="m${LONG - 200}"]`).waitFor({ timeout: 5000 });
  });
  assert.equal(await scroller.getAttribute('data-count'), '200', 'no page asked for outside the zone');
  // … then into it: note the message under the viewport's top edge at that moment.
  const anchor = await scroller.evaluate((s) => {
    s.scrollTop = s.clientHeight * 0.5;
    const top = s.getBoundingClientRect().top;
    const row = [...document.querySelectorAll('.vl-rows > .row')].find((r) => r.getBoundingClientRect().bottom > top + 1);
    return { entry: row.dataset.entry, top: row.getBoundingClientRect().top - top };
  });
  await chat.locator('#conversation[data-count="400"]').waitFor({ timeout: 20_000 });
  await chat.locator('#conversation[data-loading-earlier="false"]').waitFor();
  const states = await scroller.evaluate(() => window.__loadingStates);
  assert.ok(states.includes('true:Loading earlier messages…'), `the loading row showed (${states.join(', ')})`);
  const after = await scroller.evaluate((s, entry) => {
    const row = document.querySelector(`.vl-rows > .row[data-entry="${entry}"]`);
    return row ? row.getBoundingClientRect().top - s.getBoundingClientRect().top : null;
  }, anchor.entry);
  assert.ok(after !== null && Math.abs(after - anchor.top) <= 2, `the message under the viewport stayed put (${anchor.entry}: ${anchor.top} → ${after})`);
  assert.equal(await chat.locator('#conversation').getAttribute('data-has-earlier'), 'true');
  // The earlier page is in the list, in order, right before what was loaded.
  await scroller.evaluate((s) => { s.scrollTop -= s.clientHeight; });
  await chat.locator(`.row[data-entry="m${LONG - 201}"]`).waitFor({ timeout: 5000 });
  assert.equal(Number(await chat.locator(`.row[data-entry="m${LONG - 201}"]`).getAttribute('data-vl-index')), 199);
  await screenshot(page, 'chat-seeded-long-branch-earlier-page');
}, { timeout: 120_000 });

wb.test('selecting the first message of the long branch in the Session Tree loads the pages up to it and reveals it', async (page) => {
  const chat = await readyChat(page);
  await chat.locator(`#app[data-leaf="m${LONG - 1}"]`).waitFor({ timeout: 20_000 });
  await chat.locator('#conversation').evaluate((s) => { s.scrollTop = s.scrollHeight; });
  await expandPane(page, 'Session Tree');
  const pane = sidebarPane(page, 'Session Tree');
  const row = pane.locator('.monaco-list-row', { hasText: 'First message of the long branch' }).first();
  // The Session Tree lists 5,000 rows; its first one is at the top of the list.
  await retry('finding the first message in the Session Tree', async () => {
    await pane.locator('.monaco-list-row').first().waitFor({ timeout: 20_000 });
    if ((await row.count()) === 0) {
      await pane.locator('.monaco-list').first().hover();
      for (let i = 0; i < 40 && (await row.count()) === 0; i++) await page.mouse.wheel(0, -20_000);
    }
    await row.waitFor({ timeout: 5000 });
  });
  await retry('selecting the first message in the Session Tree', async () => {
    await row.click();
    await chat.locator('#conversation[data-revealed="m0"]').waitFor({ timeout: 20_000 });
  });
  await chat.locator('.msg[data-entry="m0"].revealed').waitFor();
  assert.equal(await chat.locator('#conversation').getAttribute('data-count'), String(LONG), 'every page up to the first message was loaded');
  assert.equal(await chat.locator('#conversation').getAttribute('data-has-earlier'), 'false');
  const geometry = await chat.locator('.msg[data-entry="m0"]').evaluate((node) => {
    const s = node.closest('#conversation').getBoundingClientRect();
    const r = node.getBoundingClientRect();
    return { top: r.top - s.top, height: s.height };
  });
  assert.ok(geometry.top >= -1 && geometry.top < geometry.height / 2, `m0 is near the top of the viewport (${JSON.stringify(geometry)})`);
  assert.ok((await visibleIndexes(chat)).includes(0), 'the first row is visible');
  assert.ok((await chat.locator('.vl-rows > .row').count()) < 300, `only a window of rows is mounted (${await chat.locator('.vl-rows > .row').count()})`);
  await screenshot(page, 'chat-seeded-long-branch-revealed-first');

  // Middle and bottom of the whole branch: still a window of rows.
  const scrollTo = (fraction) => chat.locator('#conversation').evaluate((s, f) => { s.scrollTop = f * (s.scrollHeight - s.clientHeight); }, fraction);
  const frames = () => chat.locator('#conversation').evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await retry('scrolling to the middle', async () => {
    await scrollTo(0.5);
    await frames();
    const visible = await visibleIndexes(chat);
    assert.ok(visible.length > 0 && visible.every((i) => i > 1000 && i < 4000), `middle rows are visible (${visible.slice(0, 5)})`);
  });
  assert.equal(await chat.locator('.msg[data-entry="m0"]').count(), 0, 'the first message left the DOM');
  await retry('scrolling to the bottom', async () => {
    await scrollTo(1);
    await chat.locator(`.msg[data-entry="m${LONG - 1}"]`).waitFor({ timeout: 5000 });
    assert.ok((await visibleIndexes(chat)).includes(LONG - 1), 'the last message is in the viewport');
  });
}, { timeout: 120_000 });

/** The row at the top of the chat's viewport: its entry, index, and how many px of it are above the edge. */
function topRow(chat) {
  return chat.locator('#conversation').evaluate((s) => {
    const top = s.getBoundingClientRect().top;
    const row = [...document.querySelectorAll('.vl-rows > .row')].find((r) => r.getBoundingClientRect().bottom > top);
    return row ? { entry: row.dataset.entry, index: Number(row.dataset.vlIndex), offset: top - row.getBoundingClientRect().top } : null;
  });
}

wb.test('the scroll position inside an earlier page survives the view being hidden and shown: the same message is at the top', async (page) => {
  const chat = await readyChat(page);
  await chat.locator(`#app[data-leaf="m${LONG - 1}"]`).waitFor({ timeout: 20_000 });
  const scroller = chat.locator('#conversation');
  const frames = () => scroller.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  // Well before the tail of 200 (the previous test loaded the whole branch): a row more than one 1,000-item
  // page before it, 10 px into the row.
  await retry('scrolling into an earlier page', async () => {
    await scroller.evaluate((s) => { s.scrollTop = 0.55 * (s.scrollHeight - s.clientHeight); });
    await frames();
    const row = await topRow(chat);
    assert.ok(row && Number(row.entry.slice(1)) < LONG - 1200, `a row of an earlier page is at the top (${JSON.stringify(row)})`);
  });
  await scroller.evaluate((s) => {
    const top = s.getBoundingClientRect().top;
    const row = [...document.querySelectorAll('.vl-rows > .row')].find((r) => r.getBoundingClientRect().bottom > top);
    s.scrollTop += 10 - (top - row.getBoundingClientRect().top);
  });
  await frames();
  const before = await topRow(chat);
  assert.ok(before && Math.abs(before.offset - 10) < 1, `10 px into the top row (${JSON.stringify(before)})`);
  // The view saved that row (it saves at most every 250 ms while scrolling).
  for (const deadline = Date.now() + 10_000; ; await page.waitForTimeout(100)) {
    const saved = await scroller.getAttribute('data-saved-anchor');
    const [entry, offset] = (saved ?? '').split('@');
    if (entry === before.entry && Math.abs(Number(offset) - before.offset) < 1) break;
    assert.ok(Date.now() < deadline, `the position was saved (saved ${saved}, at the top ${JSON.stringify(before)})`);
  }
  await chat.locator('#app').evaluate(() => { window.__arborBeforeHide = true; });

  // Hide the Arbor container (VS Code drops the hidden webview's DOM), then show it again.
  await page.locator('.part.activitybar .action-item .action-label[aria-label^="Explorer"]').click();
  await sidebar(page).locator('.composite.title', { hasText: /explorer/i }).waitFor();
  await page.locator('iframe.webview[src*="extensionId=arbor-dev.arbor"]:visible').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
  assert.equal(await page.locator('iframe.webview.ready[src*="extensionId=arbor-dev.arbor"]:visible').count(), 0, 'the chat is hidden');
  const again = await readyChat(page);
  assert.equal(await again.locator('#app').evaluate(() => window.__arborBeforeHide ?? null), null, 'the webview was re-created');

  // The new webview got the tail only; it loads the pages up to the saved row and puts it back exactly.
  await again.locator(`#conversation[data-restored="${before.entry}"]`).waitFor({ timeout: 30_000 });
  await frames();
  const after = await topRow(again);
  assert.equal(after?.entry, before.entry, `the same message is at the top (${JSON.stringify(before)} → ${JSON.stringify(after)})`);
  assert.ok(Math.abs(after.offset - before.offset) <= 1, `at the same offset (${before.offset} → ${after.offset})`);
  // m<k> is the k-th message of the branch: the pages of 1,000 before the tail up to it, and no more. A
  // scroll near the top may add a page of 200 on the way (on a fresh profile in CI it does, before the
  // restore's pages: 200 + 200 + 2 × 1,000 reach m2764), so the count lies between what reaches the row
  // and the whole pages that just do.
  const pages = Math.ceil((LONG - 200 - Number(before.entry.slice(1))) / 1000);
  assert.ok(pages >= 2, `${before.entry} is more than one page before the tail`);
  const count = Number(await again.locator('#conversation').getAttribute('data-count'));
  assert.ok(count >= LONG - Number(before.entry.slice(1)) && count <= 200 + pages * 1000, `the tail and the pages up to ${before.entry}, no more: ${count} items`);
  await screenshot(page, 'chat-seeded-long-branch-restored');
}, { timeout: 120_000 });
