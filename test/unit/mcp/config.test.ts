// The servers map (VS Code's mcp.json shape), its placeholders and the launch fingerprint consent is keyed by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchFingerprint, launchLine, parseMcpJson, parseServers } from '../../../src/mcp/config';
import { inputIdsOf, resolveConfig, type PlaceholderHost } from '../../../src/mcp/placeholders';

test('parses stdio, http and sse servers; a bad one is named and the others stay', () => {
  const parsed = parseServers({
    local: { command: 'npx', args: ['-y', 'pkg'], env: { A: 'x', N: 1, Z: null } },
    remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
    implied: { url: 'http://127.0.0.1:3000/mcp' },
    old: { type: 'sse', url: 'http://127.0.0.1:3000/sse' },
    broken: { type: 'stdio', args: [] },
    odd: { type: 'websocket', url: 'ws://x' },
    scalar: 3,
  });
  assert.deepEqual([...parsed.servers.keys()], ['local', 'remote', 'implied', 'old']);
  assert.equal(parsed.servers.get('implied')?.type, 'http');
  assert.equal(parsed.problems.length, 3);
  assert.match(parsed.problems[0], /server "broken": command/);
  assert.match(parsed.problems[1], /server "odd": unknown type "websocket"/);
  assert.match(parsed.problems[2], /server "scalar": expected an object/);
  assert.deepEqual(parseServers([]).problems, ['expected an object mapping server names to their configuration']);
});

test('reads a whole mcp.json with comments and trailing commas, and its inputs', () => {
  const parsed = parseMcpJson(`{
    // a comment with "quotes"
    "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
    "servers": { "gh": { "url": "https://x.example/mcp // not a comment", "headers": { "A": "\${input:token}" }, }, },
  }`);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.inputs, [{ id: 'token', description: 'API token', password: true }]);
  const gh = parsed.servers.get('gh');
  assert.equal(gh?.type === 'http' && gh.url, 'https://x.example/mcp // not a comment');
  assert.match(parseMcpJson('{ nope').problems[0], /not valid JSON/);
});

test('placeholders: input asked once per id, env and workspaceFolder; a declined input stops the start', async () => {
  const asked: string[] = [];
  const host: PlaceholderHost = {
    env: (name) => ({ HOME: '/home/u' })[name],
    workspaceFolder: () => '/ws',
    input: async (id, spec) => (asked.push(`${id}:${spec?.description ?? ''}`), id === 'no' ? undefined : `secret-${id}`),
  };
  const config = parseServers({ s: { command: '${workspaceFolder}/bin/srv', args: ['--key=${input:k}', '${env:HOME}', '${env:UNSET}x'], env: { K: '${input:k}' } } }).servers.get('s')!;
  assert.deepEqual(inputIdsOf(config), ['k']);
  const resolved = await resolveConfig(config, host, [{ id: 'k', description: 'the key' }]);
  assert.ok(resolved.ok);
  assert.deepEqual(resolved.ok && resolved.value.type === 'stdio' && [resolved.value.command, resolved.value.args, resolved.value.env], ['/ws/bin/srv', ['--key=secret-k', '/home/u', 'x'], { K: 'secret-k' }]);
  assert.deepEqual(asked, ['k:the key'], 'one question for two uses');
  const declined = await resolveConfig(parseServers({ s: { url: 'https://h/${input:no}' } }).servers.get('s')!, host);
  assert.deepEqual(declined, { ok: false, reason: 'no value was given for ${input:no}' });
  const noFolder = await resolveConfig(config, { ...host, workspaceFolder: () => undefined });
  assert.equal(noFolder.ok, false);
});

test('the launch line shows what runs; the fingerprint changes with anything that decides it, not with Arbor choices', () => {
  const base = parseServers({ s: { command: 'node', args: ['server.js', 'a b'], env: { B: '1', A: '2' } } }).servers.get('s')!;
  assert.equal(launchLine(base), 'node server.js "a b"');
  const same = parseServers({ s: { command: 'node', args: ['server.js', 'a b'], env: { A: '2', B: '1' }, disabledTools: ['t'] } }).servers.get('s')!;
  assert.equal(launchFingerprint(same), launchFingerprint(base), 'env order and Arbor choices do not change it');
  for (const changed of [
    { command: 'python', args: ['server.js', 'a b'], env: { B: '1', A: '2' } },
    { command: 'node', args: ['server.js', 'a', 'b'], env: { B: '1', A: '2' } },
    { command: 'node', args: ['server.js', 'a b'], env: { B: '1', A: '3' } },
    { command: 'node', args: ['server.js', 'a b'], env: { B: '1', A: '2' }, cwd: '/tmp' },
  ]) {
    assert.notEqual(launchFingerprint(parseServers({ s: changed }).servers.get('s')!), launchFingerprint(base), JSON.stringify(changed));
  }
  assert.equal(launchLine(parseServers({ r: { type: 'sse', url: 'http://h/sse' } }).servers.get('r')!), 'SSE http://h/sse');
});
