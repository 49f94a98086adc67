// Security (issue 10): an API key set through `arbor.setApiKey` never appears outside SecretStorage. Inside
// the real extension host: the key is stored, an OpenAI model is pointed at the fake provider (which
// requires that key, so every request proves it was used), a scripted run (tool call, a provider error
// that echoes the key) goes through the chat, then everything Arbor writes or shows is scanned: the
// sessions folder, every arbor.* setting at every level plus the settings files, every log file of the
// window (incl. Arbor's LogOutputChannel file), the workspace, the messages posted to the webview, and
// the app snapshot the views render from.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { activateArbor, EXTENSION_ID, waitFor, fakeAdmin } from './helpers';

const FAKE = process.env.ARBOR_TEST_LLM_URL;
const KEY = 'sk-proj-SECSCAN-exthost-9b1f0e7d3c5a2468fe';
const SECRET_PART = KEY.slice(KEY.indexOf('SECSCAN'));


/** The first 12-character window of the key's secret part found in `text` (catches partial echoes). */
function leak(text: string): string | undefined {
  for (let i = 0; i + 12 <= SECRET_PART.length; i++) {
    const window = SECRET_PART.slice(i, i + 12);
    if (text.includes(window)) return window;
  }
  return undefined;
}

async function filesUnder(dir: string, skip: (name: string) => boolean = () => false): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    if (skip(name)) continue;
    const full = join(dir, name);
    const info = await stat(full).catch(() => undefined);
    if (info?.isDirectory()) out.push(...(await filesUnder(full, skip)));
    else if (info?.isFile()) out.push(full);
  }
  return out;
}

/**
 * The window's log folder (`<user-data-dir>/logs/<session>/`). The runners give each run its own
 * user-data dir: code-server (scripts/run-exthost-tests.mjs) at <run>/ud next to <run>/xdg-data, desktop
 * (scripts/run-desktop-tests.mjs) at <run>/ud next to the results file. Arbor's LogOutputChannel is the
 * file `exthost*\/arbor-dev.arbor/Arbor.log` in it (the extension's logUri).
 */
async function arborLogFile(): Promise<string> {
  const runs = [process.env.XDG_DATA_HOME, process.env.ARBOR_EXTHOST_RESULTS].filter((p): p is string => Boolean(p)).map((p) => dirname(p));
  const found: { file: string; mtime: number }[] = [];
  for (const run of runs) {
    const logs = join(run, 'ud', 'logs');
    if (!existsSync(logs)) continue;
    for (const file of await filesUnder(logs)) {
      if (file.endsWith(join(EXTENSION_ID, 'Arbor.log'))) found.push({ file, mtime: (await stat(file)).mtimeMs });
    }
  }
  found.sort((a, b) => b.mtime - a.mtime);
  if (!found[0]) throw new Error(`Arbor's log file was not found under ${runs.map((r) => join(r, 'ud', 'logs')).join(', ') || '(no run folder known)'}`);
  return found[0].file;
}

