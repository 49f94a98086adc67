#!/usr/bin/env node
// The extension-host suite (dist/test/suite.js) in desktop VS Code through @vscode/test-electron.
// It downloads VS Code into .vscode-test/, so it needs access to update.code.visualstudio.com; on
// machines without it use `npm run test:exthost` (same suite, in code-server).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot, runsDir } from '../test/harness/paths.mjs';
import { mkdirSync } from 'node:fs';

const suite = join(repoRoot, 'dist', 'test', 'suite.js');
if (!existsSync(suite)) {
  console.error('dist/test/suite.js is missing: run `npm run build` first');
  process.exit(1);
}
mkdirSync(runsDir, { recursive: true });
const runDir = mkdtempSync(join(runsDir, 'desktop-'));
const workspace = join(runDir, 'bookshop');
cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
const resultsFile = join(runDir, 'results.json');
let code = 1;
try {
  code = await runTests({
    version: process.env.ARBOR_VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: suite,
    extensionTestsEnv: { ARBOR_EXTHOST_RESULTS: resultsFile },
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      `--user-data-dir=${join(runDir, 'ud')}`,
      `--extensions-dir=${join(runDir, 'ext')}`,
    ],
  });
} catch (error) {
  console.error(`desktop: could not run VS Code: ${error instanceof Error ? error.message : String(error)}`);
}
if (existsSync(resultsFile)) {
  const { passed, failed } = JSON.parse(readFileSync(resultsFile, 'utf8'));
  console.log(`exthost (desktop): ${passed} passed, ${failed} failed`);
  if (failed > 0) code = 1;
} else {
  console.log('exthost (desktop): no results (VS Code did not run the suite)');
  code = 1;
}
rmSync(runDir, { recursive: true, force: true });
process.exit(code);
