// Finds ripgrep (PATH, or a path the extension passes, e.g. VS Code's bundled rg) and runs it with
// line-wise output, stopping it early once enough lines arrived.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

let cachedOnPath: string | null | undefined;

export function ripgrepOnPath(): string | undefined {
  if (cachedOnPath !== undefined) return cachedOnPath ?? undefined;
  cachedOnPath = null;
  const names = process.platform === 'win32' ? ['rg.exe'] : ['rg'];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        cachedOnPath = candidate;
        return candidate;
      } catch {
        // keep looking
      }
    }
  }
  return undefined;
}

/** `false` disables ripgrep; a string is used as its path; undefined looks it up on PATH. */
export type RipgrepOption = string | false | undefined;

export function resolveRipgrep(option: RipgrepOption): string | undefined {
  if (option === false) return undefined;
  if (typeof option === 'string') return option;
  return ripgrepOnPath();
}

export interface RgRun {
  lines: string[];
  exitCode: number | null;
  stderr: string;
  /** stopped early by onLine returning false */
  stopped: boolean;
}

/** Runs rg, feeding each stdout line to `onLine` until it returns false; then kills rg. */
export function runRipgrep(rg: string, args: string[], cwd: string, signal: AbortSignal, onLine: (line: string) => boolean): Promise<RgRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let pending = '';
    let stderr = '';
    let stopped = false;
    const lines: string[] = [];
    const stop = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop();
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      pending += chunk;
      let nl = pending.indexOf('\n');
      while (nl >= 0 && !stopped) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (!onLine(line)) stop();
        nl = pending.indexOf('\n');
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (!stopped && pending.length > 0) onLine(pending);
      resolve({ lines, exitCode: code, stderr, stopped });
    });
  });
}
