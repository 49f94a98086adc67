// Issue #17 in the real workbench (code-server + Chromium, ~300 px side bar, fake LLM): the user pins a
// message from its toolbar, the session is compacted twice by a summarizer that keeps nothing (it answers
// the required headings, empty), and the pinned words still reach the model verbatim in the next request;
// the second compaction's marker lists them, collapsed, under "Kept" (issue 25: with every other
// message of the user, each reaching the model verbatim too). Screenshots of the open
// kept section in dark, light and high-contrast dark go to test-results/pinned-compaction-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyChat, setColorTheme } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-pins-'));

const PINNED = 'Invoice numbers look like INV-2024-00042: always five digits after the year.';
/** A summarizer that keeps nothing: the required headings, empty. */
const LOSSY = ['## Goal', '## Constraints & Preferences', '## Progress', '## Key Decisions', '## Next Steps', '## Critical Context'].join('\n\n');

const FILLER = 'Each row is split on commas outside quotes, the number is checked and the total kept in cents. '.repeat(20);

const { wb, llm } = useFakeLlmWorkbench('pinned-compaction', { sessionsDir });

async function send(chat, text, reply) {
  llm.server.enqueue({ text: reply });
  const input = chat.locator('#prompt-input textarea');
  await input.fill(text);
  await input.press('Enter');
  await chat.locator('.msg-assistant', { hasText: reply.slice(0, 30) }).first().waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
}

async function compact(chat, count) {
  // the conversation is windowed: an earlier marker may no longer be in the DOM, so wait for a new last marker
  const markers = chat.locator('.marker-compaction');
  const before = count > 1 ? await markers.last().innerText() : undefined;
  const input = chat.locator('#prompt-input textarea');
  await input.fill('/compact');
  await input.press('Enter');
  await markers.last().waitFor({ timeout: 30_000 });
  for (let i = 0; before !== undefined && i < 300 && (await markers.last().innerText()) === before; i++) await new Promise((r) => setTimeout(r, 100));
  assert.notEqual(await markers.last().innerText(), before, `compaction ${count} made a new marker`);
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
}

/** The text of every message the model was sent in a request (system prompt excluded). */
function sentText(request) {
  const text = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p.text ?? '').join('') : '');
  return (request.body.messages ?? []).filter((m) => m.role !== 'system').map((m) => text(m.content)).join('\n');
}

wb.test('a pinned message survives two compactions verbatim and the marker shows it as kept', async (page) => {
  const chat = await readyChat(page);
  // summaries (and the corrective retry) come from the lossy rule; replies from the queue
  llm.server.addRule({ when: { lastUserIncludes: '<conversation>' }, then: { text: LOSSY } });
  // the second compaction is asked as a continuation of the cached conversation (no <conversation> transcript)
  llm.server.addRule({ when: { lastUserIncludes: 'write a context checkpoint' }, then: { text: LOSSY } });
  // Long replies around the pinned message, so each compaction shrinks the context (one that would not is
  // refused); the message is pinned while it is still in view.
  await send(chat, 'Read the invoice export spec.', `Read it. ${FILLER}`);
  await send(chat, PINNED, 'Noted the invoice format.');

  const pinned = chat.locator('.msg-user', { hasText: 'Invoice numbers look like' });
  await pinned.hover();
  await pinned.locator('[data-action="pin"]').click();
  await chat.locator('.msg-user.pinned', { hasText: 'Invoice numbers look like' }).waitFor({ timeout: 20_000 });
  assert.equal(await pinned.locator('.pin-mark').count(), 1, 'the pin mark in the head');
  assert.equal(await pinned.locator('[data-action="pin"]').getAttribute('aria-pressed'), 'true');
  await send(chat, 'Draft the invoice parser.', `Parser drafted in src/invoice.ts. ${FILLER}`);

  await compact(chat, 1);
  await send(chat, 'Add tests for the parser.', `Tests added in test/invoice.test.ts. ${FILLER}`);
  await compact(chat, 2);

  llm.server.reset();
  await send(chat, 'What is the invoice format again?', 'INV, the year, five digits.');
  const request = llm.server.requests.find((r) => sentText(r).includes('What is the invoice format again?'));
  assert.ok(request, 'the next request reached the model');
  assert.ok(sentText(request).includes(PINNED), 'the pinned words are in the context verbatim after two compactions');
  assert.ok(sentText(request).includes('Draft the invoice parser.'), 'and so is an ordinary message of the user (issue 25: every message, not only pinned ones)');

  // the second (newest) marker; the first may be scrolled out of the chat's virtual list
  const marker = chat.locator('.marker-compaction').last();
  const kept = marker.locator('.marker-kept');
  assert.match(await kept.locator('summary').innerText(), /^Kept: 1 pinned · [1-9]\d* messages? you wrote/);
  assert.equal(await kept.getAttribute('open'), null, 'collapsed by default');
  await kept.locator('summary').click();
  const word = kept.locator('.kept-pinned .kept-text');
  await word.waitFor();
  assert.equal(await word.innerText(), PINNED);
  assert.ok((await kept.locator('.kept-said .kept-text').allInnerTexts()).includes('Draft the invoice parser.'), 'the marker lists it as "you said"');
  await marker.scrollIntoViewIfNeeded();
}, { timeout: 180_000 });

for (const [theme, kind, tag] of [
  ['Default Dark Modern', 'vscode-dark', 'dark'],
  ['Default Light Modern', 'vscode-light', 'light'],
  ['Default High Contrast', 'vscode-high-contrast', 'hc-dark'],
]) {
  wb.test(`the kept section is readable at 300 px in ${tag}`, async (page) => {
    const chat = await setColorTheme(page, theme, kind);
    const marker = chat.locator('.marker-compaction').last();
    const kept = marker.locator('.marker-kept');
    if ((await kept.getAttribute('open')) === null) await kept.locator('summary').click();
    await kept.locator('.kept-pinned').waitFor();
    await marker.scrollIntoViewIfNeeded();
    const fit = await kept.evaluate((e) => ({ width: document.body.clientWidth, right: e.getBoundingClientRect().right, scroll: e.scrollWidth, client: e.clientWidth }));
    console.log(`# figures pinned-compaction ${tag}: webview ${fit.width} px, kept section right edge ${Math.round(fit.right)} px`);
    assert.ok(fit.width <= 420, `a narrow side bar: ${fit.width} px`);
    assert.ok(fit.right <= fit.width && fit.scroll <= fit.client + 1, `the kept section wraps inside the view: ${JSON.stringify(fit)}`);
  });
}
