// The VS Code Language Model provider against a scripted LanguageModelHost (the editor's side is
// covered in test/exthost/vscode-lm.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/llm/registry';
import { complete, type StreamRequest } from '../../../src/llm/types';
import { staticKeyResolver } from '../../../src/llm/keys';
import { hostModelInfo } from '../../../src/llm/providers/vscode-lm';
import type { HostPart, HostRequest, HostStart, LanguageModelHost } from '../../../src/llm/vscode-lm/host';

const MODEL = hostModelInfo({ id: 'gpt-x', vendor: 'copilot', name: 'GPT X', family: 'gpt', maxInputTokens: 64_000, toolCalling: true });

function host(reply: (request: HostRequest) => HostStart | Promise<HostStart>, sent: HostRequest[] = []): LanguageModelHost {
  return {
    models: async () => [],
    send: async (id, request) => {
      assert.equal(id, 'gpt-x');
      sent.push(request);
      return reply(request);
    },
    countTokens: async (_id, text) => text.length,
  };
}

async function* parts(...list: Extract<HostPart, { type: 'text' | 'toolCall' }>[]) {
  yield* list;
}

const request = (extra: Partial<StreamRequest> = {}): StreamRequest => ({
  model: MODEL, systemPrompt: 'sys', messages: [{ role: 'user', content: 'hi', timestamp: 1 }], ...extra,
});

test('model entry: vscode-lm/<vendor>/<id>, context window from maxInputTokens, no price', () => {
  assert.equal(`${MODEL.provider}/${MODEL.id}`, 'vscode-lm/copilot/gpt-x');
  assert.equal(MODEL.contextWindow, 64_000);
  assert.equal(MODEL.name, 'GPT X (copilot)');
});

test('text and tool calls stream; tool results go back as parts; usage is counted by the model', async () => {
  const sent: HostRequest[] = [];
  const provider = createProvider(MODEL, staticKeyResolver({}), {
    languageModels: host(() => ({ ok: true, parts: parts({ type: 'text', text: 'ok ' }, { type: 'toolCall', callId: 'c1', name: 'ls', input: { path: '.' } }) }), sent),
  });
  const tools = [{ name: 'ls', description: 'list', parameters: { type: 'object' } }];
  const first = await complete(provider, request({ tools }));
  assert.equal(first.stopReason, 'toolUse');
  assert.deepEqual(first.content.find((b) => b.type === 'toolCall')?.arguments, { path: '.' });
  assert.equal(first.usage.output, 'ok \nls({"path":"."})'.length);
  assert.deepEqual(sent[0]!.tools?.map((t) => t.name), ['ls']);
  assert.deepEqual(sent[0]!.messages[0], { role: 'user', parts: [{ type: 'text', text: 'sys' }] }, 'system prompt leads as a user message');
  const result = { role: 'toolResult' as const, toolCallId: 'c1', toolName: 'ls', content: [{ type: 'text' as const, text: 'a.txt' }], isError: false, timestamp: 3 };
  await complete(provider, request({ messages: [...request().messages, first, result], tools, toolChoice: 'none' }));
  assert.deepEqual(sent[1]!.messages.at(-1), { role: 'user', parts: [{ type: 'toolResult', callId: 'c1', text: 'a.txt' }] });
  assert.equal(sent[1]!.tools, undefined, "toolChoice none offers no tools (the API has no 'none' mode)");
});

test('a refusal (no permission) is one clear error, not retried', async () => {
  const sent: HostRequest[] = [];
  const provider = createProvider(MODEL, staticKeyResolver({}), {
    languageModels: host(() => ({ ok: false, refusal: 'no-permissions', message: '' }), sent),
    retry: { sleep: async () => undefined },
  });
  const reply = await complete(provider, request());
  assert.equal(reply.stopReason, 'error');
  assert.match(reply.errorMessage!, /has not allowed Arbor to use GPT X \(copilot\) yet/);
  assert.equal(reply.errorKind, 'auth');
  assert.equal(sent.length, 1);
});

test('abort reaches the host signal and ends as aborted; no host at all is a clear error', async () => {
  const controller = new AbortController();
  let seen: AbortSignal | undefined;
  const provider = createProvider(MODEL, staticKeyResolver({}), {
    languageModels: host((r) => {
      seen = r.signal;
      return { ok: true, parts: (async function* () {
        yield { type: 'text' as const, text: 'a' };
        controller.abort();
        yield { type: 'text' as const, text: 'b' };
      })() };
    }),
  });
  const reply = await complete(provider, request({ signal: controller.signal }));
  assert.equal(reply.stopReason, 'aborted');
  assert.equal(seen?.aborted, true);
  const none = await complete(createProvider(MODEL, staticKeyResolver({})), request());
  assert.match(none.errorMessage!, /only available inside the editor/);
});
