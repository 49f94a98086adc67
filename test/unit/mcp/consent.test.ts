// Workspace mcp.json servers: never in an untrusted workspace, each only after the user agreed, the answer
// remembered per folder and per hash of what runs, so a changed command asks again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMcpJson, type ServerConfig } from '../../../src/mcp/config';
import { consentKey, workspaceServers, type ConsentAnswer, type WorkspaceConsentHost, type WorkspaceServersFile } from '../../../src/mcp/workspace-consent';

function host(answers: ConsentAnswer[] = [], trusted = true) {
  const memory = new Map<string, ConsentAnswer>();
  const asked: string[] = [];
  const h: WorkspaceConsentHost = {
    trusted: () => trusted,
    remembered: (key) => memory.get(key),
    remember: async (key, answer) => void memory.set(key, answer),
    ask: async (server, config) => (asked.push(`${server}: ${config.type === 'stdio' ? config.command : config.url}`), answers.shift()),
  };
  return { h, memory, asked };
}

const file = (text: string, folder = '/ws'): WorkspaceServersFile => ({ folder, file: `${folder}/.vscode/mcp.json`, parsed: parseMcpJson(text) });
const evil = file('{"servers": {"helper": {"command": "node", "args": ["./tools/helper.js"]}, "api": {"url": "https://api.example/mcp"}}}');

test('an untrusted workspace runs none of its servers and asks nothing', async () => {
  const { h, asked } = host(['allowed', 'allowed'], false);
  const result = await workspaceServers([evil], new Set(), h);
  assert.equal(result.entries.size, 0);
  assert.deepEqual(result.held.map((s) => [s.name, s.reason]), [['helper', 'untrusted'], ['api', 'untrusted']]);
  assert.deepEqual(asked, []);
});

test('each server asks once with what runs; allowed runs, declined does not, dismissed asks again', async () => {
  const { h, asked } = host(['allowed', undefined as unknown as ConsentAnswer]);
  const first = await workspaceServers([evil], new Set(), h);
  assert.deepEqual([...first.entries.keys()], ['helper']);
  assert.equal(first.entries.get('helper')?.source, 'workspace');
  assert.deepEqual(first.held.map((s) => [s.name, s.reason]), [['api', 'unanswered']]);
  assert.deepEqual(asked, ['helper: node', 'api: https://api.example/mcp']);
  const again = await workspaceServers([evil], new Set(), { ...h, ask: async (server, c) => (asked.push(`${server}: again`), 'declined') });
  assert.deepEqual([...again.entries.keys()], ['helper'], 'the allowed server is remembered');
  assert.deepEqual(again.held.map((s) => [s.name, s.reason]), [['api', 'declined']]);
  assert.deepEqual(asked.slice(2), ['api: again'], 'only the dismissed one asked again');
  const third = await workspaceServers([evil], new Set(), h, false);
  assert.deepEqual(third.held.map((s) => [s.name, s.reason]), [['api', 'declined']], 'a decline is remembered too');
});

test('a changed command, argument, env or URL asks again; another folder asks again; user servers win names', async () => {
  const { h, asked } = host(['allowed', 'allowed', 'allowed', 'allowed', 'allowed']);
  await workspaceServers([file('{"servers": {"helper": {"command": "node", "args": ["a.js"]}}}')], new Set(), h);
  await workspaceServers([file('{"servers": {"helper": {"command": "node", "args": ["a.js"]}}}')], new Set(), h);
  assert.equal(asked.length, 1);
  await workspaceServers([file('{"servers": {"helper": {"command": "node", "args": ["b.js"]}}}')], new Set(), h);
  await workspaceServers([file('{"servers": {"helper": {"command": "node", "args": ["b.js"], "env": {"NODE_OPTIONS": "--require ./x.js"}}}}')], new Set(), h);
  await workspaceServers([file('{"servers": {"helper": {"command": "node", "args": ["b.js"]}}}', '/other')], new Set(), h);
  assert.equal(asked.length, 4);
  const taken = await workspaceServers([file('{"servers": {"mine": {"command": "x"}}}')], new Set(['mine']), h);
  assert.deepEqual(taken.held.map((s) => s.reason), ['name taken by a user server']);
  assert.equal(asked.length, 4, 'a server whose name is taken is not even asked about');
  const c = (command: string): ServerConfig => ({ type: 'stdio', command });
  assert.notEqual(consentKey('/ws', 's', c('a')), consentKey('/ws', 's', c('b')));
  assert.notEqual(consentKey('/ws', 's', c('a')), consentKey('/ws', 't', c('a')));
});

test('each server\'s consent key is made once: one remembered look-up per server, the held server and the entry carry it', async () => {
  const { h } = host(['allowed', 'declined']);
  const looked: string[] = [];
  const counting: WorkspaceConsentHost = { ...h, remembered: (key) => (looked.push(key), h.remembered(key)) };
  const result = await workspaceServers([evil], new Set(), counting);
  const [helper, api] = [...evil.parsed.servers].map(([name, config]) => consentKey('/ws', name, config));
  assert.deepEqual(looked, [helper, api], 'looked up once each, under the key of what runs');
  assert.equal(result.entries.get('helper')?.scope, helper);
  assert.deepEqual(result.held.map((s) => [s.name, s.key]), [['api', api]], '"ask again" forgets this key');
});
