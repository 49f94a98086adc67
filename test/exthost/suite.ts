// Entry point VS Code loads as `extensionTestsPath` (bundled to dist/test/suite.js with mocha inside).
// It runs every test/exthost/**/*.test.ts (collected at build time) in the real extension host, prints
// mocha's spec output, and writes a JSON summary to $ARBOR_EXTHOST_RESULTS when set (the runners read
// the pass/fail counts from it). Used by code-server (scripts/run-exthost-tests.mjs) and by
// @vscode/test-electron (scripts/run-desktop-tests.mjs) alike.
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';
import { testFiles } from 'arbor:exthost-tests';

interface Summary {
  passed: number;
  failed: number;
  pending: number;
  failures: { title: string; error: string }[];
}

/** Lines the runners use to cut mocha's output out of the workbench log. */
export const OUTPUT_START = '--- arbor exthost suite: start ---';
export const OUTPUT_END = '--- arbor exthost suite: end ---';

export async function run(): Promise<void> {
  console.log(OUTPUT_START);
  // ARBOR_EXTHOST_GREP (forwarded by scripts/run-exthost-tests.mjs) runs only the tests whose title matches.
  const grep = process.env.ARBOR_EXTHOST_GREP;
  const mocha = new Mocha({ ui: 'tdd', color: false, reporter: 'spec', timeout: 30_000, ...(grep ? { grep } : {}) });
  for (const { file, load } of testFiles) {
    // Installs suite()/test()/setup() globals for this file, exactly as mocha does for files it requires.
    mocha.suite.emit('pre-require', globalThis, file, mocha);
    await load();
  }
  const summary: Summary = { passed: 0, failed: 0, pending: 0, failures: [] };
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    runner.on('pass', () => summary.passed++);
    runner.on('pending', () => summary.pending++);
    runner.on('fail', (test, error: unknown) => {
      summary.failed++;
      summary.failures.push({ title: test.fullTitle(), error: error instanceof Error ? error.stack ?? error.message : String(error) });
    });
  });
  console.log(OUTPUT_END);
  const resultsFile = process.env.ARBOR_EXTHOST_RESULTS;
  if (resultsFile) writeFileSync(resultsFile, JSON.stringify(summary, null, 2));
  if (testFiles.length === 0) throw new Error('no test/exthost/**/*.test.ts files were bundled');
  if (failures > 0) throw new Error(`${failures} extension-host test(s) failed`);
}
