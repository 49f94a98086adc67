// Child processes are bundled once per test process with esbuild into a temp CommonJS file: spawning
// plain `node file.cjs` costs ~50 ms, against ~300 ms for `node --import tsx file.ts`. Crash trials spawn
// hundreds of children, so this is what keeps the quick profile inside its time budget.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after } from 'node:test';

const built = new Map<string, Promise<string>>();
let outDir: string | undefined;

after(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** Path of a runnable .cjs bundle of `fixture` (an absolute path to a .ts file), built on first use. */
export function bundledChild(fixture: string): Promise<string> {
  let pending = built.get(fixture);
  if (!pending) {
    outDir ??= mkdtempSync(join(tmpdir(), 'arbor-hardening-bundle-'));
    const outfile = join(outDir, basename(fixture).replace(/\.ts$/, '.cjs'));
    pending = build({
      entryPoints: [fixture],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile,
      logLevel: 'error',
    }).then(() => outfile);
    built.set(fixture, pending);
  }
  return pending;
}

export function fixturePath(name: string): string {
  return join(__dirname, 'fixtures', name);
}
