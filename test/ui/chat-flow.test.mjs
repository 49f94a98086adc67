// Chat panel end to end in the real workbench (code-server + Chromium) against the fake LLM server: a
// prompt streams a scripted reply with an edit that the user approves in the panel (file changed on disk,
// entries in the session file), and webview-side protocol fuzz through the real channel (the host drops
// everything, stays responsive, and the session file does not change).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { chatFrame, expandPane, openArborContainer } from '../harness/browser.mjs';
import { useWorkbench } from '../harness/ui.mjs';
import { startFakeLlm } from '../fake-llm/server.mjs';

let fake;
const sessionsDir = mkdtempSync(join(tmpdir(), 'arbor-ui-sessions-'));
after(async () => {
  await fake?.close?.();
});

const wb = useWorkbench('chat-flow', async () => {
  fake = await startFakeLlm();
  return {
  settings: {
    'arbor.models': [{ provider: 'fake', id: 'fake-model', name: 'Fake Model', api: 'openai-compatible', baseUrl: fake.openaiBaseUrl, contextWindow: 128000 }],
    'arbor.model': 'fake/fake-model',
    'arbor.sessions.directory': sessionsDir,
    'workbench.colorTheme': 'Default Dark Modern',
  },
  };
});

async function readyChat(page) {
  await openArborContainer(page);
  await expandPane(page, 'Chat');
  const chat = chatFrame(page);
  await chat.locator('#app[data-status="ready"]').waitFor({ timeout: 30_000 });
  return chat;
}

function sessionFiles() {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.jsonl')) out.push(full);
    }
  };
  walk(sessionsDir);
  return out;
}

async function send(chat, text) {
  const input = chat.locator('#prompt-input textarea');
  await input.fill(text);
  await input.press('Enter');
}

wb.test('a prompt streams a reply with an edit; approving it in the panel changes the file and the session', async (page, server) => {
  const chat = await readyChat(page);
  const readme = join(server.workspace, 'README.md');
  const original = readFileSync(readme, 'utf8');
  assert.match(original, /^# Demo: a tiny bookshop inventory/);
  fake.enqueue(
    {
      text: 'I will retitle the README.\n\n```md\n# Bookshop inventory\n```',
      toolCalls: [{ id: 'call_edit_1', name: 'edit', input: { path: 'README.md', oldText: '# Demo: a tiny bookshop inventory', newText: '# Bookshop inventory' } }],
      chunkSize: 4,
    },
    { text: 'Done: the README now starts with **Bookshop inventory**.', chunkSize: 4 },
  );
  await send(chat, 'Please retitle the README');
  await chat.locator('.msg-user', { hasText: 'Please retitle the README' }).waitFor({ timeout: 30_000 });
  const card = chat.locator('.tool-card[data-tool="call_edit_1"]');
  await card.locator('.approval').waitFor({ timeout: 30_000 });
  assert.match(await card.locator('.tool-key').innerText(), /README\.md/);
  assert.equal(await chat.locator('#stop').isVisible(), true, 'Stop shown while the agent waits');
  assert.equal(readFileSync(readme, 'utf8'), original, 'nothing written before approval');
  await card.locator('vscode-button[data-action="approve"]').click();
  await chat.locator('.tool-card.status-done[data-tool="call_edit_1"]').waitFor({ timeout: 30_000 });
  await chat.locator('.msg-assistant', { hasText: 'the README now starts with' }).waitFor({ timeout: 30_000 });
  await chat.locator('#app[data-busy="false"]').waitFor({ timeout: 30_000 });
  assert.match(readFileSync(readme, 'utf8'), /^# Bookshop inventory\n/);
  // The code block got its language label and actions; the reply is Markdown, not raw text.
  await chat.locator('.code-block[data-lang="md"] [data-action="copyCode"]').first().waitFor();
  assert.equal(await chat.locator('.msg-assistant strong', { hasText: 'Bookshop inventory' }).count(), 1);
  const files = sessionFiles();
  assert.equal(files.length, 1, `one session file in ${sessionsDir}`);
  const entries = readFileSync(files[0], 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const roles = entries.filter((e) => e.type === 'message').map((e) => e.message.role);
  assert.deepEqual(roles, ['user', 'assistant', 'toolResult', 'assistant']);
  const result = entries.find((e) => e.message?.role === 'toolResult');
  assert.equal(result.message.isError, false);
  assert.equal(await chat.locator('#app').getAttribute('data-csp-violations'), null, 'no CSP violations');
}, { timeout: 120_000 });

wb.test('random and malformed messages posted through the real channel are dropped; the host stays responsive', async (page) => {
  const chat = await readyChat(page);
  const [file] = sessionFiles();
  const before = readFileSync(file, 'utf8');
  // The frame that owns the webview's real channel: acquireVsCodeApi().postMessage calls this function of
  // VS Code's webview host document (pre/index.html), which forwards to the extension host.
  let channelFrame;
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => typeof window.__vscode_post_message__ === 'function').catch(() => false))) continue;
    for (const child of frame.childFrames()) {
      if (await child.evaluate(() => document.querySelector('#app[data-status="ready"]') !== null).catch(() => false)) channelFrame = frame;
    }
  }
  assert.ok(channelFrame, 'found the webview channel');
  const posted = await channelFrame.evaluate(() => {
    const post = (message) => window.__vscode_post_message__('onmessage', { message });
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const types = ['prompt', 'stop', 'approve', 'deny', 'navigate', 'label', 'fork', 'compact', 'dequeue', 'selectModel', 'continueBeforeCompaction', 'newSession', 'bogus'];
    const junk = () => [null, 42, -1, 1.5, '', 'x'.repeat(300_000), [], {}, { a: 1 }, true][Math.floor(rnd() * 10)];
    const messages = [null, 0, 'prompt', [], [{ type: 'prompt', text: 'hi' }], { type: 'prompt' }, { type: 'prompt', text: '' },
      { type: 'prompt', text: 'x'.repeat(200_001) }, { type: 'prompt', text: 'hi', extra: 1 }, { type: 'navigate', targetId: 1, mode: 'none' },
      { type: 'navigate', targetId: 'x', mode: 'delete' }, { type: 'label', entryId: '', label: 'x' }, { type: 'dequeue', index: -1 },
      { type: 'fork' }, { type: 'newSession', now: true }, { type: 'compact', instructions: 5 }, { type: 'stop', really: 1 }];
    for (let i = 0; i < 400; i++) {
      const m = { type: types[Math.floor(rnd() * types.length)] };
      // every random message carries at least one key no schema allows, so none is valid
      m[`k${i}`] = junk();
      for (let j = Math.floor(rnd() * 3); j > 0; j--) m[['text', 'targetId', 'mode', 'entryId', 'index', 'key', 'label'][Math.floor(rnd() * 7)]] = junk();
      messages.push(m);
    }
    for (const m of messages) post(m);
    return messages.length;
  });
  assert.ok(posted > 400);
  // Responsive: a real prompt still runs a turn afterwards; before it, the file is unchanged.
  await page.waitForTimeout(1500);
  assert.equal(readFileSync(file, 'utf8'), before, 'the session file is unchanged by the fuzz');
  fake.enqueue({ text: 'Still here after the fuzz.' });
  await send(chat, 'are you alive?');
  await chat.locator('.msg-assistant', { hasText: 'Still here after the fuzz.' }).waitFor({ timeout: 30_000 });
}, { timeout: 90_000 });
