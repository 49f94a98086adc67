// Issue #24 item 5: the chat's Markdown renderer has a size guard. A message over the size or table-column
// limit (webview/markdown-guard.ts) is shown as plain text with a "Show as Markdown" button; under the
// limits, the worst inputs we know are parsed and their time reported. The work is counted, not timed:
// markdown-it's parser is wrapped to count the characters it is given (and refuses over 200,000, so the
// unguarded renderer fails fast here instead of spending a minute), and no message may make it parse more
// than the limit without the user asking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import type { ConversationItem } from '../../../src/protocol';
import { reportFigures } from '../profile';
import { byAttr, byClass, installFakeDocument, textOf, type FakeNode } from './fake-dom';

installFakeDocument();
/* eslint-disable @typescript-eslint/no-require-imports */
// (typed by hand: the webview's modules are typed against the DOM, which this project's tsconfig leaves out)
const { renderItem } = require('../../../webview/render/message') as { renderItem: (ctx: unknown, item: ConversationItem) => unknown };
const { Store } = require('../../../webview/store') as { Store: new () => unknown };
const markdown = require('../../../webview/markdown') as { showAsMarkdown?: (target: unknown, text: string) => void };
interface Guard {
  MARKDOWN_MAX_CHARS: number;
  MARKDOWN_MAX_COLUMNS: number;
  markdownGuard(text: string): string | undefined;
}
// Loaded where used, so the first tests fail on what they check on a build without the guard.
const guardModule = () => require('../../../webview/markdown-guard') as Guard;
/* eslint-enable @typescript-eslint/no-require-imports */

let parsedChars = 0;
let largestParse = 0;
const REFUSE_OVER = 200_000;
const parse = MarkdownIt.prototype.parse;
MarkdownIt.prototype.parse = function counted(this: InstanceType<typeof MarkdownIt>, src: string, env: Parameters<typeof parse>[1]) {
  parsedChars += src.length;
  largestParse = Math.max(largestParse, src.length);
  if (src.length > REFUSE_OVER) return [];
  return parse.call(this, src, env);
};

function wideTable(columns: number, bytes: number): string {
  const row = (cell: string) => `|${Array.from({ length: columns }, (_, i) => (cell === 'h' ? `h${i}` : cell)).join('|')}|\n`;
  let text = row('h') + row('-');
  const body = row('x');
  while (text.length < bytes) text += body;
  return text;
}

const ctx = { store: new Store(), open: new Set<string>() };
const assistant = (text: string): ConversationItem => ({ kind: 'assistant', entryId: 'a1', parentId: null, timestamp: 1, blocks: [{ type: 'text', text }] }) as unknown as ConversationItem;
const user = (text: string): ConversationItem => ({ kind: 'user', entryId: 'u1', parentId: null, timestamp: 1, text }) as unknown as ConversationItem;

/** Renders one message; `ms` is the CPU time it took (wall time on a shared machine says more about the others). */
function render(item: ConversationItem): { node: FakeNode; ms: number; parsed: number } {
  parsedChars = 0;
  const started = process.cpuUsage();
  const node = renderItem(ctx, item) as unknown as FakeNode;
  const used = process.cpuUsage(started);
  return { node, ms: Math.round((used.user + used.system) / 1000), parsed: parsedChars };
}

const figures: Record<string, number> = {};

test('a 2 MB table with 5,000 columns is shown as plain text with "Show as Markdown", unparsed', () => {
  const text = wideTable(5000, 2_000_000);
  for (const [name, item] of [['assistant', assistant(text)], ['user', user(text)]] as const) {
    const { node, ms, parsed } = render(item);
    figures[`wideTable2MB_${name}_cpuMs`] = ms;
    assert.equal(parsed, 0, `${name}: markdown-it was given ${parsed} characters`);
    const buttons = byAttr(node, 'data-action', 'showMarkdown');
    assert.equal(buttons.length, 1, `${name}: one "Show as Markdown" button`);
    assert.equal(textOf(buttons[0]!), 'Show as Markdown');
    const plain = byClass(node, 'plain-markdown');
    assert.equal(plain.length, 1);
    assert.equal(textOf(plain[0]!), text, 'the whole text is there, as text');
  }
});

test('a small message with a table of 500 columns is guarded too; an ordinary table is rendered', () => {
  const wide = render(assistant(wideTable(500, 3000)));
  assert.equal(wide.parsed, 0);
  assert.equal(byAttr(wide.node, 'data-action', 'showMarkdown').length, 1);
  const normal = render(assistant(`Results:\n\n${wideTable(6, 600)}\nDone.`));
  assert.ok(normal.parsed > 0, 'an ordinary table goes through markdown-it');
  assert.equal(byAttr(normal.node, 'data-action', 'showMarkdown').length, 0);
});

test('under the limits the worst inputs known are parsed (their times reported), never more than the limit', () => {
  const guard = guardModule();
  const max = guard.MARKDOWN_MAX_CHARS;
  const hostile: Record<string, string> = {
    brackets: '['.repeat(max),
    emphasis: '*a'.repeat(Math.floor(max / 2)),
    links: 'http://a.b/ '.repeat(Math.floor(max / 12)),
    narrowTable: wideTable(2, max - 10),
    widestAllowedTable: wideTable(guard.MARKDOWN_MAX_COLUMNS, max - 1000),
    backticks: '`a``'.repeat(Math.floor(max / 4)),
  };
  largestParse = 0;
  for (const [name, text] of Object.entries(hostile)) {
    assert.ok(guard.markdownGuard(text) === undefined, `${name} is within the limits`);
    const { node, ms } = render(assistant(text));
    figures[`${name}_cpuMs`] = ms;
    assert.equal(byAttr(node, 'data-action', 'showMarkdown').length, 0, name);
  }
  const over = render(assistant('x'.repeat(max + 1)));
  assert.equal(over.parsed, 0, 'one character over the size limit is not parsed');
  assert.ok(largestParse <= max, `markdown-it was given ${largestParse} characters at once`);
});

test('"Show as Markdown" renders the guarded text on demand', () => {
  const text = `# Title\n\n${'word '.repeat(30_000)}`;
  const target = { innerHTML: '', classList: { remove: () => undefined } };
  parsedChars = 0;
  assert.ok(markdown.showAsMarkdown, 'webview/markdown.ts has showAsMarkdown');
  markdown.showAsMarkdown(target, text);
  assert.equal(parsedChars, text.length);
  assert.match(target.innerHTML, /<h1>Title<\/h1>/);
});

test('figures', () => {
  reportFigures('attacks/markdown-size', figures);
});
