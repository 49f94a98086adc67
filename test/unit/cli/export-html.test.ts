import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSession } from '../../../src/cli/commands/export';
import { SessionStore } from '../../../src/session/store';

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const lines = [
  { type: 'session', version: 3, id: '0b9e3c1e-5d3c-4a52-9a57-2c3d1f6a7e10', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/w' },
  { type: 'message', id: 'u1', parentId: null, timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: 'Fix the **login** page\nplease', timestamp: 1 } },
  { type: 'message', id: 'a1', parentId: 'u1', timestamp: '2025-01-01T00:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Done:\n\n- edited `src/login.ts`\n- <script>x</script>' }], api: 'x', provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: 2 } },
];

test('the HTML export renders Markdown and is titled by the session, not its id', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-export-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const store = await SessionStore.open(file);
  const html = await exportSession(store, 'a1', 'html');
  assert.match(html, /<title>Fix the login page<\/title>/);
  assert.doesNotMatch(html, /0b9e3c1e/);
  assert.match(html, /<strong>login<\/strong>/);
  assert.match(html, /<li>edited <code>src\/login\.ts<\/code><\/li>/);
  assert.doesNotMatch(html, /<script>/, 'raw HTML in a message stays text');
});
