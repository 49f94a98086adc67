// Finds ripgrep (a path the extension passes, e.g. VS Code's bundled rg, else PATH) and runs it with
// line-wise output, stopping it early once enough lines arrived, on Stop, or at a deadline. ripgrep's
// regex and glob engines run in linear time, so a hostile pattern or .gitignore cannot stall it.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ToolError } from './types';

/** A search or listing that runs longer than this is stopped and reported (a huge tree, a slow disk). */
export const RIPGREP_DEADLINE_MS = 60_000;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * VS Code ships ripgrep inside its install folder (`vscode.env.appRoot`); the extension passes that
 * folder here so the core never imports `vscode`. Undefined when it is not there.
 */
export function bundledRipgrep(appRoot: string | undefined): string | undefined {
  if (!appRoot) return undefined;
  const name = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const candidates = ['node_modules', 'node_modules.asar.unpacked'].map((dir) => join(appRoot, dir, '@vscode', 'ripgrep', 'bin', name));
  return candidates.find(executable);
}

let cachedOnPath: string | null | undefined;

export function ripgrepOnPath(): string | undefined {
  if (cachedOnPath !== undefined) return cachedOnPath ?? undefined;
  cachedOnPath = null;
  const names = process.platform === 'win32' ? ['rg.exe'] : ['rg'];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (!executable(candidate)) continue;
      cachedOnPath = candidate;
      return candidate;
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

/**
 * Runs rg, feeding each stdout line to `onLine` until it returns false; then kills rg. Stop (the signal)
 * kills it at once; past `deadlineMs` it is killed and the run rejects with a ToolError.
 */
export function runRipgrep(
  rg: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  onLine: (line: string) => boolean,
  deadlineMs = RIPGREP_DEADLINE_MS,
): Promise<RgRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, deadlineMs);
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
      clearTimeout(deadline);
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(deadline);
      signal.removeEventListener('abort', onAbort);
      if (timedOut) {
        reject(new ToolError(`The search took longer than ${deadlineMs / 1000} s and was stopped. Narrow it with a path or a glob.`));
        return;
      }
      if (!stopped && pending.length > 0) onLine(pending);
      resolve({ lines, exitCode: code, stderr, stopped });
    });
  });
}
