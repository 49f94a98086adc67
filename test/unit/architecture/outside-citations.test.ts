// Comments point at docs/, never at documents that are not in the repository (design seeds, reference notes
// kept beside it): a reader of the code must be able to open what a comment cites. This scans the shipped
// code (src/, webview/, prompts/) and the tests, benches and scripts for such citations, and checks that a
// quoted section of docs/pi-compatibility.md or docs/providers.md names a heading that exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const SCANNED = ['src', 'webview', 'prompts', 'test', 'bench', 'scripts'];
const TEXT = /\.(ts|tsx|mts|mjs|js|css|md)$/;

/** Citations of documents outside the repository, each with what it looks like. */
const OUTSIDE: readonly RegExp[] = [
  /\bseeds? ?0\d\d\b/i, // "seed 001"
  /\bthe seeds\b(?! a)/i, // "as the seeds word it" (not "a document seeds a new session")
  /\bthe seed's\b/i,
  /\bseed defaults?\b/i,
  /\breference §/i,
  /§ ?\d/, // a numbered section of some document; docs/ sections are cited by their heading
  /\bllm-providers\b/,
  /\bpi-behaviou?r\b/,
  /\bpeers\.md\b/,
  /\be2e-recipe\b/,
  /\bprovider-recordings\b/,
  /pi-1\.5-omp-18-format/,
  /\/work\/shared\b/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? files(path) : TEXT.test(name) ? [path] : [];
  });
}

const self = relative(root, __filename);
const sources = SCANNED.flatMap((d) => files(join(root, d)))
  .map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }))
  .filter((s) => s.file !== self);

/** `file:line: text` for every line that matches one of the patterns. */
function hits(patterns: readonly RegExp[]): string[] {
  return sources.flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

test('the scan reads the sources', () => {
  const shipped = sources.filter((s) => /^(src|webview|prompts)\//.test(s.file));
  assert.ok(shipped.length > 300, `found ${shipped.length} files in src/, webview/, prompts/`);
});

test('each outside-citation pattern catches what it is for', () => {
  const samples = ['(seed 001)', 'as the seeds word it', '(reference §3.11)', 'llm-providers §2.4', 'pi-behaviour §1.7', 'see peers.md', '/work/shared/x', 'the seed defaults', "the seed's wording"];
  for (const sample of samples) assert.ok(OUTSIDE.some((p) => p.test(sample)), sample);
  assert.ok(!OUTSIDE.some((p) => p.test('a handoff document seeds a new session')), 'the verb "seeds" is not a citation');
  assert.ok(!OUTSIDE.some((p) => p.test('runs under two seeds; a failure names the seed')), 'a random seed is not a citation');
});

test('no comment cites a document outside the repository', () => {
  assert.deepEqual(hits(OUTSIDE), [], 'point these at a section of docs/ (write it if it is missing) or drop the citation');
});

test('a quoted section of the pi-compatibility and providers docs exists', () => {
  for (const doc of ['pi-compatibility', 'providers']) {
    const headings = readFileSync(join(root, 'docs', `${doc}.md`), 'utf8').split('\n').filter((l) => l.startsWith('#')).map((l) => l.replace(/^#+\s*/, ''));
    const cited = new RegExp(`docs/${doc}\\.md,? "([^"]+)"`, 'g');
    const missing = sources.flatMap(({ file, text }) => [...text.matchAll(cited)].map((m) => m[1]!).filter((h) => !headings.includes(h)).map((h) => `${file}: "${h}"`));
    assert.deepEqual(missing, [], `sections cited from docs/${doc}.md that it does not have`);
  }
});
