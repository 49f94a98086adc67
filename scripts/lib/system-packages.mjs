// The Debian/Ubuntu packages `npm start` and `npm test` need, and installing the missing ones, so the README's
// two commands work on a fresh machine (docs/architecture.md, "Fresh machine"). Each requirement says how to
// tell it is there without apt (a file or a command), so a machine set up another way is left alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const onPath = (tool) => (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, tool)));
const chromium = () => process.env.ARBOR_CHROMIUM ?? '/usr/bin/chromium';

/** `for`: which commands need it (`start`: code-server's native modules; `test`: those plus the UI tests). */
export const REQUIREMENTS = [
  { pkg: 'build-essential', why: 'a C++ compiler for code-server\'s native modules', for: ['start', 'test'], present: () => onPath('g++') && onPath('make') },
  { pkg: 'python3', why: 'node-gyp (native module builds)', for: ['start', 'test'], present: () => onPath('python3') },
  { pkg: 'libkrb5-dev', why: 'Kerberos headers for code-server\'s `kerberos` module', for: ['start', 'test'], present: () => process.platform !== 'linux' || existsSync('/usr/include/gssapi/gssapi.h') },
  { pkg: 'chromium', why: 'the browser the UI tests drive', for: ['test'], present: () => existsSync(chromium()) },
  { pkg: 'ripgrep', why: 'the `find`/`grep` tools\' fast path, tested as shipped', for: ['test'], present: () => onPath('rg') },
  { pkg: 'git', why: 'file checkpoints and their tests', for: ['start', 'test'], present: () => onPath('git') },
];

export function missingPackages(purpose) {
  return REQUIREMENTS.filter((r) => r.for.includes(purpose) && !r.present());
}

function run(argv, log) {
  log(`[setup] $ ${argv.join(' ')}`);
  const result = spawnSync(argv[0], argv.slice(1), {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

/** How to run apt-get here: directly as root, through password-less sudo, or not at all. */
function aptPrefix() {
  if (!onPath('apt-get')) return undefined;
  if (process.getuid?.() === 0) return [];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo', '-n'];
  return undefined;
}

/**
 * Installs what `purpose` needs and is missing. Returns `{ ok: true, installed }` or `{ ok: false, message }`
 * (with the one command to run by hand) when it cannot install them itself.
 */
export function ensureSystemPackages(purpose, { log = (m) => console.log(m) } = {}) {
  const missing = missingPackages(purpose);
  if (missing.length === 0) return { ok: true, installed: [] };
  const names = missing.map((r) => r.pkg);
  for (const r of missing) log(`[setup] missing ${r.pkg}: ${r.why}`);
  const prefix = aptPrefix();
  const manual = `sudo apt-get update && sudo apt-get install -y ${names.join(' ')}`;
  if (!prefix) return { ok: false, message: `Arbor needs system packages it cannot install without root. Run:\n  ${manual}` };
  const started = Date.now();
  log(`[setup] step 1/2: apt-get update`);
  if (!run([...prefix, 'apt-get', 'update', '-q'], log)) return { ok: false, message: `apt-get update failed. Run:\n  ${manual}` };
  log(`[setup] step 2/2: apt-get install ${names.join(' ')}`);
  if (!run([...prefix, 'apt-get', 'install', '-y', '-q', ...names], log)) return { ok: false, message: `apt-get install failed. Run:\n  ${manual}` };
  const still = missingPackages(purpose).map((r) => r.pkg);
  if (still.length > 0) return { ok: false, message: `installed, but still missing: ${still.join(', ')}` };
  log(`[setup] system packages ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { ok: true, installed: names };
}
