// Independent attack run on the name rules (docs/reliability.md, "One rule for every writer": protected
// "in any spelling (case, `..`, …, Windows trailing dots, streams, short names)"). Spellings a
// case-insensitive file system (APFS, NTFS) folds onto a protected name that a plain ASCII lower-casing
// would miss: KELVIN SIGN (U+212A) folds to `k`, LATIN SMALL LETTER LONG S (U+017F) to `s`; Windows drops
// trailing dots and spaces in every segment, not only the last. Pure string rules: run on any OS.
// A passing test means the attack failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { protectedPathMatch } from '../../../src/agent/tools/protected-paths';

const SPELLINGS = [
  '.hus\u212Ay/pre-commit',
  '.v\u017Fcode/tasks.json',
  '.github./workflows./ci.yml',
  '.github /workflows/ci.yml',
  '.GITHUB/WORKFLOWS/ci.yml',
  'sub/.git./hooks/pre-commit',
  '.git::$INDEX_ALLOCATION/hooks/pre-commit',
  'GIT~1/hooks/pre-commit',
  'VSCODE~1/tasks.json',
  'AGENTS.md.',
  'agents.md ',
  'CLAUDE.md::$DATA',
  '.envrc...',
  'project.CODE-WORKSPACE',
  '.MCP.json',
  '.gitmodules.',
  'a\\.vscode\\settings.json',
];

test('spellings a case-insensitive or Windows file system folds onto a protected name are protected', () => {
  const missed = SPELLINGS.filter((p) => protectedPathMatch(p) === undefined);
  assert.deepEqual(missed, [], 'every spelling is protected');
});
