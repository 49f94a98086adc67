#!/usr/bin/env node
// Runs every unit test (test/unit/**/*.test.ts) with Node's built-in test runner.
// TypeScript is loaded through tsx so core modules are tested as written, without a build step.
import { spawnSync } from 'node:child_process';
import { findTestFiles, repoRoot } from './lib/test-files.mjs';

const root = repoRoot;
const filter = process.argv.slice(2);

const files = findTestFiles('test/unit', ['.test.ts'], filter, 'unit');
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ARBOR_TEST: '1' },
});
process.exit(result.status ?? 1);
