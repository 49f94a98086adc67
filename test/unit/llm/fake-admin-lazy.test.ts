import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startFakeLlm } from '../../fake-llm/server.mjs';

test('fake server HTTP admin routes: enqueue, rules, requests, reset', async () => {
  const fake = await startFakeLlm();
  try {
    const post = (path: string, body: unknown) => fetch(fake.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/__admin/enqueue', { text: 'scripted over http' });
    await post('/__admin/rules', { when: { lastUserIncludes: 'ping' }, then: { text: 'pong' } });
    const chat = (content: string) =>
      fetch(fake.openaiBaseUrl + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-secret-admin-test' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }) }).then((r) => r.json() as Promise<any>);
    assert.equal((await chat('anything')).choices[0].message.content, 'scripted over http');
    assert.equal((await chat('ping please')).choices[0].message.content, 'pong');
    assert.equal((await chat('hello')).choices[0].message.content, 'echo: hello');
    const log: any = await (await fetch(fake.url + "/__admin/requests")).json();
    assert.equal(log.length, 3);
    assert.equal(log[0].headers.authorization, 'REDACTED');
    assert.ok(!JSON.stringify(log).includes('sk-secret-admin-test'));
    await post('/__admin/reset', {});
    assert.equal(((await (await fetch(fake.url + "/__admin/requests")).json()) as unknown[]).length, 0);
  } finally {
    await fake.close();
  }
});

test('fake server runs standalone and prints its URL', async () => {
  const child = spawn(process.execPath, ['test/fake-llm/server.mjs', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const models: any = await (await fetch(url + "/v1/models")).json();
    assert.equal(models.object, 'list');
  } finally {
    child.kill('SIGTERM');
  }
});

test('SDKs and the tokenizer are only loaded lazily in src/llm', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts')) files.push(full);
    }
  };
  walk('src/llm');
  assert.ok(files.length > 10);
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    assert.doesNotMatch(source, /^import\s+(?!type\b)[^;]*from\s+['"](openai|@anthropic-ai\/sdk|gpt-tokenizer)[^'"]*['"]/m, file);
    assert.doesNotMatch(source, /require\(['"](openai|@anthropic-ai\/sdk|gpt-tokenizer)/, file);
  }
});
