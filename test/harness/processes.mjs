// Process-group bookkeeping: every server the harness starts is spawned detached (its own process
// group) and the whole group is killed on stop, on process exit, and on SIGINT/SIGTERM/uncaught errors,
// so a failed or interrupted run never leaves code-server or its file watcher behind.
import { rmSync } from 'node:fs';

const groups = new Set();
const scratchDirs = new Set();
let hooked = false;

/** Removes `dir` when the process exits or is interrupted, unless released first. Returns the releaser. */
export function removeOnExit(dir) {
  hookExit();
  scratchDirs.add(dir);
  return () => scratchDirs.delete(dir);
}

export function killGroup(pid, signal = 'SIGTERM') {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

function killAll() {
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  groups.clear();
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  scratchDirs.clear();
}

function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      killAll();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}

/** Registers a detached child's group for cleanup; returns a function that stops it (idempotent). */
export function trackGroup(child) {
  hookExit();
  groups.add(child.pid);
  let stopped;
  return () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        killGroup(child.pid, 'SIGTERM');
        const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      // Children of the group (file watcher, extension host) may outlive the leader: kill them too.
      killGroup(child.pid, 'SIGKILL');
      groups.delete(child.pid);
    })();
    return stopped;
  };
}
