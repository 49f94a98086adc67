// Issue #28 item 3.3 at the default ~300 px side bar (real workbench, fake LLM, a pre-written session long
// enough to scroll): the label input is not covered by the message toolbar and takes a click; Edit's
// in-place editor is never under the "Jump to latest" pill, and the pill covers no message text; a tool card's head shows the file name whole;
// the header's subtitle is not cut; in high contrast Approve stands out from Always and Deny. Screenshots in the four themes: test-results/narrow-defects-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatFrame, openSessionFromList, screenshot, setColorTheme } from '../harness/browser.mjs';
import { seedEntries } from '../harness/seed-entries.mjs';
import { THEMES } from '../harness/themes.mjs';
import { pillOverText } from '../harness/pill-overlap.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-narrow-defects-'));
const { at, user, assistant } = seedEntries('2025-03-01T09:00:00.000Z');
const PARAGRAPH = 'The inventory keeps one record per title with its stock count, and the report lists what to reorder. ';
const entries = [];
let parent = null;
for (let i = 1; i <= 8; i++) {
  entries.push(user(`u${i}`, parent, `Question ${i} about the inventory`));
  entries.push(assistant(`a${i}`, `u${i}`, PARAGRAPH.repeat(3)));
  parent = `a${i}`;
}
const header = { type: 'session', version: 3, id: 'ui-narrow-defects', timestamp: at(), cwd: sessionsDir };
writeFileSync(join(sessionsDir, '2025-03-01T09-00-00-000Z_ui-narrow-defects.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

// a model name as long as the offline demo's ("Arbor Demo (offline)"), which cut the subtitle
const { wb, llm } = useFakeLlmWorkbench('narrow-defects', { sessionsDir, models: (list) => list.map((m) => ({ ...m, name: 'Fake GPT 4.1 (offline)' })) });

/** Whether the point at the element's centre and near its right end hits the element itself. */
async function hitsItself(locator) {
  return locator.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return [[r.left + r.width / 2, r.top + r.height / 2], [r.right - 4, r.top + r.height / 2]].map(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit === e || e.contains(hit);
    });
  });
}

const cut = (locator) => locator.evaluate((e) => e.scrollWidth > e.clientWidth + 1);

wb.test('the header subtitle is not cut at 300 px', async (page) => {
  const chat = await openSessionFromList(page, 'Question 1', 'a8');
  const meta = chat.locator('.header-meta');
  const spans = await meta.locator('span').evaluateAll((all) => all.filter((s) => s.offsetParent !== null && s.textContent).map((s) => ({ text: s.textContent, cut: s.scrollWidth > s.clientWidth + 1 })));
  console.log(`# figures narrow-defects header: ${JSON.stringify(spans)}, line cut=${await cut(meta)}`);
  assert.equal(await cut(meta), false, 'the subtitle line is not ellipsised');
  assert.ok(spans.length >= 2 && spans.every((s) => !s.cut), `every shown part whole: ${JSON.stringify(spans)}`);
  assert.match(await meta.getAttribute('title'), /Arbor v\d/, 'the version stays in the tooltip');
});

wb.test('the label input is clickable, not under the message toolbar', async (page) => {
  const chat = await openSessionFromList(page, 'Question 1', 'a8');
  const message = chat.locator('.msg[data-entry="a8"]');
  await message.scrollIntoViewIfNeeded();
  await message.hover();
  await message.locator('[data-action="label"]').click();
  const input = message.locator('input.label-input');
  await input.waitFor();
  const hits = await hitsItself(input);
  console.log(`# figures narrow-defects label input hit test (centre, right end): ${hits.join(', ')}`);
  assert.deepEqual(hits, [true, true], 'nothing covers the label input');
  await input.click();
  await input.fill('first draft');
  await screenshot(page, 'narrow-defects-label-input');
  await input.press('Enter');
  await message.locator('.entry-label', { hasText: 'first draft' }).waitFor({ timeout: 20_000 });
});

