import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createProvider } from '../../../src/llm/registry';
import { DEMO_MODEL, configureDemoServer, disposeDemoModel } from '../../../src/llm/demo';
import { collect, keys, textOf, user } from './helpers';

after(async () => {
  await disposeDemoModel();
});

test('the demo model answers without listening on a port (nothing for VS Code to forward)', async () => {
  const listen = net.Server.prototype.listen;
  let listened = 0;
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    listened++;
    return (listen as (...a: unknown[]) => net.Server).apply(this, args);
  } as typeof listen;
  try {
    configureDemoServer({ chunkDelayMs: 0 });
    const provider = createProvider(DEMO_MODEL, keys({}));
    const reply = await collect(provider, { model: DEMO_MODEL, systemPrompt: 'You are Arbor.', messages: [user('hello')] });
    assert.equal(reply.message.stopReason, 'stop', reply.message.errorMessage);
    assert.ok(textOf(reply.message).length > 0);
    assert.ok(reply.events.filter((e) => e.type === 'text_delta').length > 1, 'the reply streams');
    assert.equal(listened, 0, 'no server socket was opened');
  } finally {
    net.Server.prototype.listen = listen;
  }
});