suite('security scan: the API key never leaves SecretStorage (extension host, fake provider)', () => {
  const openaiBaseUrl = () => vscode.workspace.getConfiguration('arbor.providers.openai');

  teardown(async () => {
    await vscode.commands.executeCommand('arbor.clearApiKey', { provider: 'openai' });
    await openaiBaseUrl().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('arbor.selectModel', 'fake/fake-gpt');
    await fakeAdmin('reset', {});
  });

  test('after a scripted run, session files, settings, logs, workspace and webview messages hold no part of the key', async function () {
    this.timeout(90_000);
    const api = await activateArbor();
    await fakeAdmin('reset', {});
    // The fake answers 401 unless a request carries exactly this key.
    await fakeAdmin('config', { apiKey: KEY });

    // 1. The key goes in through the command, like a user typing it.
    assert.equal(await vscode.commands.executeCommand('arbor.setApiKey', { provider: 'openai', key: KEY }), true);
    assert.equal(await api.hasApiKey('openai'), true);
    await openaiBaseUrl().update('baseUrl', `${FAKE}/v1`, vscode.ConfigurationTarget.Global);
    await waitFor('the base URL setting to apply', () => api.config.settings.baseUrls.openai === `${FAKE}/v1`);
    await api.app.applySettings();
    assert.equal(await vscode.commands.executeCommand('arbor.selectModel', 'openai/gpt-5-mini'), true);
    assert.equal(api.app.models.current.provider, 'openai');

    // 2. The chat webview is open, so every state/conversation/event message is really posted.
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to resolve', () => api.chatView.isResolved);
    await waitFor('the ready handshake', () => api.chatView.isReady, 30_000);
    const postsBefore = api.chatView.postCount;
    const postedBefore = api.chatView.stats.posted;

    // 3. A scripted run: a tool call and its result, a reply; then a provider error that echoes the key
    //    (OpenAI does that for a wrong key); then a normal reply again.
    await api.app.session.newSession();
    await fakeAdmin('enqueue', [
      { text: 'Looking.', toolCalls: [{ id: 'call_ls', name: 'ls', input: { path: '.' } }] },
      { text: 'SECSCAN-REPLY-1: the workspace has a few files.' },
      { error: { kind: 'custom', status: 401, message: `Incorrect API key provided: ${KEY}. You can find your API key at https://example.invalid.` } },
      { text: 'SECSCAN-REPLY-3' },
    ]);
    assert.equal((await api.app.prompt('SECSCAN-PROMPT-1 list the files')).kind, 'sent');
    await api.app.prompt('SECSCAN-PROMPT-2 again');
    await waitFor('idle', () => !api.app.busy);
    assert.equal((await api.app.prompt('SECSCAN-PROMPT-3 once more')).kind, 'sent');
    await waitFor('idle', () => !api.app.busy);

    // The run really used the key: every request to the model carried it (the fake checked).
    const requests: { path: string; auth: string }[] = await fakeAdmin('requests');
    const modelRequests = requests.filter((r) => r.path.includes('/chat/completions') || r.path.includes('/responses'));
    assert.ok(modelRequests.length >= 4, `expected ≥ 4 model requests, saw ${modelRequests.length}`);
    assert.deepEqual([...new Set(modelRequests.map((r) => r.auth))], ['valid'], 'every request authenticated with the stored key');
    const conversation = api.app.snapshot().conversation;
    assert.ok(conversation.some((e) => e.text.includes('SECSCAN-REPLY-1')) && conversation.some((e) => e.text.includes('SECSCAN-REPLY-3')), 'the replies arrived');
    const posts = api.chatView.postsSince(postsBefore);
    assert.ok(api.chatView.stats.posted - postedBefore >= 5 && posts.length >= 5, `the webview was sent the run (${posts.length} messages)`);
    const postsText = JSON.stringify(posts);
    assert.ok(postsText.includes('SECSCAN-REPLY-1'), 'the posted messages carry the conversation (the scan looks at real content)');
    assert.ok(/Incorrect API key provided/.test(postsText) || /Incorrect API key provided/.test(JSON.stringify(api.app.snapshot())), 'the echoed-key error reached the user (redacted)');

    const scanned: { what: string; bytes: number }[] = [];
    const leaks: string[] = [];
    const scan = (what: string, text: string) => {
      scanned.push({ what, bytes: text.length });
      const found = leak(text);
      if (found) leaks.push(`${what}: contains "${found}"`);
    };

    // 4a. Every file in the sessions folder (sessions, backups, indexes).
    const sessionFile = api.app.snapshot().session?.file;
    assert.ok(sessionFile && existsSync(sessionFile), 'the session was written');
    const sessionFiles = await filesUnder(dirname(sessionFile));
    assert.ok(sessionFiles.includes(sessionFile));
    for (const file of sessionFiles) scan(`session folder: ${file}`, await readFile(file, 'utf8'));
    assert.ok((await readFile(sessionFile, 'utf8')).includes('SECSCAN-PROMPT-1'), 'the session file holds the run');

    // 4b. Every arbor.* setting, at every level (default, global, workspace, folder, language-specific).
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const sections = ([] as { properties: Record<string, unknown> }[]).concat(extension.packageJSON.contributes.configuration);
    const keys = sections.flatMap((s) => Object.keys(s.properties));
    assert.ok(keys.length >= 20, `${keys.length} contributed settings`);
    const folders = vscode.workspace.workspaceFolders ?? [];
    for (const key of keys) {
      scan(`setting ${key}`, JSON.stringify(vscode.workspace.getConfiguration().inspect(key) ?? null));
      for (const folder of folders) scan(`setting ${key} @ ${folder.name}`, JSON.stringify(vscode.workspace.getConfiguration(undefined, folder.uri).inspect(key) ?? null));
    }
    scan('getConfiguration("arbor")', JSON.stringify(vscode.workspace.getConfiguration('arbor')));
    scan('the parsed settings the app uses', JSON.stringify(api.config.settings));
    // ... and the settings files on disk
    const userData = [process.env.XDG_DATA_HOME, process.env.ARBOR_EXTHOST_RESULTS].filter((p): p is string => Boolean(p)).map((p) => join(dirname(p), 'ud', 'User'));
    const settingsFiles = [
      ...userData.map((dir) => join(dir, 'settings.json')),
      ...folders.map((f) => join(f.uri.fsPath, '.vscode', 'settings.json')),
      ...(vscode.workspace.workspaceFile?.scheme === 'file' ? [vscode.workspace.workspaceFile.fsPath] : []),
    ].filter((file) => existsSync(file));
    assert.ok(settingsFiles.length >= 1, 'the user settings file was found');
    for (const file of settingsFiles) scan(`settings file ${file}`, await readFile(file, 'utf8'));

    // 4c. Logs: Arbor's LogOutputChannel file, and every other log file of this window.
    const logFile = await arborLogFile();
    let logText = '';
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      logText = await readFile(logFile, 'utf8');
      if (/activated/.test(logText)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.match(logText, /activated/, 'the scan reads the real Arbor log');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the log service writes asynchronously
    const logsRoot = dirname(dirname(dirname(logFile))); // <ud>/logs/<session>
    const logFiles = await filesUnder(logsRoot);
    assert.ok(logFiles.includes(logFile));
    for (const file of logFiles) scan(`log ${file.slice(logsRoot.length)}`, await readFile(file, 'utf8').catch(() => ''));

    // 4d. The workspace (tools ran in it) and the extension's storage (session catalog, state).
    for (const folder of folders) {
      for (const file of await filesUnder(folder.uri.fsPath, (name) => name === 'node_modules' || name === '.git')) {
        scan(`workspace ${file}`, await readFile(file, 'utf8').catch(() => ''));
      }
    }

    // 4e. Everything posted to the webview since the chat opened, and the snapshot the views render from.
    scan('messages posted to the webview', JSON.stringify(api.chatView.recentPosts));
    scan('app snapshot (conversation, tree, state)', JSON.stringify(api.app.snapshot()));

    // The scan must be able to fail: the key itself is found by it.
    assert.ok(leak(`prefix ${KEY} suffix`), 'the scanner finds the key');
    assert.ok(leak(KEY.slice(10, 30)), 'the scanner finds a 20-character piece of the key');
    assert.deepEqual(leaks, []);
    const bytes = scanned.reduce((sum, s) => sum + s.bytes, 0);
    console.log(`security scan: ${scanned.length} items, ${(bytes / 1024).toFixed(0)} KB scanned, ${leaks.length} leaks`);
  });
});
