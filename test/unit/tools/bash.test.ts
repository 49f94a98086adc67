import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { call, ctxFor, makeSandbox, textOf, toolsByName } from './helpers';

const { bash } = toolsByName();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pid: number, ms = 4000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

test('bash runs in the workspace root and reports the exit code', async () => {
  const { ws, workspace } = await makeSandbox();
  const ok = await call(bash, { command: 'pwd; echo err >&2' }, ctxFor(workspace));
  assert.equal(ok.isError, false);
  assert.match(textOf(ok), new RegExp(`^${ws}\\n`));
  assert.match(textOf(ok), /err\n\n\[exit code: 0\]$/);
  const bad = await call(bash, { command: 'echo partial; exit 3' }, ctxFor(workspace));
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /partial\n\n\[exit code: 3\]$/);
  assert.equal((bad.details as { exitCode: number }).exitCode, 3);
  assert.match(textOf(await call(bash, { command: 'true' }, ctxFor(workspace))), /\(no output\)/);
});

test('bash keeps the tail of a 10 MB output with a marker and streams updates', async () => {
  const { workspace } = await makeSandbox();
  const updates: string[] = [];
  const out = await call(
    bash,
    { command: "head -c 10000000 /dev/zero | tr '\\0' 'a' | fold -w 99; echo LAST-LINE" },
    ctxFor(workspace, { onUpdate: (t) => updates.push(t) }),
  );
  const text = textOf(out);
  assert.equal(out.isError, false);
  assert.ok(Buffer.byteLength(text) < 52 * 1024, `${Buffer.byteLength(text)} bytes`);
  assert.match(text, /^\[Output truncated: showing the last \d+ lines \(.*\) of 101011 lines \(9\.6 MB\)/);
  assert.match(text, /LAST-LINE\n\n\[exit code: 0\]$/);
  assert.ok(updates.length > 0 && updates.every((u) => Buffer.byteLength(u) <= 50 * 1024));
});

test('bash timeout kills the whole process group', async () => {
  const { ws, workspace } = await makeSandbox();
  const started = Date.now();
  const out = await call(bash, { command: 'sleep 30 & echo $! > child.pid; wait', timeout: 0.5 }, ctxFor(workspace));
  assert.ok(Date.now() - started < 5000);
  assert.equal(out.isError, true);
  assert.match(textOf(out), /timed out after 0\.5 s/);
  const pid = Number(await readFile(join(ws, 'child.pid'), 'utf8'));
  assert.ok(pid > 0);
  assert.equal(await waitGone(pid), true, 'background child still alive');
});

test('bash abort kills the process group and returns promptly', async () => {
  const { ws, workspace } = await makeSandbox();
  const controller = new AbortController();
  const pending = call(bash, { command: 'sleep 30 & echo $! > child.pid; echo started; wait' }, ctxFor(workspace, { signal: controller.signal }));
  let pid = 0;
  for (let i = 0; i < 100 && !pid; i++) {
    await new Promise((r) => setTimeout(r, 30));
    pid = Number(await readFile(join(ws, 'child.pid'), 'utf8').catch(() => '0'));
  }
  assert.ok(pid > 0 && alive(pid));
  controller.abort();
  const out = await pending;
  assert.equal(out.isError, true);
  assert.match(textOf(out), /Command aborted by the user/);
  assert.match(textOf(out), /started/);
  assert.equal(await waitGone(pid), true, 'background child still alive');
});

test('bash timeout above the maximum is capped', async () => {
  const { workspace } = await makeSandbox();
  const out = await call(bash, { command: 'sleep 5', timeout: 100 }, ctxFor(workspace, { limits: { bashMaxTimeoutSec: 0.3 } }));
  assert.match(textOf(out), /timed out after 0\.3 s \(the maximum allowed\)/);
});
