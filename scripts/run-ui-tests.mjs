#!/usr/bin/env node
// UI end-to-end tests (test/ui/**/*.test.mjs) with Node's test runner: Playwright drives Debian's
// Chromium against code-server. Expects a dev build (npm run build). Screenshots go to test-results/.
//   node scripts/run-ui-tests.mjs [path-filter...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVsCodeUnderTest } from '../test/harness/install.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const filter = process.argv.slice(2);

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (name.endsWith('.test.mjs')) found.push(full);
  }
  return found;
}

const files = findTests(join(root, 'test', 'ui'))
  .map((f) => relative(root, f))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();
if (files.length === 0) {
  console.error('No UI test files matched.');
  process.exit(1);
}
// Install once up front, so the first test file's timeout does not include the install.
await ensureVsCodeUnderTest();
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ARBOR_TEST: '1' },
});
process.exit(result.status ?? 1);
