#!/usr/bin/env node
// Runs the replay layer (test/replay/**/*.test.ts): recorded provider traffic shapes served by a
// loopback server to the real providers, with Node's built-in test runner through tsx.
import { spawnSync } from 'node:child_process';
import { findTestFiles, repoRoot } from './lib/test-files.mjs';

const filter = process.argv.slice(2);
const files = findTestFiles('test/replay', ['.test.ts'], filter, 'replay');
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, ARBOR_TEST: '1' },
});
process.exit(result.status ?? 1);
