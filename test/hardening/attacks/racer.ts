// A separate process that keeps swapping a workspace entry for a symbolic link leading outside, the local
// attacker of docs/reliability.md ("another local process"). Shared by the tool and restore race tests.
import { spawn } from 'node:child_process';

// Swaps a file for a link to an outside file and back: a fresh link renamed over it, then a fresh file.
const FILE_SCRIPT = `
  const fs = require('fs');
  const [target, outside] = process.argv.slice(1);
  const tmpLink = target + '.racer-link', tmpReal = target + '.racer-real';
  for (;;) {
    try { fs.rmSync(tmpLink, { force: true }); fs.symlinkSync(outside, tmpLink); fs.renameSync(tmpLink, target); } catch {}
    try { fs.writeFileSync(tmpReal, 'inside\\n'); fs.renameSync(tmpReal, target); } catch {}
  }`;

// Renames only, so the real folder is swapped out and back in at full speed.
const DIR_SCRIPT = `
  const fs = require('fs');
  const [target, outside] = process.argv.slice(1);
  const aside = target + '.racer-real', link = target + '.racer-link';
  fs.mkdirSync(target, { recursive: true });
  for (;;) {
    try { fs.lstatSync(link); } catch { try { fs.symlinkSync(outside, link); } catch {} }
    try { fs.renameSync(target, aside); } catch {}
    try { fs.renameSync(link, target); } catch {}
    try { fs.renameSync(target, link); } catch {}
    try { fs.renameSync(aside, target); } catch { try { fs.rmSync(target, { recursive: true, force: true }); fs.renameSync(aside, target); } catch {} }
  }`;

/** Starts swapping `target` with a link to `outsideTarget`; returns the function that stops it. */
export function startRacer(target: string, outsideTarget: string, kind: 'file' | 'dir'): () => void {
  const child = spawn(process.execPath, ['-e', kind === 'dir' ? DIR_SCRIPT : FILE_SCRIPT, target, outsideTarget], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}
