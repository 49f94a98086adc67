#!/usr/bin/env node
// `npm start`: builds Arbor, installs the VS Code under test if needed (.vscode-test/), and serves it on
// 127.0.0.1 with Arbor installed and a scratch copy of demo/ open. Ctrl+C stops everything.
//   ARBOR_PORT=9000 npm start     preferred port (default 8123; a free one is used if it is taken)
//   npm start -- --watch          also rebuild on change (then run "Developer: Reload Window")
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer } from '../test/harness/code-server.mjs';
import { toolsDir, repoRoot } from '../test/harness/paths.mjs';

const watch = process.argv.includes('--watch');
const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// A persistent (but ignored) folder so settings and sessions survive restarts of `npm start`.
const runDir = join(toolsDir, 'start');
const workspace = join(runDir, 'bookshop');
const fresh = !existsSync(workspace);
mkdirSync(runDir, { recursive: true });
rmSync(join(runDir, 't'), { recursive: true, force: true }); // stale sockets from an earlier run
if (fresh) cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });

// User data (settings, secrets such as API keys) is kept between runs of `npm start`;
// delete .vscode-test/start/ to begin afresh.
const server = await startCodeServer({
  port: Number(process.env.ARBOR_PORT ?? 8123),
  runDir,
  workspace,
  keepUserData: true,
  // a newcomer sees Arbor's walkthrough on the first start (src/vscode/walkthrough.ts opens it once)
  settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true },
});
let watcher;
if (watch) {
  watcher = spawn(process.execPath, [join(repoRoot, 'scripts', 'build.mjs'), '--watch'], { stdio: 'inherit' });
}

console.log(`
Arbor is running in VS Code (code-server) at:

    ${server.workbenchUrl()}

Workspace: ${workspace}${fresh ? ' (fresh copy of demo/)' : ''}
Open the Arbor icon in the activity bar, or run "Arbor: Open Chat". Press Ctrl+C to stop.
`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping code-server…');
  watcher?.kill('SIGTERM');
  await server.stop();
  process.exit(0);
}
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
