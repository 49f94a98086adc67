// Generates a large, realistic tree session file (pi v3): turns with tool calls and big tool results,
// periodic compactions (keeping recent entries), and branches that come back with a branch summary.
import { createWriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';

const usage = { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, totalTokens: 1500, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function filler(n, seed) {
  const words = ['tree', 'session', 'branch', 'compaction', 'summary', 'token', 'context', 'leaf', 'entry', 'file'];
  let out = '';
  let i = seed;
  while (out.length < n) out += words[(i++ * 7) % words.length] + ' ';
  return out.slice(0, n);
}

/** Writes `entryCount` entries to `file`; returns { entries, bytes, leafId }. */
export async function writeTreeSession(file, entryCount, { toolResultChars = 2600 } = {}) {
  const out = createWriteStream(file);
  let bytes = 0;
  const write = (obj) => {
    const line = JSON.stringify(obj) + '\n';
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) return new Promise((r) => out.once('drain', r));
  };
  let clock = Date.parse('2025-06-01T00:00:00.000Z');
  const ts = () => new Date((clock += 1000)).toISOString();
  const ids = new Set();
  const newId = () => {
    let id;
    do id = randomBytes(4).toString('hex');
    while (ids.has(id));
    ids.add(id);
    return id;
  };
  await write({ type: 'session', version: 3, id: 'bench-session', timestamp: ts(), cwd: '/bench' });
  const path = []; // ids on the current root→leaf path
  let count = 0;
  const add = async (fields) => {
    const entry = { type: fields.type, id: newId(), parentId: path.length ? path[path.length - 1] : null, timestamp: ts(), ...fields };
    path.push(entry.id);
    count++;
    await write(entry);
    return entry;
  };
  await add({ type: 'model_change', provider: 'anthropic', modelId: 'claude-bench' });
  await add({ type: 'thinking_level_change', thinkingLevel: 'medium' });
  let turn = 0;
  while (count < entryCount) {
    turn++;
    await add({ type: 'message', message: { role: 'user', content: `Turn ${turn}: ${filler(200, turn)}`, timestamp: clock } });
    const callId = `call_${turn}`;
    await add({
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: filler(300, turn + 1), thinkingSignature: 'sig' },
          { type: 'toolCall', id: callId, name: 'read', arguments: { path: `src/file${turn}.ts` } },
        ],
        api: 'anthropic-messages', provider: 'anthropic', model: 'claude-bench', usage, stopReason: 'toolUse', timestamp: clock,
      },
    });
    await add({
      type: 'message',
      message: { role: 'toolResult', toolCallId: callId, toolName: 'read', content: [{ type: 'text', text: filler(toolResultChars, turn + 2) }], isError: false, timestamp: clock },
    });
    await add({
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: filler(400, turn + 3) }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-bench', usage, stopReason: 'stop', timestamp: clock },
    });
    if (turn % 75 === 0 && path.length > 60) {
      await add({ type: 'compaction', summary: filler(3000, turn), firstKeptEntryId: path[path.length - 40], tokensBefore: 150000, details: { readFiles: ['a.ts'], modifiedFiles: [] } });
    }
    if (turn % 40 === 0 && path.length > 30) {
      path.length -= 12; // go back and continue on a new branch, carrying a summary of the abandoned one
      await add({ type: 'branch_summary', fromId: path[path.length - 1], summary: filler(1500, turn), details: { readFiles: [], modifiedFiles: [] } });
    }
    if (turn % 200 === 0) await add({ type: 'label', targetId: path[path.length - 1], label: `checkpoint ${turn}` });
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return { entries: count, bytes, leafId: path[path.length - 1] };
}
