// The session reader decodes each 4 MB chunk once and finds lines at the same newlines in bytes and text
// (docs/reliability.md, session open). Checked here against a naive whole-file reading: multi-byte
// characters across chunk edges, a line longer than a chunk, CRLF, a byte order mark, invalid UTF-8 and a
// torn last line give the same values and the same byte ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanLines } from '../../../src/session/scan';

function naive(bytes: Buffer): { offset: number; length: number; value: unknown }[] {
  const out: { offset: number; length: number; value: unknown }[] = [];
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) break;
    let text = bytes.toString('utf8', start, bytes[nl - 1] === 0x0d ? nl - 1 : nl);
    if (start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      out.push({ offset: start, length: nl - start, value: JSON.parse(text) });
    } catch {
      // skipped, as the reader reports it
    }
    start = nl + 1;
  }
  return out;
}

test('lines across chunk edges, longer than a chunk, with multi-byte characters read as a whole-file read does', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-scan-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const parts: Buffer[] = [Buffer.from('\ufeff{"type":"session","id":"s"}\r\n')];
  let i = 0;
  let size = parts[0]!.length;
  const add = (text: string) => {
    const b = Buffer.from(text);
    parts.push(b);
    size += b.length;
  };
  while (size < 9_500_000) {
    const filler = i % 97 === 0 ? 'x'.repeat(5_000_000) : 'é😀ü'.repeat(1 + (i % 300));
    add(`${JSON.stringify({ i, text: filler })}${i % 5 === 0 ? '\r\n' : '\n'}`);
    if (i % 50 === 7) add('{"broken": \n');
    i++;
  }
  parts.push(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d, 0x0a])); // {"a":"<lone lead byte>"}
  parts.push(Buffer.from('{"torn":'));
  const file = join(dir, 's.jsonl');
  writeFileSync(file, Buffer.concat(parts));
  const bytes = readFileSync(file);
  const scan = await scanLines(file);
  assert.deepEqual(scan.lines.map(({ offset, length, value }) => ({ offset, length, value })), naive(bytes));
  assert.equal(scan.endsWithNewline, false);
  assert.equal(scan.resumeOffset, bytes.length - '{"torn":'.length);
  assert.deepEqual([...new Set(scan.problems.map((p) => p.kind))].sort(), ['invalid-json', 'torn-final-line']);
  for (const line of scan.lines.slice(1, 40)) {
    assert.deepEqual(JSON.parse(bytes.toString('utf8', line.offset, line.offset + line.length)), line.value, `line ${line.lineNo} byte range`);
  }
});
