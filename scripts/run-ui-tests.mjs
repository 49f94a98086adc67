#!/usr/bin/env node
// UI end-to-end tests (test/ui/**/*.test.mjs) with Node's test runner: Playwright drives Debian's
// Chromium against code-server. Expects a dev build (npm run build). Screenshots go to test-results/.
//   node scripts/run-ui-tests.mjs [path-filter...]
import { spawnSync } from 'node:child_process';
import { ensureVsCodeUnderTest } from '../test/harness/install.mjs';
import { ensureSystemPackages } from './lib/system-packages.mjs';
import { findTestFiles, repoRoot } from './lib/test-files.mjs';

const root = repoRoot;
const filter = process.argv.slice(2);

const files = findTestFiles('test/ui', ['.test.mjs'], filter, 'UI');
const system = ensureSystemPackages('test'); // Chromium, when the suite is run on its own
if (!system.ok) { console.error(system.message); process.exit(1); }
// Install once up front, so the first test file's timeout does not include the install.
await ensureVsCodeUnderTest();
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ARBOR_TEST: '1' },
});
process.exit(result.status ?? 1);
