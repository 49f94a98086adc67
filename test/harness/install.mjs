// Installs the VS Code under test on demand: the node@24 npm package and code-server, both into the
// git-ignored .vscode-test/ folder (stack B of the e2e recipe). npm's configured registry is used as is.
// Idempotent: a marker file is written only once an install is complete and smoke-tested.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSystemPackages } from '../../scripts/lib/system-packages.mjs';
import {
  CODE_SERVER_VERSION, NODE_MAJOR, codeServerBin, codeServerDir, nodeBinDir, nodeDir, nodeHeadersDir, toolsDir,
} from './paths.mjs';

const MARKER = '.arbor-install-complete';

function run(cmd, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)));
  });
}

function capture(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${cmd} exited ${code}`))));
  });
}

/**
 * `npm run` exports its own resolved config and lifecycle data as npm_* variables. A nested `npm install`
 * would take them as its config: the user agent (code-server's postinstall reads the node version from
 * it), the local prefix (the outer project!), the node-gyp path and so on. Drop those; keep the rest of
 * npm_config_* (registry, proxy, cafile, cache…), so installs use the registry npm is configured with.
 */
const INHERITED_NPM_CONFIG = new Set([
  'user_agent', 'local_prefix', 'prefix', 'global_prefix', 'npm_version', 'node_gyp', 'loglevel', 'init_module',
  'allow_scripts', 'nodedir',
]);
export function cleanNpmEnv(base = process.env) {
  const env = {};
  for (const [key, value] of Object.entries(base)) {
    const lower = key.toLowerCase();
    if (lower.startsWith('npm_config_') && INHERITED_NPM_CONFIG.has(lower.slice('npm_config_'.length))) continue;
    if (lower.startsWith('npm_') && !lower.startsWith('npm_config_')) continue; // lifecycle, package, execpath
    if (key === 'INIT_CWD' || key === 'NODE') continue;
    env[key] = value;
  }
  return env;
}

/** Environment in which code-server (and npm builds for it) run: node 24 first on PATH. */
export function nodeEnv(base = process.env) {
  return { ...cleanNpmEnv(base), PATH: `${nodeBinDir}:${base.PATH ?? ''}`, npm_config_nodedir: nodeHeadersDir };
}

function prepareDir(dir, name) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, description: 'Arbor test tool (generated)' }, null, 2));
}

const npmArgs = ['install', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'];

async function installNode(log) {
  if (existsSync(join(nodeDir, MARKER))) return false;
  log(`[install] node@${NODE_MAJOR} -> ${nodeDir}`);
  prepareDir(nodeDir, 'arbor-test-node');
  await run('npm', [...npmArgs, `node@${NODE_MAJOR}`], { cwd: nodeDir, env: cleanNpmEnv() });
  const version = await capture(join(nodeBinDir, 'node'), ['--version'], process.env);
  if (!version.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`unexpected node version ${version}`);
  writeFileSync(join(nodeDir, MARKER), `${version}\n`);
  log(`[install] node ${version} ready`);
  return true;
}

/**
 * code-server builds native modules from source (prebuilt binaries would come from GitHub): install the
 * compiler and headers first (as root or with password-less sudo), or fail at once with the command to run.
 */
function checkBuildPrerequisites(log) {
  const result = ensureSystemPackages('start', { log });
  if (!result.ok) throw new Error(`cannot build code-server's native modules. ${result.message}`);
}

