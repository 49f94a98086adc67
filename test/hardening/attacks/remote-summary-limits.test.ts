// Issue #14 item 7: remote summarization reads at most a bounded answer, and a server that sends its
// headers and then stalls is reported as a timeout within a bounded time (short timeouts injected here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestRemoteSummary } from '../../../src/compaction/remote';
import { reportFigures } from '../profile';

async function loopbackServer(t: { after(fn: () => void): void }, handle: (res: ServerResponse) => void): Promise<string> {
  const open = new Set<ServerResponse>();
  const server = createServer((_req, res) => {
    open.add(res);
    handle(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const res of open) res.destroy();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/summarize`;
}

test('an answer larger than the cap is refused with a clear error, without reading it all', async (t) => {
  let sent = 0;
  const url = await loopbackServer(t, (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"summary":"');
    const chunk = 'x'.repeat(64 * 1024);
    const pump = () => {
      while (sent < 64 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('"}');
    };
    res.on('error', () => undefined);
    pump();
  });
  const started = Date.now();
  const outcome = await requestRemoteSummary(url, { systemPrompt: 's', prompt: 'p' }, { timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 }).then(
    (answer) => `accepted ${answer.summary.length} characters`,
    (error: Error) => error.message,
  );
  assert.match(outcome, /larger than 1 MiB/, outcome);
  assert.ok(sent < 16 * 1024 * 1024, `stopped reading early (server had written ${sent} bytes)`);
  reportFigures('attacks-remote-summary', { capBytes: 1024 * 1024, serverBytesWrittenBeforeAbort: sent, abortMs: Date.now() - started });
});

test('headers then a stalled body is reported as a timeout within the bound', async (t) => {
  const url = await loopbackServer(t, (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"summary":"partial');
  });
  // The overall deadline, then the stall deadline (silence while the answer is being sent).
  for (const limits of [{ timeoutMs: 400 }, { timeoutMs: 20_000, stallTimeoutMs: 300 }]) {
    const started = Date.now();
    const outcome = await requestRemoteSummary(url, { systemPrompt: 's', prompt: 'p' }, limits).then(
      () => 'accepted',
      (error: Error) => error.message,
    );
    const elapsed = Date.now() - started;
    assert.match(outcome, /timed out/, outcome);
    assert.ok(elapsed < 3000, `ended within 3 s (took ${elapsed} ms)`);
    reportFigures('attacks-remote-summary-stall', { timeoutMs: limits.timeoutMs, stallTimeoutMs: limits.stallTimeoutMs ?? 'none', endedAfterMs: elapsed });
  }
});
