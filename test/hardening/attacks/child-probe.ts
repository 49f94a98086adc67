// Runs a snippet of code in a child Node process (with tsx) and kills it after a watchdog delay, so an attack
// that would freeze the extension host shows as "never finished" instead of stalling the suite.
import { spawn } from 'node:child_process';

export async function probeInChild(root: string, code: string, limitMs = 30_000): Promise<{ finished: boolean; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const finished = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(false);
    }, limitMs);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  return { finished, out };
}
