// The files that ship: `node scripts/build.mjs --production` writes dist/, this copies dist/extension.js and
// dist/vendor/ (the provider SDKs it imports on demand, by relative path) into a bench's work folder, then
// puts the development build back (the tests load dist/test/suite.js and the sourcemaps).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function build(...args) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), ...args], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`node scripts/build.mjs ${args.join(' ')} failed (${r.status})`);
}

/** Builds for production, copies the shipped extension bundle to `work`, restores the dev build; returns its path. */
export function copyProductionBuild(work) {
  try {
    build('--production');
    cpSync(join(root, 'dist', 'extension.js'), join(work, 'extension.js'));
    if (existsSync(join(root, 'dist', 'vendor'))) cpSync(join(root, 'dist', 'vendor'), join(work, 'vendor'), { recursive: true });
  } finally {
    build();
  }
  return join(work, 'extension.js');
}
