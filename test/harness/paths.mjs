// Where everything the e2e layers need lives. Plain ESM so scripts and tests share it without a build.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const toolsDir = join(repoRoot, '.vscode-test');
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';
export const nodeDir = join(toolsDir, `node${NODE_MAJOR}`);
export const codeServerDir = join(toolsDir, `code-server-${CODE_SERVER_VERSION}`);
/** Folder holding the `node` binary of the node@24 npm package (put first on PATH). */
export const nodeBinDir = join(nodeDir, 'node_modules', 'node', 'bin');
/** Node 24 headers for native module builds (npm_config_nodedir). */
export const nodeHeadersDir = join(nodeDir, 'node_modules', 'node', 'node_modules', `node-linux-${process.arch}`);
export const codeServerBin = join(codeServerDir, 'node_modules', '.bin', 'code-server');
export const runsDir = join(toolsDir, 'runs');
export const testResultsDir = join(repoRoot, 'test-results');
export const chromiumPath = process.env.ARBOR_CHROMIUM ?? '/usr/bin/chromium';
