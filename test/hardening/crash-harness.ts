// Spawning a bundled child, reading its acknowledgement lines, and SIGKILLing it at a chosen moment.
import { spawn } from 'node:child_process';
import { hardeningProfile } from './profile';

export interface KilledChild {
  /** stdout lines received (the child flushed them before it died) */
  lines: string[];
  /** true when the child finished before the kill (a trial that did not crash anything) */
  finished: boolean;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs `node bundle ...args`; `killAfterMs` after the child prints `ready` it gets SIGKILL.
 * Resolves when the child is gone and its stdout is drained.
 */
export function runAndKill(bundle: string, args: string[], killAfterMs: number, timeoutMs = 20_000): Promise<KilledChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffered = '';
    let stderr = '';
    let killTimer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child ${args.join(' ')} did not become ready/exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (data: string) => {
      buffered += data;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        lines.push(line);
        if (line.startsWith('ready') && killTimer === undefined) {
          killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (data: string) => (stderr += data));
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(guard);
      if (killTimer) clearTimeout(killTimer);
      resolve({ lines, finished: signal === null, stderr, exitCode, signal });
    });
  });
}

/** xorshift32: reproducible trials from ARBOR_HARDENING_SEED (printed with every failure). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** The quick profile (CI) replays one fixed corpus so a red run is always reproducible; full explores. */
const QUICK_PROFILE_SEED = 20261120;

export function suiteSeed(): number {
  const fromEnv = Number(process.env.ARBOR_HARDENING_SEED);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return hardeningProfile() === 'quick' ? QUICK_PROFILE_SEED : (Date.now() % 1_000_000_007) + 1;
}
