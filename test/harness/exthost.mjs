// Runs the bundled mocha suite (dist/test/suite.js) inside the real extension host of code-server, by
// opening the workbench with a development `payload` (extensionDevelopmentPath + extensionTestsPath).
// The workbench reports the suite's end through window.codeAutomationExit(code) and forwards the
// extension host's console through window.codeAutomationLog(type, args): both are exposed from here.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { allowDevPayload, launchBrowser, screenshot } from './browser.mjs';
import { startCodeServer } from './code-server.mjs';
import { removeOnExit } from './processes.mjs';
import { repoRoot, runsDir, testResultsDir } from './paths.mjs';

// Keep in sync with test/exthost/suite.ts.
const OUTPUT_START = '--- arbor exthost suite: start ---';
const OUTPUT_END = '--- arbor exthost suite: end ---';

/**
 * @param {object} [options]
 * @param {Record<string,string>} [options.extraEnv] extra env for code-server / the extension host
 * @param {Record<string,unknown>} [options.settings] extra user settings
 * @param {number} [options.timeoutMs] whole-run timeout
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{ exitCode: number, passed: number, failed: number, pending: number, failures: {title:string,error:string}[] }>}
 */
export async function runExtensionHostTests({ extraEnv = {}, settings = {}, timeoutMs = 180_000, log = console.log } = {}) {
  const suite = join(repoRoot, 'dist', 'test', 'suite.js');
  if (!existsSync(suite)) throw new Error('dist/test/suite.js is missing: run `npm run build` first');
  let server;
  let browser;
  let timer;
  let resultsDir;
  try {
    mkdirSync(runsDir, { recursive: true });
    resultsDir = mkdtempSync(join(runsDir, 'exthost-'));
    removeOnExit(resultsDir);
    const resultsFile = join(resultsDir, 'results.json');
    // Env given to code-server reaches the extension host, so the suite learns where to write its summary.
    // The test vendor of VS Code language models (test/exthost/lm-vendor) and the test extension with a
    // language-model tool (test/exthost/lm-tools) are installed next to Arbor (the web workbench takes
    // only one extensionDevelopmentPath).
    const extraExtensions = [join(repoRoot, 'test', 'exthost', 'lm-vendor'), join(repoRoot, 'test', 'exthost', 'lm-tools')];
    server = await startCodeServer({ installArbor: false, extraExtensions, settings, extraEnv: { ...extraEnv, ARBOR_EXTHOST_RESULTS: resultsFile } });
    browser = await launchBrowser();
    const { page } = browser;
    const exited = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
    // Everything the workbench logs goes to test-results/exthost-workbench.log; only mocha's own output
    // (between the suite's start/end markers) is echoed.
    mkdirSync(testResultsDir, { recursive: true });
    const workbenchLog = join(testResultsDir, 'exthost-workbench.log');
    writeFileSync(workbenchLog, '');
    let inSuite = false;
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      appendFileSync(workbenchLog, `[${type}] ${text}\n`);
      for (const line of text.split('\n')) {
        if (line.includes(OUTPUT_START)) inSuite = true;
        else if (line.includes(OUTPUT_END)) inSuite = false;
        else if (inSuite) log(line);
      }
    });
    await allowDevPayload(page);
    const payload = [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(suite)],
    ];
    // A loaded machine (parallel builds) can take over 30 s to serve the workbench.
    await page.goto(server.workbenchUrl({ payload }), { timeout: 120_000 });
    const timedOut = new Promise((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const exitCode = await Promise.race([exited, timedOut]);
    if (exitCode === 'timeout') {
      await screenshot(page, 'exthost-timeout').catch(() => {});
      throw new Error(`extension-host tests did not finish within ${timeoutMs / 1000} s`);
    }
    if (!existsSync(resultsFile)) {
      await screenshot(page, 'exthost-no-results').catch(() => {});
      throw new Error(`the suite exited with code ${exitCode} without writing results (did it load?)`);
    }
    const summary = JSON.parse(readFileSync(resultsFile, 'utf8'));
    return { exitCode: Number(exitCode), ...summary };
  } finally {
    clearTimeout(timer);
    await browser?.close();
    await server?.stop();
    if (resultsDir) rmSync(resultsDir, { recursive: true, force: true });
  }
}