wb.test('Edit opens its editor clear of the "Jump to latest" pill', async (page) => {
  const chat = chatFrame(page); // still showing the session (a label entry moved its leaf on)
  const message = chat.locator('.msg[data-entry="u7"]');
  // u7 at the bottom edge of the conversation, scrolled up from the end: the pill shows
  await message.evaluate((e) => e.scrollIntoView({ block: 'end' }));
  await chat.locator('#jump-latest:not([hidden])').waitFor({ timeout: 10_000 });
  // the pill covers no message text: every line of text in view, the last one included, is clear of it
  const covered = await chat.locator('#app').evaluate(pillOverText);
  console.log(`# figures narrow-defects pill vs text: ${JSON.stringify(covered)}`);
  await screenshot(page, 'narrow-defects-jump-pill');
  assert.ok(covered.lines > 0 && covered.last, 'text is in view (else this check proves nothing)');
  assert.ok(covered.last.bottom > covered.viewBottom - 40, `the last visible line reaches the conversation's bottom edge: ${JSON.stringify(covered)}`);
  assert.deepEqual(covered.covered, [], `the "Jump to latest" pill covers no message text: ${JSON.stringify(covered)}`);
  await message.hover();
  await message.locator('[data-action="edit"]').click();
  const editor = message.locator('.inline-edit');
  await editor.waitFor();
  await page.waitForTimeout(300); // let a smooth scroll settle before measuring
  const overlap = await chat.locator('#app').evaluate(() => {
    const pill = document.getElementById('jump-latest');
    const box = document.querySelector('.msg[data-entry="u7"] .inline-edit').getBoundingClientRect();
    const scroller = document.getElementById('conversation').getBoundingClientRect();
    const p = pill.hidden ? undefined : pill.getBoundingClientRect();
    return {
      underPill: p ? box.bottom > p.top && box.top < p.bottom : false,
      belowView: box.bottom > scroller.bottom + 1,
    };
  });
  console.log(`# figures narrow-defects editor vs pill: ${JSON.stringify(overlap)}`);
  await screenshot(page, 'narrow-defects-edit');
  assert.deepEqual(overlap, { underPill: false, belowView: false }, 'the editor and its buttons are in view, clear of the pill');
  assert.deepEqual(await hitsItself(message.locator('[data-action="saveEdit"]')), [true, true], 'Save & send takes a click');
  await message.locator('[data-action="cancelEdit"]').click();
});

wb.test('a tool card head shows the file name whole while it awaits approval', async (page) => {
  const chat = chatFrame(page);
  llm.server.enqueue(
    { text: 'Writing it.', toolCalls: [{ id: 'call_hello', name: 'write', input: { path: 'hello.txt', content: 'Hello\n' } }] },
    { text: 'Left as it was.' },
  );
  const input = chat.locator('#prompt-input textarea');
  await input.fill('Write hello.txt');
  await input.press('Enter');
  const card = chat.locator('.tool-card[data-tool="call_hello"]');
  await card.locator('.approval').waitFor({ timeout: 30_000 });
  await card.scrollIntoViewIfNeeded();
  const key = card.locator('.tool-key');
  console.log(`# figures narrow-defects card head: key "${await key.innerText()}" cut=${await cut(key)}`);
  assert.equal(await cut(key), false, 'hello.txt is shown whole');
  for (const [theme, kind, tag] of THEMES) {
    await setColorTheme(page, theme, kind);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, `narrow-defects-card-${tag}`);
    // issue #28 item 3.9: in high contrast, Approve must not look like Always and Deny
    const looks = await card.locator('.approval').evaluate((row) => {
      const look = (action) => {
        const host = row.querySelector(`vscode-button[data-action="${action}"]`);
        const inner = host.shadowRoot?.querySelector('button');
        const h = getComputedStyle(host);
        const b = inner ? getComputedStyle(inner) : h;
        return { background: h.backgroundColor, border: `${h.borderTopWidth} ${h.borderTopStyle} ${h.borderTopColor}`, outline: `${h.outlineWidth} ${h.outlineStyle} ${h.outlineColor}`, weight: b.fontWeight };
      };
      return { approve: look('approve'), always: look('approveAlways'), deny: look('deny') };
    });
    console.log(`# figures narrow-defects buttons ${tag}: ${JSON.stringify(looks)}`);
    if (tag.startsWith('hc')) {
      assert.notDeepEqual(looks.approve, looks.always, `${tag}: Approve differs from Always`);
      assert.notDeepEqual(looks.approve, looks.deny, `${tag}: Approve differs from Deny`);
      assert.match(looks.approve.outline, /^[2-9]px solid/, `${tag}: Approve has a visible border of its own`);
    }
  }
  await card.locator('vscode-button[data-action="deny"]').click();
  await chat.locator('.msg-assistant', { hasText: 'Left as it was.' }).waitFor({ timeout: 30_000 });
}, { timeout: 180_000 });
