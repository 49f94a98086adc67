// Leaf persistence (issues 3 and 7): after a navigation the position survives a window reload. The real
// extension's app re-opens the session through the same code path with the real workspaceState; a fresh
// ArborApp built like activate() over the same storage restores it too. pi's rule (the last line) applies
// when nothing is remembered or the remembered entry is gone.
import * as assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ArborApp } from '../../src/app/arbor-app';
import type { SessionEntry } from '../../src/session/entries';
import { LastSessionMemory, WorkspaceLeafMemory } from '../../src/vscode/leaf-memory';
import type { ArborApi } from '../../src/vscode/api';
import { activateArbor, fakeAdmin } from './helpers';



/** Three exchanges through the fake provider. */
async function threeTurns(app: ArborApp): Promise<void> {
  for (const n of [1, 2, 3]) {
    await fakeAdmin('enqueue', { text: `reply ${n}` });
    const outcome = await app.prompt(`question ${n}`);
    assert.equal(outcome.kind, 'sent');
  }
}

function assistantIds(app: ArborApp): string[] {
  return app
    .currentStore!.getEntries()
    .filter((e) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'assistant')
    .map((e) => e.id);
}

async function fileLines(file: string): Promise<Record<string, unknown>[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Memento with VS Code's semantics (values stored as JSON copies), outliving the apps that use it. */
class JsonMemento implements vscode.Memento {
  private readonly values = new Map<string, string>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const raw = this.values.get(key);
    return raw === undefined ? defaultValue : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.stringify(value));
  }
}

/** An app wired like activate() (settings from the real configuration, fake provider), over `memento`. */
function appLikeActivate(api: ArborApi, sessionsDir: string, memento: vscode.Memento): ArborApp {
  const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  return new ArborApp({
    sessionsDir: () => sessionsDir,
    journalsDir: () => join(sessionsDir, '..', 'own-storage'),
    workspaceRoots: roots,
    trusted: () => vscode.workspace.isTrusted,
    settings: () => api.config.settings,
    keys: { getKey: async () => undefined },
    leafMemory: new WorkspaceLeafMemory(memento),
    prompter: { ask: async () => ({ kind: 'approve' }) },
  });
}

const exists = (file: string) => stat(file).then((s) => s.isFile(), () => false);

