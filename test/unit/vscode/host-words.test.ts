// The host's words are localized through vscode.l10n.t, one literal per call (as approval-mode-words.ts
// does), so a translation bundle can carry them. A table of English phrases in src/vscode (a const object
// whose values are words, read by key) bypasses that: this scan finds one. Codes, icons and file
// extensions (one word, no space) are not words to translate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** `const NAME = { key: 'two words', … }` (on one line or over several), values not through vscode.l10n.t. */
function wordTables(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:export )?const ([A-Z][A-Z_]*)\b[^=\n]*=\s*\{([\s\S]*?)\}(?: as const)?;/gm)) {
    if (/:\s*(['"`])[^'"`\n]*[A-Za-z]{2,}[^'"`\n]* [^'"`\n]*\1/.test(m[2]!)) found.push(m[1]!);
  }
  return found;
}

test('no table of English phrases in src/vscode bypasses vscode.l10n.t', () => {
  const bypass = files(join(root, 'src', 'vscode')).flatMap((path) => wordTables(readFileSync(path, 'utf8')).map((name) => `${relative(root, path)}: ${name}`));
  assert.deepEqual(bypass, [], 'say these through vscode.l10n.t, one literal per call');
});

test('the scan catches a table of words and passes codes and icons', () => {
  assert.deepEqual(wordTables("const SCOPE_WORDS = { global: 'yours, every project', root: 'the project' } as const;"), ['SCOPE_WORDS']);
  assert.deepEqual(wordTables("const ICONS: Record<S, string> = { running: 'pass', starting: 'loading~spin' };"), []);
  assert.deepEqual(wordTables("const EXTENSION: Record<string, string> = {\n  'image/png': 'png',\n};"), []);
});
