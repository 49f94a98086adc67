// The host half of images in the chat: *Attach image* opens the editor's file picker (PNG/JPEG/GIF/WebP
// filter) and answers with the chips, refusing a text file named .png and a file over the cap; a prompt
// whose image is not one (a hostile webview) is refused with a notice and nothing is sent.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { IMAGE_LIMITS, parseHostMessage } from '../../src/protocol';
import type { ArborApi } from '../../src/vscode/api';
import { activateArbor, waitFor } from './helpers';
import { stubWindow } from './surfaces-fixtures';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

suite('chat view: images', () => {
  let dir: string;
  let api: ArborApi;

  suiteSetup(async () => {
    api = await activateArbor();
    dir = await mkdtemp(join(tmpdir(), 'arbor-exthost-images-'));
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to resolve', () => api.chatView.isResolved);
    assert.equal(await api.chatView.receive({ type: 'ready', protocolVersion: 4 }), true);
  });

  suiteTeardown(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('Attach image: the picker is filtered to images; a real PNG becomes a chip, a renamed text file and an oversize file are refused', async () => {
    const files = { 'shot.png': PNG, 'notes.png': Buffer.from('not a picture'), 'huge.png': Buffer.alloc(IMAGE_LIMITS.maxBytes + 1) };
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
    let options: vscode.OpenDialogOptions | undefined;
    const ui = stubWindow({ showOpenDialog: async (given: vscode.OpenDialogOptions) => ((options = given), Object.keys(files).map((name) => vscode.Uri.file(join(dir, name)))) });
    try {
      const start = api.chatView.postCount;
      assert.equal(await api.chatView.receive({ type: 'pickImages' }), true);
      const answer = api.chatView.postsSince(start).find((post) => post.type === 'imagesAttached');
      assert.ok(answer?.type === 'imagesAttached' && parseHostMessage(answer).ok);
      assert.deepEqual(Object.values(options?.filters ?? {}), [['png', 'jpg', 'jpeg', 'gif', 'webp']]);
      assert.equal(options?.canSelectMany, true);
      assert.deepEqual(answer.images.map(({ id, ...image }) => (assert.ok(id), image)), [{ name: 'shot.png', mimeType: 'image/png', data: PNG.toString('base64') }]);
      assert.equal(await api.chatView.receive({ type: 'draftImages', ids: [] }), true);
      assert.deepEqual(answer.refused, [{ name: 'notes.png', problem: 'notImage' }, { name: 'huge.png', problem: 'tooLarge' }]);
    } finally {
      ui.restore();
    }
  });

  test("the draft's chips come back to a re-created webview (ready again) as the composer last reported them", async () => {
    // The view's real webview answers chips it is handed (imagesAttached, restoreDraftImages) with a report
    // of its own: its messages are watched, and each step waits for that report, so this test's own
    // reports are the last word (one landing after would undo them; seen in the full suite).
    const original = api.chatView.receive.bind(api.chatView);
    const reports: unknown[] = [];
    api.chatView.receive = async (raw: unknown) => ((raw as { type?: string }).type === 'draftImages' && reports.push(raw), original(raw));
    const send = async (message: unknown) => {
      const [mark, delivered, seen] = [api.chatView.postCount, api.chatView.stats.posted, reports.length];
      assert.equal(await original(message), true);
      const handed = api.chatView.postsSince(mark).some((post) => post.type === 'imagesAttached' || post.type === 'restoreDraftImages');
      if (handed && api.chatView.stats.posted > delivered) await waitFor("the real composer's report", () => reports.length > seen);
      return mark;
    };
    try {
      // An earlier test may have left chips in the real composer: a load with an empty draft empties it.
      await send({ type: 'draftImages', ids: [] });
      await send({ type: 'ready', protocolVersion: 5 });
      const data = PNG.toString('base64');
      const start = await send({ type: 'attachImages', images: [{ name: 'a.png', mimeType: 'image/png', data }, { name: 'b.png', mimeType: 'image/png', data }] });
      const answer = api.chatView.postsSince(start).find((post) => post.type === 'imagesAttached');
      assert.ok(answer?.type === 'imagesAttached' && answer.images.length === 2);
      const [a, b] = answer.images;
      // the composer removed a.png: a new webview gets b.png back alone
      await send({ type: 'draftImages', ids: [b!.id] });
      const reload = await send({ type: 'ready', protocolVersion: 5 });
      const restored = api.chatView.postsSince(reload).find((post) => post.type === 'restoreDraftImages');
      assert.ok(restored?.type === 'restoreDraftImages' && parseHostMessage(restored).ok);
      assert.deepEqual(restored.images, [b], `not ${a!.name}`);
      // sent (the composer reports no chips): none come back
      await send({ type: 'draftImages', ids: [] });
      const again = await send({ type: 'ready', protocolVersion: 5 });
      const empty = api.chatView.postsSince(again).find((post) => post.type === 'restoreDraftImages');
      assert.deepEqual(empty?.type === 'restoreDraftImages' && empty.images, []);
    } finally {
      api.chatView.receive = original;
    }
  });

  test('a prompt carrying something that is not an image is refused with a notice; nothing is stored', async () => {
    const before = api.app.snapshot({ tree: false }).conversation.length;
    const start = api.chatView.postCount;
    const fake = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');
    assert.equal(await api.chatView.receive({ type: 'prompt', text: 'look', images: [{ mimeType: 'image/png', data: fake }] }), true);
    const notice = api.chatView.postsSince(start).find((post) => post.type === 'notice');
    assert.ok(notice?.type === 'notice' && notice.level === 'error', JSON.stringify(notice));
    assert.match(notice.message, /not sent: image #1 is not a PNG, JPEG, GIF or WebP image/);
    assert.equal(api.app.snapshot({ tree: false }).conversation.length, before);
  });
});

suite('chat view: editing a message with images', () => {
  test('Edit sends the edited text with the original images (the text-only test model refuses them with a notice)', async () => {
    const api = await activateArbor();
    const dir = await mkdtemp(join(tmpdir(), 'arbor-exthost-edit-images-'));
    const at = (s: number) => new Date(Date.UTC(2025, 2, 1, 9, 0, s)).toISOString();
    const lines = [
      { type: 'session', version: 3, id: 'edit-images', timestamp: at(0), cwd: dir },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }], timestamp: 1 } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'text', text: 'A pixel.' }], api: 'openai-completions', provider: 'fake', model: 'fake-gpt', stopReason: 'stop', timestamp: 2 } },
    ];
    const file = join(dir, 'edit-images.jsonl');
    await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    try {
      await api.app.session.openSession(file);
      assert.notEqual(api.app.models.current.images, true, 'the test model is text-only');
      const start = api.chatView.postCount;
      assert.equal(await api.chatView.receive({ type: 'editMessage', entryId: 'u1', text: 'What colour is it?' }), true);
      const notice = api.chatView.postsSince(start).find((post) => post.type === 'notice');
      assert.ok(notice?.type === 'notice', 'a notice, not a prompt without its image');
      assert.match(notice.message, /does not take images/);

      // blank text goes only with images: an edit to nothing of a message without any moves nothing
      const leaf = api.app.views.treeLeafId;
      const blank = api.chatView.postCount;
      assert.equal(await api.chatView.receive({ type: 'editMessage', entryId: 'a1', text: '  ' }), true);
      assert.equal(api.chatView.postsSince(blank).some((post) => post.type === 'navigationProgress'), false);
      assert.equal(api.app.views.treeLeafId, leaf);

      // picking the message to edit and resend (a switch to it) puts its text back with its image as a chip
      const pick = api.chatView.postCount;
      assert.equal(await api.chatView.receive({ type: 'navigate', targetId: 'u1', mode: 'none' }), true);
      const input = api.chatView.postsSince(pick).find((post) => post.type === 'editorText');
      assert.ok(input?.type === 'editorText' && parseHostMessage(input).ok, JSON.stringify(input?.type));
      assert.equal(input.text, 'What is this?');
      assert.deepEqual(input.images?.map(({ name, mimeType, data }) => ({ name, mimeType, data })), [{ name: 'image 1.png', mimeType: 'image/png', data: PNG.toString('base64') }]);
    } finally {
      await api.app.session.newSession();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
