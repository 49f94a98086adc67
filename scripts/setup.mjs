#!/usr/bin/env node
// First step of `npm test` (and of `npm start` through the installer): everything a fresh Debian/Ubuntu machine
// lacks, with a progress line per step — the system packages (scripts/lib/system-packages.mjs), then the VS Code
// under test in .vscode-test/. Idempotent: on a machine that has it all, it only checks and prints one line.
//   node scripts/setup.mjs [test|start]
import { ensureSystemPackages } from './lib/system-packages.mjs';
import { ensureVsCodeUnderTest, isInstalled } from '../test/harness/install.mjs';

const purpose = process.argv[2] === 'start' ? 'start' : 'test';
const started = Date.now();
const log = (message) => console.log(message);

log(`[setup] 1/2 system packages for \`npm ${purpose}\``);
const system = ensureSystemPackages(purpose, { log });
if (!system.ok) {
  console.error(`[setup] ${system.message}`);
  process.exit(1);
}
log(`[setup] 2/2 VS Code under test${isInstalled() ? ' (already installed)' : ' (first run: builds code-server\'s native modules)'}`);
await ensureVsCodeUnderTest({ log });
log(`[setup] ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
