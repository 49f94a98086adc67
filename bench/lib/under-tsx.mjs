// Benches that measure tokens, not time, import the TypeScript engine directly: when not already under
// the tsx loader, re-run the calling bench under it and exit with its status.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, for a bench file's `import.meta.url`. */
export function benchRoot(benchUrl) {
  return join(dirname(fileURLToPath(benchUrl)), '..');
}

/** Re-runs `benchUrl` (with its arguments) under tsx unless it already runs there (then returns and the bench goes on). */
export function ensureTsx(benchUrl) {
  if (process.env.ARBOR_BENCH_TSX === '1') return;
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(benchUrl), ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: benchRoot(benchUrl),
    env: { ...process.env, ARBOR_BENCH_TSX: '1' },
  });
  process.exit(r.status ?? 1);
}
