// The session shapes pi 1.6.0 added, each made by pi's own code and written by its SessionManager, for
// scripts/make-pi-fixtures.mjs (CONTRIBUTING.md "Regenerating the pi fixtures"):
// - `details.imageUnsupportedByModel` on a `read` result: pi's read tool run on a PNG for a model without
//   image input (the note is no longer in the text);
// - an `Operation aborted` error result for a tool call that never started: the message pi's read tool
//   rejects with on an aborted signal, in the result pi's agent loop builds (`createErrorToolResult`:
//   the text, `details: {}`, `isError: true`);
// - `diagnostics[]` of type `openai_input_transformations` on an assistant message: pi's own OpenAI
//   Responses provider reading a recorded gpt-5.5 stream (test/replay/fixtures) whose `response.completed`
//   is given an `input_transformations` list naming a removed reasoning item.
import { createServer } from 'node:http';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', '..');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const REMOVED = [{ type: 'reasoning', id: 'rs_0fabc13af1ee0049006a691dfe60b081a1baa444d3cf19afba', action: 'removed', reason: 'model_mismatch' }];

const usage = (input, output) => ({ input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });

/** The recorded stream with `input_transformations` added to its response.completed event. */
function streamWithRemovals() {
  const text = readFileSync(join(root, 'test', 'replay', 'fixtures', 'oair-p-gpt55-phase-text.sse'), 'utf8');
  return text.split('\n').map((line) => {
    if (!line.startsWith('data: ') || !line.includes('"response.completed"')) return line;
    const event = JSON.parse(line.slice(6));
    event.response.input_transformations = REMOVED;
    return `data: ${JSON.stringify(event)}`;
  }).join('\n');
}

async function piResponsesReply(model) {
  const chunks = join(dirname(process.env.PI_BUNDLE), 'chunks');
  const file = readdirSync(chunks).find((f) => /^openai-responses-[A-Z0-9]+\.js$/.test(f));
  const { stream } = await import(pathToFileURL(join(chunks, file)).href);
  const body = streamWithRemovals();
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body)));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
    const context = { systemPrompt: 'x', messages: [{ role: 'user', content: 'What is the capital of PotatoLand?', timestamp: 0 }] };
    for await (const event of stream({ ...model, baseUrl }, context, { apiKey: 'sk-fixture', maxRetries: 0 })) {
      if (event.type === 'done') return event.message;
      if (event.type === 'error') throw new Error(event.error.errorMessage);
    }
  } finally {
    server.close();
  }
  throw new Error('no reply');
}

/** A result message as pi's agent loop builds it (createToolResultMessage). */
function toolResult(call, result, isError, timestamp) {
  return { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: result.content ?? [], details: result.details, isError, timestamp };
}

export async function newShapesSession(pi, work, cwd, now) {
  writeFileSync(join(work, 'shot.png'), PNG);
  const read = pi.createReadTool(work, { autoResizeImages: false });
  const textModel = { id: 'gpt-4.1-text', input: ['text'] };
  const sm = pi.SessionManager.create(cwd, work);
  sm.appendMessage({ role: 'user', content: [{ type: 'text', text: 'look at shot.png and notes.txt' }], timestamp: now() });
  const image = { type: 'toolCall', id: 'call_img|fc_img', name: 'read', arguments: { path: 'shot.png' } };
  const never = { type: 'toolCall', id: 'call_never|fc_never', name: 'read', arguments: { path: 'notes.txt' } };
  sm.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'Reading both.' }, image, never], api: 'openai-responses', provider: 'openai', model: textModel.id, usage: usage(200, 40), stopReason: 'toolUse', timestamp: now() });
  const shown = await read.execute(image.id, image.arguments, undefined, undefined, { cwd: work, model: textModel });
  if (!shown.details?.imageUnsupportedByModel) throw new Error('pi did not mark the image as unsupported');
  sm.appendMessage(toolResult(image, shown, false, now()));
  const stopped = new AbortController();
  stopped.abort();
  const aborted = await read.execute(never.id, never.arguments, stopped.signal, undefined, { cwd: work }).then(() => undefined, (error) => error.message);
  if (aborted !== 'Operation aborted') throw new Error(`pi's read tool said ${aborted}`);
  sm.appendMessage(toolResult(never, { content: [{ type: 'text', text: aborted }], details: {} }, true, now()));
  sm.appendMessage({ role: 'user', content: [{ type: 'text', text: 'What is the capital of PotatoLand?' }], timestamp: now() });
  const reply = await piResponsesReply({ id: 'gpt-5.5', name: 'gpt-5.5', api: 'openai-responses', provider: 'openai', reasoning: true, input: ['text', 'image'], cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 });
  if (!reply.diagnostics?.length) throw new Error('pi recorded no diagnostics');
  sm.appendMessage({ ...reply, timestamp: now() });
  sm.appendMessage({ role: 'user', content: [{ type: 'text', text: 'thanks' }], timestamp: now() });
  return sm.getSessionFile();
}
