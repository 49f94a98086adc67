#!/usr/bin/env node
// Extension-host integration tests in code-server (see test/harness/exthost.mjs). Expects a dev build
// (npm run build). Prints mocha's spec output, then `exthost: N passed, M failed`; exits non-zero on any
// failure, a missing summary or a timeout.
import { runExtensionHostTests } from '../test/harness/exthost.mjs';

const started = Date.now();
try {
  const result = await runExtensionHostTests();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const failure of result.failures) console.log(`FAILED: ${failure.title}`);
  console.log(`exthost: run took ${seconds} s${result.pending ? `, ${result.pending} pending` : ''}`);
  console.log(`exthost: ${result.passed} passed, ${result.failed} failed`);
  process.exit(result.failed === 0 && result.exitCode === 0 && result.passed > 0 ? 0 : 1);
} catch (error) {
  console.error(`exthost: run failed: ${error instanceof Error ? error.message : String(error)}`);
  console.log('exthost: 0 passed, 1 failed');
  process.exit(1);
}
