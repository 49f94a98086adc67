// Where a bench writes its results. A full run writes bench/results/<name>.{json,md} (committed); quick mode
// (`node bench/run-all.mjs --quick`, CI) sets BENCH_QUICK=1 and BENCH_RESULTS_DIR to a git-ignored folder,
// so a quick run proves the bench still runs and prints its ratios without replacing the measured figures.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const defaultDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

export function isQuick() {
  return process.env.BENCH_QUICK === '1';
}

/** The folder results go to (BENCH_RESULTS_DIR, else bench/results/). */
export function resultsDir() {
  const dir = process.env.BENCH_RESULTS_DIR || defaultDir;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes `<name>.json` (and `<name>.md` when given) and prints the Markdown (or the JSON). */
export function writeResults(name, result, md) {
  const dir = resultsDir();
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
  if (md !== undefined) writeFileSync(join(dir, `${name}.md`), md);
  console.log(md ?? JSON.stringify(result, null, 2));
}
