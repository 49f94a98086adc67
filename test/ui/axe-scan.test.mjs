// Issue #19: an axe-core accessibility scan of the chat webview at the default ~300 px side bar, with a
// pre-written session (a tool call, a branch summary, a compaction, two branches) and the in-panel tree
// open in Graph mode, in dark, light, high-contrast dark and high-contrast light: no violation with impact
// serious or critical, and neither of the first scan's moderate findings (no h1; the meter outside a landmark);
// the tree header fits the side bar. axe-core is injected into the webview's inner frame through Playwright (the page's
// CSP does not apply to the debugger). Counts per theme are printed as "# figures axe …" lines; the
// screenshots go to test-results/axe-scan-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionFromList, setColorTheme } from '../harness/browser.mjs';
import { useFakeLlmWorkbench } from '../harness/fake-workbench.mjs';
import { THEMES } from '../harness/themes.mjs';
import { seedEntries, textContent as text } from '../harness/seed-entries.mjs';

const axeSource = createRequire(import.meta.url)('axe-core').source;

const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-axe-'));
const { at, user, assistant, toolResult } = seedEntries('2025-05-01T09:00:00.000Z');

// u1 → a1 ┬ u2 → a2 (tool call) → t1 → a3                       (left behind)
//         └ b1 (branch summary) → u3 → a4 → c1 (compaction) → u4 → a5 (leaf)
const entries = [
  user('u1', null, 'Add a README intro for the bookshop'),
  assistant('a1', 'u1', text('The README now starts with a short **intro** and a `npm start` line.')),
  user('u2', 'a1', 'Run the tests'),
  assistant('a2', 'u2', [...text('Running them.'), { type: 'toolCall', id: 'call1', name: 'bash', arguments: { command: 'npm test' } }], { stopReason: 'toolUse' }),
  toolResult('t1', 'a2', 'call1', 'bash', '3 passing'),
  assistant('a3', 't1', text('All three pass.')),
  { type: 'branch_summary', id: 'b1', parentId: 'a1', timestamp: at(), fromId: 'a3', summary: '## Goal\nRun the tests.\n\n## Done\nThree pass.', details: { readFiles: ['package.json'], modifiedFiles: ['README.md'] } },
  user('u3', 'b1', 'Add a license file instead'),
  assistant('a4', 'u3', text('LICENSE added (MIT).\n\n```js\nconsole.log("hello");\n```')),
  { type: 'compaction', id: 'c1', parentId: 'a4', timestamp: at(), summary: '## Goal\nDocs for the bookshop.', firstKeptEntryId: 'a4', tokensBefore: 42_000 },
  user('u4', 'c1', 'Continue with the changelog'),
  assistant('a5', 'u4', text('The changelog has an entry for 1.1.')),
];
const header = { type: 'session', version: 3, id: 'ui-axe', timestamp: at(), cwd: sessionsDir };
writeFileSync(join(sessionsDir, '2025-05-01T09-00-00-000Z_ui-axe.jsonl'), [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');

const { wb } = useFakeLlmWorkbench('axe-scan', { sessionsDir });

/** Runs axe-core in the chat document; its violations and undecided checks, reduced to what a report needs. */
async function scan(chat) {
  const frame = await (await chat.locator('html').elementHandle()).ownerFrame();
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axeSource);
  return frame.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations', 'incomplete'] });
    const reduce = (list) => list.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 3).join(' ')}`) }));
    return { violations: reduce(result.violations), incomplete: reduce(result.incomplete) };
  });
}

wb.test('the seeded session opens with the tree panel in Graph mode', async (page) => {
  const chat = await openSessionFromList(page, 'Add a README intro', 'a5');
  await chat.locator('#toggle-tree').click();
  await chat.locator('.tree-mode-graph').click();
  await chat.locator('#tree-panel .graph-node.leaf').waitFor();
  await chat.locator('.marker-branch_summary[data-entry="b1"]').waitFor();
  // the tree panel's header fits the 300 px side bar: the count is whole (it was "12 ent…"), nothing overflows
  const head = await chat.locator('#tree-panel .tree-head').evaluate((h) => {
    const count = h.querySelector('.tree-count');
    const box = h.getBoundingClientRect();
    const inside = [...h.querySelectorAll('.tree-title, .tree-count, .graph-tool')].every((e) => {
      const r = e.getBoundingClientRect();
      return r.left >= box.left - 1 && r.right <= box.right + 1;
    });
    return { text: count.textContent, cut: count.scrollWidth > count.clientWidth + 1, width: Math.round(box.width), overflow: h.scrollWidth > h.clientWidth + 1, inside };
  });
  console.log(`# figures tree head: ${JSON.stringify(head)}`);
  assert.match(head.text, /^\d+ entries · \d+ branch points?$/);
  assert.deepEqual({ cut: head.cut, overflow: head.overflow, inside: head.inside }, { cut: false, overflow: false, inside: true }, JSON.stringify(head));
});

for (const [theme, kind, tag] of THEMES) {
  wb.test(`axe-core finds no serious or critical violation in ${tag}`, async (page) => {
    const chat = await setColorTheme(page, theme, kind);
    await chat.locator('#tree-panel .graph-node.leaf').waitFor();
    const { violations, incomplete } = await scan(chat);
    const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const count = (impact) => violations.filter((v) => v.impact === impact).reduce((s, v) => s + v.nodes.length, 0);
    console.log(`# figures axe ${tag}: critical ${count('critical')}, serious ${count('serious')}, moderate ${count('moderate')}, minor ${count('minor')} (nodes)`);
    // "incomplete": nodes axe could not decide (e.g. contrast over a translucent background), for the record
    console.log(`# figures axe ${tag} undecided: ${incomplete.map((v) => `${v.id} ${v.nodes.length}`).join(', ') || 'none'}`);
    for (const v of violations) console.log(`#   ${v.impact} ${v.id}: ${v.help}\n#     ${v.nodes.slice(0, 6).join('\n#     ')}`);
    assert.deepEqual(severe.map((v) => v.id), [], `serious or critical axe violations in ${tag}`);
    // the two moderate findings of the first scan: no h1 (the session name is one now), the meter outside a landmark
    const fixed = violations.filter((v) => v.id === 'page-has-heading-one' || v.id === 'region');
    assert.deepEqual(fixed.map((v) => `${v.id}: ${v.nodes.join('; ')}`), [], `fixed findings are back in ${tag}`);
  });
}
