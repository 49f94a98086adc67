// The webview's words are localized like the host's: each user-visible string goes through t() and is an
// entry of src/protocol/webview-strings.ts, which the host translates with vscode.l10n. These tests keep
// the table and the code in step (every entry used, every use an entry: the compiler checks the second
// for t()'s literal arguments) and fail when a user-visible literal in the webview bypasses t().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { WEBVIEW_STRINGS, parseWebviewStrings, translateWebviewStrings } from '../../../src/protocol/webview-strings';
import { format, loadStrings, setStringsForTest, t } from '../../../webview/l10n';
import { renderMarkdown } from '../../../webview/markdown-render';
import { badgeFor } from '../../../webview/visible-text';

const root = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

const sources = sourceFiles(join(root, 'webview')).map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }));
const unquote = (body: string) => body.replace(/\\'/g, "'").replace(/\\"/g, '"');

/** The tables of English texts (typed WebviewString) the webview shows through t(), by file and name. */
const TABLES: readonly [string, RegExp][] = [
  ['webview/render/tree-kinds.ts', /const kindNames[^=]*=\s*\{([\s\S]*?)\n\};/],
  ['webview/graph/graph-text.ts', /const TITLES[^=]*=\s*\{([\s\S]*?)\n\};/],
  ['webview/render/tool-card.ts', /const statusText[^=]*=\s*\{([\s\S]*?)\n\};/],
  ['webview/render/welcome-tip-list.ts', /WELCOME_TIPS[^=]*=\s*\[([\s\S]*?)\n\];/],
];