/** The leaf memory writes in the background (best effort): let it settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

suite('leaf persistence across a reload (extension host)', () => {
  const temps: string[] = [];
  setup(async () => {
    await fakeAdmin('reset', {});
  });
  suiteTeardown(async () => {
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  test('the real app: navigate to an earlier reply, switch away, reopen → the leaf is restored from workspaceState', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.newSession');
    await threeTurns(api.app);
    const file = api.app.session.sessionView()!.file;
    const [first, , last] = assistantIds(api.app);
    assert.equal(api.app.snapshot({ tree: false }).leafId, last);

    const result = await api.app.tree.navigate(first!);
    assert.ok(result.kind === 'done' && result.value.cancelled === false, JSON.stringify(result));
    assert.equal(api.app.snapshot({ tree: false }).leafId, first);
    await settle();

    await api.app.session.newSession();
    assert.notEqual(api.app.session.sessionView()?.file, file);
    await api.app.session.openSession(file);
    const snapshot = api.app.snapshot({ tree: false });
    assert.equal(snapshot.leafId, first, 'the navigated position, not the last line');
    assert.deepEqual(snapshot.conversation.map((e) => e.text), ['question 1', 'reply 1']);
  });

  test('the real app: a navigated position whose entry is gone from the file falls back to the last line', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.newSession');
    await threeTurns(api.app);
    const file = api.app.session.sessionView()!.file;
    const [, second] = assistantIds(api.app);
    await api.app.tree.navigate(second!);
    await settle();
    await api.app.session.newSession();

    // Another tool rewrote the file without that entry (its child becomes a root, as the store reads orphans).
    const lines = await fileLines(file);
    const kept = lines.filter((l) => l.id !== second);
    assert.equal(kept.length, lines.length - 1);
    await writeFile(file, kept.map((l) => JSON.stringify(l)).join('\n') + '\n');

    await api.app.session.openSession(file);
    assert.equal(api.app.snapshot({ tree: false }).leafId, kept.at(-1)!.id, "pi's rule: the last line");
  });

  test('the real app: a copy of the session (nothing remembered for it) opens at the last line', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.newSession');
    await threeTurns(api.app);
    const file = api.app.session.sessionView()!.file;
    const [first, , last] = assistantIds(api.app);
    await api.app.tree.navigate(first!);
    await settle();
    const copy = file.replace(/\.jsonl$/, '-copy.jsonl');
    await copyFile(file, copy);
    try {
      await api.app.session.openSession(copy);
      assert.equal(api.app.snapshot({ tree: false }).leafId, last);
    } finally {
      await api.app.session.newSession();
      await rm(copy, { force: true });
    }
  });

  test('a fresh ArborApp over the same workspace storage restores the leaf (a window reload); the root position too', async () => {
    const api = await activateArbor();
    const dir = await mkdtemp(join(tmpdir(), 'arbor-leaf-'));
    temps.push(dir);
    const storage = new JsonMemento();

    const before = appLikeActivate(api, dir, storage);
    await before.applySettings();
    await before.session.newSession();
    await threeTurns(before);
    const file = before.session.sessionView()!.file;
    const [first, second] = assistantIds(before);
    await before.tree.navigate(second!);
    await settle();
    before.dispose();

    const after = appLikeActivate(api, dir, storage);
    let position: string | null | undefined;
    try {
      await after.applySettings();
      await after.session.openSession(file);
      assert.equal(after.snapshot({ tree: false }).leafId, second);

      // Picking the first user message moves to its parent (edit and resend): "before everything" when it
      // is the first entry. That position survives too, and is not mistaken for "nothing remembered".
      const firstUser = after.currentStore!.getEntries().find((e: SessionEntry) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'user')!;
      const result = await after.tree.navigate(firstUser.id);
      assert.ok(result.kind === 'done' && result.value.editorText === 'question 1', JSON.stringify(result));
      position = after.snapshot({ tree: false }).leafId;
      assert.equal(position, firstUser.parentId);
      assert.notEqual(position, first);
      await settle();
    } finally {
      after.dispose();
    }

    const again = appLikeActivate(api, dir, storage);
    try {
      await again.session.openSession(file);
      assert.equal(again.snapshot({ tree: false }).leafId, position);
      assert.notEqual(again.snapshot({ tree: false }).leafId, again.currentStore!.getEntries().at(-1)!.id);
    } finally {
      again.dispose();
    }

    // Nothing remembered (new storage): pi's rule.
    const fresh = appLikeActivate(api, dir, new JsonMemento());
    try {
      await fresh.session.openSession(file);
      const entries = fresh.currentStore!.getEntries();
      assert.equal(fresh.snapshot({ tree: false }).leafId, entries.at(-1)!.id);
    } finally {
      fresh.dispose();
    }
  });

  test('a reload as activate() does it: the last session is reopened at its navigated leaf; a deleted one is skipped', async () => {
    const api = await activateArbor();
    const dir = await mkdtemp(join(tmpdir(), 'arbor-reload-'));
    temps.push(dir);
    const storage = new JsonMemento();

    const before = appLikeActivate(api, dir, storage);
    const tracking = new LastSessionMemory(storage).track(before);
    await before.applySettings();
    await before.session.newSession();
    await threeTurns(before);
    const file = before.session.sessionView()!.file;
    const [first] = assistantIds(before);
    await before.tree.navigate(first!);
    await settle();
    tracking.dispose();
    before.dispose();

    const after = appLikeActivate(api, dir, storage);
    const memory = new LastSessionMemory(storage);
    try {
      assert.equal(after.currentStore, undefined, 'a new app starts without a session');
      assert.equal(await memory.reopen(after, exists), true);
      assert.equal(after.session.sessionView()?.file, file);
      assert.equal(after.snapshot({ tree: false }).leafId, first);
      assert.equal(await memory.reopen(after, exists), false, 'never replaces an open session');
    } finally {
      after.dispose();
    }

    await rm(file);
    const afterDelete = appLikeActivate(api, dir, storage);
    try {
      assert.equal(await new LastSessionMemory(storage).reopen(afterDelete, exists), false);
      assert.equal(afterDelete.currentStore, undefined);
    } finally {
      afterDelete.dispose();
    }
  });
});
