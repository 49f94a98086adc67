// pi 1.6.0 from npm (`@earendil-works/pi-coding-agent`), the real peer the session benches compare with,
// and a Node able to run it (pi needs Node >= 22.19). Looked for in ARBOR_PI16_DIR / ARBOR_NODE22, then in
// the git-ignored .bench-cache/; fetched there with `npm pack` (the only registry CI has) when `fetch` is set.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const PI_PACKAGE = '@earendil-works/pi-coding-agent@1.6.0';

/** `{ bundle, node }`, or `{ skipped: why }` when pi is not there and may not be fetched (or fetching failed). */
export function findPi16(root, { fetch }) {
  const cache = join(root, '.bench-cache');
  const piDir = process.env.ARBOR_PI16_DIR ?? join(cache, 'pi-1.6.0', 'package');
  const bundle = join(piDir, 'dist', 'bundle', 'index.js');
  const node = nodeFor(cache);
  if (existsSync(bundle) && node) return { bundle, node };
  if (!fetch) return { skipped: `pi 1.6.0 is not in ${piDir} (quick mode does not download it; a full run fetches it with npm pack)` };
  try {
    if (!existsSync(bundle)) unpack(PI_PACKAGE, join(cache, 'pi-1.6.0'));
    if (!nodeFor(cache)) unpack(`node-linux-${process.arch}@22`, join(cache, 'node22'));
  } catch (error) {
    return { skipped: `could not fetch pi 1.6.0 / Node 22 with npm pack: ${error.message}` };
  }
  const fetched = nodeFor(cache);
  return existsSync(bundle) && fetched ? { bundle, node: fetched } : { skipped: 'npm pack did not give pi 1.6.0 and Node 22' };
}

/** A Node >= 22.19: this one, ARBOR_NODE22, or the cached node-linux-* package. */
function nodeFor(cache) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  const candidates = [process.env.ARBOR_NODE22, join(cache, 'node22', 'package', 'bin', 'node')];
  return candidates.find((path) => path && existsSync(path));
}

/** `npm pack SPEC` into `dir`, then unpacks it there (as package/). */
function unpack(spec, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`[bench] npm pack ${spec} -> ${dir}`);
  const pack = spawnSync('npm', ['pack', spec, '--silent', '--no-update-notifier'], { cwd: dir, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack ${spec}: ${pack.stderr.trim().slice(0, 300)}`);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
  const tar = spawnSync('tar', ['xzf', tarball], { cwd: dir, encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar ${tarball}: ${tar.stderr.trim().slice(0, 300)}`);
  rmSync(join(dir, tarball));
}