/** Every English text the webview code names: t()/text() literals, the tables, the slash commands' hints. */
function namedTexts(): Set<string> {
  const names = new Set<string>();
  for (const { text } of sources) {
    for (const m of text.matchAll(/\b(?:t|text)\((['"])((?:\\.|(?!\1).)*)\1/g)) names.add(unquote(m[2]!));
  }
  for (const [file, table] of TABLES) {
    const body = table.exec(readFileSync(join(root, file), 'utf8'))?.[1];
    assert.ok(body, `${file} has its table`);
    for (const m of body.matchAll(/:\s*(['"])((?:\\.|(?!\1).)*)\1/g)) names.add(unquote(m[2]!));
  }
  for (const m of readFileSync(join(root, 'webview', 'slash.ts'), 'utf8').matchAll(/hint: '([^']*)'/g)) names.add(m[1]!);
  return names;
}

test('every entry of the string table is used by the webview, and every text the webview names is in it', () => {
  const named = namedTexts();
  const table = new Set<string>(WEBVIEW_STRINGS);
  assert.equal(table.size, WEBVIEW_STRINGS.length, 'no entry twice');
  assert.deepEqual([...table].filter((s) => !named.has(s)), [], 'entries no code uses: remove them');
  assert.deepEqual([...named].filter((s) => !table.has(s)), [], 'texts missing from src/protocol/webview-strings.ts');
  assert.ok(table.size > 250, `the table holds the webview's words (${table.size})`);
});

/**
 * Literals in the places a user reads: text children of el(), titles, aria-labels, placeholders, text
 * content and notices. A literal there must be t(…)'s argument, a symbol, or on the short list below.
 */
const VISIBLE_LITERAL = [
  /['"]?(?:aria-label|title|placeholder|alt)['"]?\s*:\s*(['"`])(?=[^'"`]*[A-Za-z]{2}[^'"`]*\1)/,
  /\.(?:textContent|title|placeholder)\s*=[^;=]*?(['"`])(?=[^'"`]*[A-Za-z]{2}[^'"`]*\1)/,
  /setAttribute\('(?:aria-label|title|placeholder)',\s*(['"`])/,
  /addNotice\('\w+',\s*(['"`])/,
  /\},\s*(['"`])(?=[A-Za-z(#][^'"`]*[a-z]{2})[^'"`]*\1\s*\)/, // el('tag', { … }, 'Some words'), also `${x} words`
  /text:\s*(['"`])(?=[A-Z][a-z]+ [a-z])/, // notice texts
  /(?:\?|['"`)]\s+:)\s*\(?\s*(['"`])(?=[A-Za-z#][a-z]* [a-z]+[^'"`]*\1)/, // cond ? 'some words' : 'other words'
  /[},]\s*(['"`])(?=[^'"`]*[A-Za-z]{2}[^'"`]*\1\s*,\s*el\()/, // el('div', { … }, 'Some words ', el('code', …))
];
/** Literals that are not words to translate: the product's name, and log lines for the output channel. */
const NOT_WORDS = [/'Arbor'/, /channel\.report\(/, /new Error\(/];

test('no user-visible string literal in the webview bypasses t()', () => {
  const bypass: string[] = [];
  for (const { file, text } of sources) {
    text.split('\n').forEach((line, i) => {
      const code = line.replace(/\$\{[^}]*\}/g, '#').replace(/\bt\((['"])(?:\\.|(?!\1).)*\1/g, 't(…)').replace(/\btext\((['"])(?:\\.|(?!\1).)*\1/g, 'text(…)');
      if (/^\s*(\/\/|\*|\/\*)/.test(code) || NOT_WORDS.some((p) => p.test(code))) return;
      if (VISIBLE_LITERAL.some((p) => p.test(code))) bypass.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(bypass, [], 'show these through t() (and add the English text to src/protocol/webview-strings.ts)');
});

test('the scan catches the literals it is for', () => {
  const samples = [
    "el('vscode-button', { id: 'x' }, 'Retry')",
    "title: 'Scroll to the newest message',",
    "'aria-label': `Alternative ${n}`",
    "send.textContent = busy ? 'Queue' : 'Send';",
    "store.addNotice('info', 'Already there.');",
    "const effect = writes ? 'writes files' : '';",
    "el('div', { class: 'x' }, `${name} does not read images.`)".replace(/\$\{[^}]*\}/g, '#'),
    "el('div', { class: 'tool-origin' }, 'MCP tool ', el('code', {}, name))",
    "el('div', {}, el('code', {}, a), ' · tool ', el('code', {}, b))",
  ];
  for (const sample of samples) assert.ok(VISIBLE_LITERAL.some((p) => p.test(sample)), sample);
  assert.ok(!VISIBLE_LITERAL.some((p) => p.test("el('span', { class: 'x' }, t('Retry'))".replace(/\bt\('[^']*'/, 't(…)'))), 't() passes');
});

test('t(): English by default, the bundle when it has the text, placeholders filled in either', () => {
  setStringsForTest({});
  assert.equal(t('Retry'), 'Retry');
  assert.equal(t('Alternative {0} of {1}', 2, 3), 'Alternative 2 of 3');
  setStringsForTest({ Retry: 'Réessayer', 'Alternative {0} of {1}': 'Variante {0} sur {1}' });
  try {
    assert.equal(t('Retry'), 'Réessayer');
    assert.equal(t('Alternative {0} of {1}', 2, 3), 'Variante 2 sur 3');
    assert.equal(t('Stop'), 'Stop', 'a text the bundle lacks stays English');
    // the words reach the DOM-free renderers too, escaped for their HTML
    setStringsForTest({ Copy: 'Copier <b>' , 'tab (U+0009)': 'tabulation (U+0009)' });
    assert.match(renderMarkdown('```js\nx\n```'), />Copier &lt;b&gt;<\/button>/);
    assert.equal(badgeFor(0x09)?.title, 'tabulation (U+0009)');
  } finally {
    setStringsForTest({});
  }
  assert.equal(format('{0} and {1}', ['a']), 'a and {1}', 'a placeholder without an argument stays');
});

test('the host side: only translations that differ travel, with their placeholders intact', () => {
  assert.deepEqual(translateWebviewStrings((message) => message), {}, 'English: nothing to send');
  const seen: string[][] = [];
  const french = translateWebviewStrings((message, ...args) => {
    seen.push(args);
    return message === 'Alternative {0} of {1}' ? `Variante ${args[0]} sur ${args[1]}` : message;
  });
  assert.deepEqual(french, { 'Alternative {0} of {1}': 'Variante {0} sur {1}' });
  assert.equal(seen.length, WEBVIEW_STRINGS.length, 'every text is asked for');
});

test('the page bundle is validated: not JSON, wrong shapes or too many entries leave English', () => {
  assert.deepEqual(parseWebviewStrings('{"Retry":"Réessayer"}'), { ok: true, strings: { Retry: 'Réessayer' } });
  for (const bad of ['not json', '[1,2]', '{"Retry": 5}', JSON.stringify(Object.fromEntries(Array.from({ length: WEBVIEW_STRINGS.length + 1 }, (_, i) => [`k${i}`, 'v'])))]) {
    assert.equal(parseWebviewStrings(bad).ok, false, bad.slice(0, 40));
  }
  setStringsForTest({});
  assert.match(loadStrings('{"Retry": 5}') ?? '', /invalid/);
  assert.equal(t('Retry'), 'Retry', 'a refused bundle leaves English');
  assert.equal(loadStrings('{"Retry":"Réessayer"}'), undefined);
  assert.equal(t('Retry'), 'Réessayer');
  setStringsForTest({});
});
