// Glue for UI test files (node:test): one code-server + Chromium per file, a screenshot after every
// test (test-results/<file>-<test>.png, or FAILED-… when it failed), and cleanup in every case.
//
//   import { useWorkbench } from '../harness/ui.mjs';
//   const wb = useWorkbench('chat', { extraEnv: { … }, settings: { … } });
//   // or, when the values exist only at run time (hooks run in registration order):
//   //   before(async () => { fake = await startFakeLlm(); });
//   //   const wb = useWorkbench('chat', () => ({ extraEnv: { ARBOR_TEST_LLM_URL: fake.url } }));
//   wb.test('does something', async (page, server) => { … });
import { after, before, test } from 'node:test';
import { launchBrowser, openWorkbench, screenshot } from './browser.mjs';
import { startCodeServer } from './code-server.mjs';

/**
 * @param {string} prefix screenshot name prefix (usually the file's topic)
 * @param {Parameters<typeof startCodeServer>[0] | (() => Parameters<typeof startCodeServer>[0] | Promise<Parameters<typeof startCodeServer>[0]>)} [serverOptions]
 */
export function useWorkbench(prefix, serverOptions = {}) {
  const state = { server: undefined, browser: undefined, page: undefined, failed: false };
  before(async () => {
    // A function lets a file start its dependencies first (e.g. test/fake-llm) and pass their URLs.
    const options = typeof serverOptions === 'function' ? await serverOptions() : serverOptions;
    state.server = await startCodeServer(options);
    state.browser = await launchBrowser();
    state.page = state.browser.page;
    await openWorkbench(state.page, state.server);
  }, { timeout: 120_000 });
  after(async () => {
    await state.browser?.close();
    await state.server?.stop({ keepRunDir: state.failed });
  }, { timeout: 30_000 });

  return {
    get server() { return state.server; },
    get page() { return state.page; },
    /** A test that always leaves a screenshot behind. */
    test(name, fn, { timeout = 60_000 } = {}) {
      test(name, { timeout }, async () => {
        if (!state.page) throw new Error('workbench did not start (see the before hook)');
        const shot = `${prefix}-${name}`;
        try {
          await fn(state.page, state.server);
        } catch (error) {
          state.failed = true;
          const path = await screenshot(state.page, `FAILED-${shot}`).catch(() => undefined);
          if (path) console.log(`# failure screenshot: ${path}`);
          throw error;
        }
        await screenshot(state.page, shot);
      });
    },
  };
}
