// Security: the conversation only leaves the machine over https. Remote summarization refuses plain http
// to any host that is not this machine, before any byte is sent, and does not follow redirects (which
// could downgrade to plain http elsewhere). Only loopback traffic is used here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkRemoteEndpoint, RemoteEndpointRefused, requestRemoteSummary } from '../../src/compaction/remote';
import { reportFigures } from './profile';

const refused = [
  'http://example.com/summarize', 'http://10.0.0.5:8080/', 'http://192.168.1.10/', 'http://0.0.0.0:9000/', 'http://[::]:9000/',
  'http://localhost.example.com/', 'http://127.0.0.1.nip.io/', 'http://[::ffff:8.8.8.8]/', 'HTTP://EXAMPLE.COM/', 'http://user:pw@127.0.0.1/',
  'https://user:pw@example.com/', 'ftp://example.com/', 'file:///etc/passwd', 'ws://example.com/', 'javascript:alert(1)', 'not a url', '',
  'http://128.0.0.1/', 'http://1.2.3.4/', 'http://[fe80::1]/', 'http://[::2]/',
];
const allowed = ['https://example.com/s', 'http://localhost:8080/s', 'http://127.0.0.1/s', 'http://127.1.2.3/s', 'http://[::1]:9/s', 'HTTP://LOCALHOST/s'];

test('plain http to a non-loopback host is refused before anything is sent', async () => {
  let fetched = 0;
  const spy = (async () => {
    fetched++;
    return new Response('{"summary":"x"}');
  }) as typeof fetch;
  for (const endpoint of refused) {
    assert.throws(() => checkRemoteEndpoint(endpoint), RemoteEndpointRefused, endpoint);
    await assert.rejects(requestRemoteSummary(endpoint, { systemPrompt: 's', prompt: 'secret conversation' }, { fetchImpl: spy }), RemoteEndpointRefused, endpoint);
  }
  assert.equal(fetched, 0, 'no request may be made to a refused endpoint');
  for (const endpoint of allowed) assert.doesNotThrow(() => checkRemoteEndpoint(endpoint), endpoint);
  const sent = await requestRemoteSummary('http://127.0.0.1:9/s', { systemPrompt: 's', prompt: 'p' }, { fetchImpl: spy });
  assert.equal(sent.summary, 'x');
  assert.equal(fetched, 1, 'an allowed endpoint is really called (the refusals above are not vacuous)');
  reportFigures('remote-transport', { refusedEndpoints: refused.length, allowedEndpoints: allowed.length, requestsToRefused: 0 });
});

test('a loopback endpoint that redirects elsewhere is not followed', async (t) => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/redirect') {
      res.writeHead(307, { location: 'http://example.invalid/steal' });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"summary":"ok"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  await assert.rejects(requestRemoteSummary(`http://127.0.0.1:${port}/redirect`, { systemPrompt: 's', prompt: 'p' }, { timeoutMs: 5000 }));
  assert.deepEqual(hits, ['/redirect']);
  const ok = await requestRemoteSummary(`http://127.0.0.1:${port}/ok`, { systemPrompt: 's', prompt: 'p' }, { timeoutMs: 5000 });
  assert.equal(ok.summary, 'ok');
});