/** `code-server --version` (its first line may be a log line about the config file, so search). */
async function codeServerVersion(env) {
  const scratch = join(codeServerDir, '.version-check');
  try {
    const out = await capture(codeServerBin, ['--version'], { ...env, XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch });
    return out.split('\n').find((line) => /^\d+\.\d+\.\d+ /.test(line)) ?? out;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Native modules code-server ships that the workbench under test never loads, so their builds are skipped:
 * `@vscode/sqlite3` is loaded only by VS Code's agent host (a Copilot process the tests never start) and is
 * a third of the whole native build (one 8 MB C file). Marked `false` in lib/vscode's `allowScripts`, which
 * npm honours for a dependency's install script.
 */
const UNUSED_NATIVE = ['@vscode/sqlite3'];

function skipUnusedNativeBuilds(vscodeDir, log) {
  const file = join(vscodeDir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  const allow = manifest.allowScripts ?? {};
  for (const key of Object.keys(allow)) if (UNUSED_NATIVE.some((name) => key === name || key.startsWith(`${name}@`))) delete allow[key];
  for (const name of UNUSED_NATIVE) allow[name] = false;
  manifest.allowScripts = allow;
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  log(`[install] skipping native builds the workbench never loads: ${UNUSED_NATIVE.join(', ')}`);
}

/**
 * code-server's own postinstall (lib/vscode's and its extensions' `npm install`), run by us after an install
 * without scripts, so the native builds can be narrowed first. It reads the node version from npm's user agent.
 */
async function runPostinstall(packageDir, env) {
  const nodeVersion = await capture(join(nodeBinDir, 'node'), ['--version'], env);
  const userAgent = `npm/${await capture('npm', ['--version'], env)} node/${nodeVersion} ${process.platform} ${process.arch}`;
  // JOBS=max: node-gyp compiles a module's files in parallel (make -j<cores>)
  await run('sh', ['./postinstall.sh'], { cwd: packageDir, env: { ...env, npm_config_user_agent: userAgent, JOBS: 'max' } });
}

async function installCodeServer(log) {
  if (existsSync(join(codeServerDir, MARKER))) return false;
  checkBuildPrerequisites(log);
  log(`[install] code-server@${CODE_SERVER_VERSION} -> ${codeServerDir} (1-3 minutes: builds its native modules)`);
  prepareDir(codeServerDir, 'arbor-test-code-server');
  const env = nodeEnv();
  await run('npm', [...npmArgs, '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], { cwd: codeServerDir, env });
  const packageDir = join(codeServerDir, 'node_modules', 'code-server');
  skipUnusedNativeBuilds(join(packageDir, 'lib', 'vscode'), log);
  log('[install] building code-server\'s native modules');
  await runPostinstall(packageDir, env);
  const version = await codeServerVersion(env);
  if (!version.startsWith(CODE_SERVER_VERSION)) throw new Error(`unexpected code-server version: ${version}`);
  writeFileSync(join(codeServerDir, MARKER), `${version}\n`);
  log(`[install] code-server ${version} ready`);
  return true;
}

/** Serialises concurrent installs (several test runs may start at once in one checkout). */
async function withLock(log, fn) {
  const lock = join(toolsDir, '.install-lock');
  mkdirSync(toolsDir, { recursive: true });
  for (let waited = 0; ; waited += 1) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const owner = Number(readFileSafe(join(lock, 'pid')));
      if (owner && !isAlive(owner)) { rmSync(lock, { recursive: true, force: true }); continue; }
      if (waited % 10 === 0) log(`[install] waiting for another install (pid ${owner || '?'})`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try { return await fn(); } finally { rmSync(lock, { recursive: true, force: true }); }
}

function readFileSafe(file) { try { return readFileSync(file, 'utf8'); } catch { return ''; } }
function isAlive(pid) { try { process.kill(pid, 0); return true; } catch { return false; } }

export function isInstalled() {
  return existsSync(join(nodeDir, MARKER)) && existsSync(join(codeServerDir, MARKER));
}

/** Installs what is missing; returns the paths callers need. */
export async function ensureVsCodeUnderTest({ log = (m) => console.log(m) } = {}) {
  if (!isInstalled()) {
    const started = Date.now();
    await withLock(log, async () => {
      await installNode(log);
      await installCodeServer(log);
    });
    log(`[install] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return { codeServerBin, nodeBinDir, env: nodeEnv() };
}
