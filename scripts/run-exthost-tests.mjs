#!/usr/bin/env node
// Extension-host integration tests in code-server (see test/harness/exthost.mjs). Expects a dev build
// (npm run build). Prints mocha's spec output, then `exthost: N passed, M failed`; exits non-zero on any
// failure, a missing summary or a timeout.
import { runExtensionHostTests } from '../test/harness/exthost.mjs';
import { startFakeLlm } from '../test/fake-llm/server.mjs';

const started = Date.now();
// The fake provider on loopback: tests script replies through its /__admin routes (ARBOR_TEST_LLM_URL).
// The model `fake/fake-gpt` is an OpenAI-compatible one, so it needs no key unless a test sets one.
const fake = await startFakeLlm();
try {
  const result = await runExtensionHostTests({
    // `node scripts/run-exthost-tests.mjs <text>` runs only the tests whose title contains <text>.
    extraEnv: { ARBOR_TEST_LLM_URL: fake.url, ...(process.argv[2] ? { ARBOR_EXTHOST_GREP: process.argv[2] } : {}) },
    settings: {
      'arbor.models': [
        { provider: 'fake', id: 'fake-gpt', name: 'Fake GPT', api: 'openai-compatible', baseUrl: fake.openaiBaseUrl, contextWindow: 128000, maxOutputTokens: 1024 },
      ],
      'arbor.model': 'fake/fake-gpt',
    },
  });
  await fake.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const failure of result.failures) console.log(`FAILED: ${failure.title}`);
  console.log(`exthost: run took ${seconds} s${result.pending ? `, ${result.pending} pending` : ''}`);
  console.log(`exthost: ${result.passed} passed, ${result.failed} failed`);
  process.exit(result.failed === 0 && result.exitCode === 0 && result.passed > 0 ? 0 : 1);
} catch (error) {
  await fake.close().catch(() => undefined);
  console.error(`exthost: run failed: ${error instanceof Error ? error.message : String(error)}`);
  console.log('exthost: 0 passed, 1 failed');
  process.exit(1);
}
