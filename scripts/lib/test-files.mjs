// Test-file discovery shared by the test runner scripts: every file under `dir` whose name ends with
// one of `suffixes`, relative to the repo root, filtered by the command line's substrings, sorted.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function walk(dir, suffixes) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...walk(full, suffixes));
    else if (suffixes.some((suffix) => name.endsWith(suffix))) found.push(full);
  }
  return found;
}

/** Exits with a clear message when nothing matches: a runner that runs no test must not pass. */
export function findTestFiles(dir, suffixes, filters, label) {
  const files = walk(join(repoRoot, dir), suffixes)
    .map((file) => relative(repoRoot, file))
    .filter((file) => filters.length === 0 || filters.some((part) => file.includes(part)))
    .sort();
  if (files.length === 0) {
    console.error(`No ${label} test files matched.`);
    process.exit(1);
  }
  return files;
}
