// Starts code-server (the VS Code under test) for one isolated run: its own user-data, extensions,
// XDG and TMPDIR folders under .vscode-test/runs/<id>/, bound to 127.0.0.1 on a free port, with no
// extension gallery and a quiet settings.json. Used by UI tests, extension-host tests and `npm start`.
//
//   const server = await startCodeServer({
//     extraEnv: { ARBOR_FAKE_LLM_URL: 'http://127.0.0.1:1234' },  // reaches the extension host
//     settings: { 'arbor.someSetting': true },                      // merged into User/settings.json
//     installArbor: true,                                           // symlink the repo as an extension
//   });
//   server.url; server.workspace; server.workbenchUrl({ payload }); await server.stop();
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureVsCodeUnderTest } from './install.mjs';
import { removeOnExit, trackGroup } from './processes.mjs';
import { repoRoot, runsDir } from './paths.mjs';

/** Settings that make the workbench quiet and deterministic (no walkthroughs, AI sidebar, trust prompts). */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'window.restoreWindows': 'none',
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // Run folders live inside this repository: do not offer to open the parent git repository.
  'git.openRepositoryInParentFolders': 'never',
};

/** A free TCP port on 127.0.0.1 (preferred if given and free). */
export async function freePort(preferred = 0) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(undefined));
      srv.listen(port, '127.0.0.1', () => {
        const { port: actual } = srv.address();
        srv.close(() => resolve(actual));
      });
    });
  if (preferred) {
    const port = await tryPort(preferred);
    if (port) return port;
  }
  return tryPort(0);
}

function extensionFolderName() {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  return `${manifest.publisher}.${manifest.name}-${manifest.version}`;
}

async function waitForHealth(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`code-server did not become healthy within ${timeoutMs} ms`);
}

/**
 * @param {object} [options]
 * @param {number} [options.port] preferred port (falls back to a free one)
 * @param {string} [options.workspace] folder to open; default: a fresh copy of demo/ in the run dir
 * @param {string} [options.workspaceName] folder name of that copy (default "bookshop")
 * @param {Record<string,string>} [options.extraEnv] extra env for code-server and its extension host
 * @param {Record<string,unknown>} [options.settings] extra user settings (merged over QUIET_SETTINGS)
 * @param {boolean} [options.installArbor] symlink this repo into the extensions dir (default true);
 *   pass false when loading Arbor as a development extension through the URL payload instead
 * @param {string} [options.runDir] run folder; default: a new .vscode-test/runs/<id>
 * @param {boolean} [options.keepUserData] reuse an existing runDir's settings.json (npm start)
 * @param {boolean} [options.keepRunDir] keep the run folder after stop (default: only on failure)
 * @param {(line: string) => void} [options.onOutput] receives code-server's stdout/stderr lines
 */
export async function startCodeServer(options = {}) {
  const { codeServerBin, env: nodeEnv } = await ensureVsCodeUnderTest();
  mkdirSync(runsDir, { recursive: true });
  const runDir = options.runDir ?? mkdtempSync(join(runsDir, 'r-'));
  // An interrupted run leaves nothing behind; a finished one decides in stop().
  const releaseRunDir = options.runDir ? () => {} : removeOnExit(runDir);
  const dirs = {
    userData: join(runDir, 'ud'),
    extensions: join(runDir, 'ext'),
    xdgConfig: join(runDir, 'xdg-config'),
    xdgData: join(runDir, 'xdg-data'),
    tmp: join(runDir, 't'), // short: unix socket paths max out at ~107 bytes
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  // code-server's window is a remote window: `machine`-scoped settings (Arbor's base URLs, models and
  // approvals; docs/reliability.md) apply only from the remote user settings (Machine/settings.json), the
  // file `ConfigurationTarget.Global` writes them to. The same settings go to both files.
  for (const folder of ['User', 'Machine']) {
    mkdirSync(join(dirs.userData, folder), { recursive: true });
    const settingsFile = join(dirs.userData, folder, 'settings.json');
    if (!(options.keepUserData && existsSync(settingsFile))) {
      writeFileSync(settingsFile, JSON.stringify({ ...QUIET_SETTINGS, ...(options.settings ?? {}) }, null, 2));
    }
  }
  if (options.installArbor !== false) {
    const link = join(dirs.extensions, extensionFolderName());
    rmSync(link, { force: true });
    symlinkSync(repoRoot, link, 'dir');
  }

  let workspace = options.workspace;
  if (!workspace) {
    workspace = join(runDir, options.workspaceName ?? 'bookshop');
    cpSync(join(repoRoot, 'demo'), workspace, { recursive: true });
  }

  const port = await freePort(options.port);
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...nodeEnv,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    TMPDIR: dirs.tmp,
    EXTENSIONS_GALLERY: '{}',
    ...(options.extraEnv ?? {}),
  };
  const args = [
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--ignore-last-opened',
  ];
  const child = spawn(codeServerBin, args, { env, cwd: runDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = trackGroup(child);
  const output = [];
  const onLine = (chunk) => {
    for (const line of String(chunk).split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 500) output.shift();
      options.onOutput?.(line);
    }
  };
  child.stdout.on('data', onLine);
  child.stderr.on('data', onLine);
  try {
    await waitForHealth(url, child, 60_000);
  } catch (error) {
    await stop();
    releaseRunDir();
    if (!options.runDir) rmSync(runDir, { recursive: true, force: true });
    throw new Error(`${error.message}\n--- code-server output ---\n${output.join('\n')}`);
  }

  return {
    url,
    port,
    runDir,
    workspace,
    dirs,
    /** Last lines code-server printed (for failure reports). */
    output,
    /** Workbench URL opening the workspace, optionally with a development `payload`. */
    workbenchUrl({ folder = workspace, payload } = {}) {
      let href = `${url}/?folder=${encodeURIComponent(folder)}`;
      if (payload) href += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return href;
    },
    /** `vscode-remote://` URI of a server-side path, for payload entries. */
    remoteUri(path) {
      return `vscode-remote://127.0.0.1:${port}${path}`;
    },
    /** Kills the whole process group; removes the run dir unless asked to keep it. */
    async stop({ keepRunDir = options.keepRunDir ?? false } = {}) {
      await stop();
      releaseRunDir();
      if (!keepRunDir && !options.runDir) rmSync(runDir, { recursive: true, force: true });
    },
  };
}
