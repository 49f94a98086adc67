// keepHeadBytes: the one UTF-8-safe head cut (instruction files, VS Code tool results) never splits a character.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { keepHeadBytes } from '../../../src/agent/tools/text';

describe('keepHeadBytes', () => {
  it('returns the text unchanged when it fits', () => {
    assert.equal(keepHeadBytes('héllo', 6), 'héllo');
    assert.equal(keepHeadBytes('', 0), '');
  });

  it('cuts ASCII at the byte count', () => {
    assert.equal(keepHeadBytes('abcdef', 3), 'abc');
  });

  it('backs off to the start of a 2-, 3- and 4-byte character it would split', () => {
    assert.equal(keepHeadBytes('aé', 2), 'a'); // é is 2 bytes
    assert.equal(keepHeadBytes('a€b', 2), 'a'); // € is 3 bytes
    assert.equal(keepHeadBytes('a€b', 3), 'a');
    assert.equal(keepHeadBytes('a€b', 4), 'a€');
    assert.equal(keepHeadBytes('a😀b', 4), 'a'); // 😀 is 4 bytes (a surrogate pair in JS)
    assert.equal(keepHeadBytes('a😀b', 5), 'a😀');
  });

  it('never ends in a replacement character it made, and keeps one the text had', () => {
    for (let n = 0; n < 12; n++) assert.ok(!keepHeadBytes('€😀é€😀', n).endsWith('\uFFFD'), `cut at ${n}`);
    assert.equal(keepHeadBytes('a\uFFFDbc', 4), 'a\uFFFD');
  });

  it('keeps nothing for a zero or negative budget', () => {
    assert.equal(keepHeadBytes('abc', 0), '');
    assert.equal(keepHeadBytes('abc', -5), '');
  });
});
