// A temp workspace + session + checkpoint store, and small helpers to make "turns" that change files.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { openCheckpoints, type Checkpoints } from '../../../src/checkpoints';
import { SessionStore } from '../../../src/session/store';
import { builtin } from '../tools/builtin';

export interface Fixture {
  base: string;
  ws: string;
  sessionDir: string;
  storeDir: string;
  store: SessionStore;
  cp: Checkpoints;
  cleanup(): void;
}

export async function fixture(options: { maxFileBytes?: number; exclude?: string[] } = {}): Promise<Fixture> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-cp-')));
  const ws = join(base, 'ws');
  const sessionDir = join(base, 'sessions');
  mkdirSync(ws);
  const storeDir = join(sessionDir, 'checkpoints');
  const store = await SessionStore.create({ dir: sessionDir, cwd: ws });
  const cp = await openCheckpoints(storeDir, { folders: [{ name: 'ws', path: ws }] }, options);
  const cleanup = () => {
    cp.files.close();
    rmSync(base, { recursive: true, force: true });
  };
  return { base, ws, sessionDir, storeDir, store, cp, cleanup };
}

/** Every file under `dir` (relative path → content), skipping `.git`. */
export function diskState(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p).split('\\').join('/')] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** One turn of `write`-like changes through the recorder: content, or null to delete. */
export async function turn(f: Fixture, changes: Record<string, string | null>): Promise<string | undefined> {
  for (const [rel, content] of Object.entries(changes)) {
    const tool = content === null ? 'bash' : 'write';
    await f.cp.recorder.beforeTool(builtin(tool), { path: rel });
    const p = join(f.ws, rel);
    if (content === null) unlinkSync(p);
    else {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
    }
    await f.cp.recorder.afterTool(builtin(tool), { path: rel });
  }
  return f.cp.recorder.finishTurn((type, data) => f.store.appendCustomEntry(type, data));
}
