// Benches measure the TypeScript sources directly: bundle a few exports with esbuild into a CommonJS file
// in the bench's work folder and require it (no build of the extension needed, no tsx in the timings).
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Where bundleAndRequire writes `name` (for child processes that require the same bundle). */
export function bundlePath(work, name) {
  return join(work, `${name}.cjs`);
}

/** `exports` is module source, e.g. "export { SessionStore } from './src/session/store';", resolved from `root`. */
export async function bundleAndRequire(root, work, name, exports) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  const bundle = bundlePath(work, name);
  await esbuild.build({
    stdin: { contents: exports, resolveDir: root, loader: 'ts' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bundle, logLevel: 'error',
  });
  return createRequire(import.meta.url)(bundle);
}
