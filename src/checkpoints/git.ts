// The few git plumbing calls checkpoints need, run with `-c core.quotepath=off` and NUL-separated
// output so that no file name is ever parsed back from quoted text.
import { spawn } from 'node:child_process';
import { resolve as resolvePath } from 'node:path';

export interface GitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs git with optional locks off (a scan must never take the user's index lock) unless `index` names
 * a private index (git-index.ts), which git may then refresh and write.
 */
export function runGit(cwd: string, args: readonly string[], input?: string, index?: string): Promise<GitResult> {
  const env = index === undefined ? { ...process.env, GIT_OPTIONAL_LOCKS: '0' } : { ...process.env, GIT_OPTIONAL_LOCKS: '1', GIT_INDEX_FILE: index };
  return new Promise((resolve) => {
    const child = spawn('git', ['-c', 'core.quotepath=off', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error) => resolve({ code: -1, stdout: Buffer.alloc(0), stderr: error.message }));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

export interface GitRepo {
  /** the work tree's top folder */
  top: string;
  /** this work tree's git folder (HEAD lives here) and the common one (refs, packed-refs) */
  gitDir: string;
  commonDir: string;
}

/** The git work tree holding `dir`, or undefined (no git, or not a repository). */
export async function gitRepoOf(dir: string): Promise<GitRepo | undefined> {
  const result = await runGit(dir, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir']);
  if (result.code !== 0) return undefined;
  const [top, gitDir, common] = result.stdout.toString('utf8').split(/\r?\n/);
  if (!top || !gitDir || !common) return undefined;
  return { top, gitDir, commonDir: resolvePath(dir, common) };
}

/** HEAD's commit, asked of git (see git-head.ts for the cheap way). */
export async function gitHead(top: string): Promise<string | undefined> {
  const result = await runGit(top, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  return result.code === 0 ? result.stdout.toString('utf8').trim() : undefined;
}

export interface GitStatus {
  /** the commit HEAD names (undefined before the first commit) */
  head: string | undefined;
  /** paths relative to the top folder */
  dirty: string[];
}

/** Where `git status` reads: the user's index (read only), or a private one (git-index.ts) it may write. */
export interface StatusIndex {
  /** the private index file */
  file: string;
  /** `dir` is the work tree's top: no pathspec, so git can use the untracked cache */
  wholeTree: boolean;
  /** only these pathspecs (relative to the top, tree-watcher.ts), which `dir` must then be */
  pathspecs?: readonly string[];
}

/** Settings for a status on a private index: keep what the scan learned there, never in the user's repository. */
const PRIVATE_INDEX_CONFIG = ['-c', 'core.untrackedCache=true', '-c', 'status.showUntrackedFiles=all', '-c', 'core.splitIndex=false'];

/**
 * Paths (relative to the top folder) that differ from HEAD or are untracked and not ignored, below
 * `dir`, and HEAD's commit, from one `git status --porcelain=v2 --branch`. Renames are reported as a
 * deletion and an addition; submodules are left out; the distance to the upstream branch is not counted.
 */
export async function gitStatus(dir: string, index?: StatusIndex): Promise<GitStatus | undefined> {
  const command = ['status', '--porcelain=v2', '-z', '--branch', '--no-ahead-behind', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'];
  const args = index === undefined ? [...command, '--', '.'] : [...PRIVATE_INDEX_CONFIG, ...command, ...pathspecArgs(index)];
  const result = await runGit(dir, args, undefined, index?.file);
  if (result.code !== 0) return undefined;
  const status: GitStatus = { head: undefined, dirty: [] };
  for (const record of result.stdout.toString('utf8').split('\0')) {
    const path = pathOfRecord(record);
    if (path !== undefined) status.dirty.push(path);
    else if (record.startsWith('# branch.oid ') && record !== '# branch.oid (initial)') status.head = record.slice('# branch.oid '.length);
  }
  return status;
}

function pathspecArgs(index: StatusIndex): string[] {
  if (index.pathspecs) return ['--', ...index.pathspecs];
  return index.wholeTree ? [] : ['--', '.'];
}

/** Fields before the path in each porcelain v2 record kind (`1` changed, `u` unmerged, `?` untracked). */
const FIELDS_BEFORE_PATH: Record<string, number> = { '1': 8, u: 10, '?': 1 };

function pathOfRecord(record: string): string | undefined {
  const fields = FIELDS_BEFORE_PATH[record.charAt(0)];
  if (fields === undefined || record.charAt(1) !== ' ') return undefined;
  let at = 0;
  for (let i = 0; i < fields && at >= 0; i++) at = record.indexOf(' ', at) + 1 || -1;
  return at > 0 && at < record.length ? record.slice(at) : undefined;
}

/** Paths (relative to the top folder) that differ between two commits. */
export async function gitChangedBetween(top: string, from: string | undefined, to: string | undefined): Promise<string[]> {
  if (from === to) return [];
  const empty = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
  const result = await runGit(top, ['diff', '--name-only', '-z', '--no-renames', from ?? empty, to ?? empty]);
  if (result.code !== 0) return [];
  return result.stdout.toString('utf8').split('\0').filter((p) => p !== '');
}

/** Contents of `paths` at commit `head` (one `git cat-file --batch`); undefined where the path is not a blob there. */
export async function gitContentsAt(top: string, head: string, paths: readonly string[]): Promise<Map<string, Buffer | undefined>> {
  const out = new Map<string, Buffer | undefined>();
  const asked = paths.filter((p) => !p.includes('\n'));
  for (const p of paths) out.set(p, undefined);
  if (asked.length === 0) return out;
  const result = await runGit(top, ['cat-file', '--batch'], asked.map((p) => `${head}:${p}\n`).join(''));
  let offset = 0;
  for (const path of asked) {
    const newline = result.stdout.indexOf(0x0a, offset);
    if (newline < 0) break;
    const header = result.stdout.subarray(offset, newline).toString('utf8').split(' ');
    offset = newline + 1;
    if (header.length !== 3) continue;
    const size = Number(header[2]);
    if (header[1] === 'blob') out.set(path, result.stdout.subarray(offset, offset + size));
    offset += size + 1;
  }
  return out;
}

/** Which of `paths` (relative to the top) git ignores; tracked files never count as ignored. */
export async function gitIgnored(top: string, paths: readonly string[]): Promise<Set<string> | undefined> {
  if (paths.length === 0) return new Set();
  // "./" keeps a name that starts with ":" from reading as pathspec magic (check-ignore takes no --literal-pathspecs).
  const result = await runGit(top, ['check-ignore', '-z', '--stdin'], paths.map((p) => `./${p}\0`).join(''));
  // 1: none of them is ignored; anything else but 0 is a failure (the caller then trusts none of them).
  if (result.code === 1) return new Set();
  if (result.code !== 0) return undefined;
  return new Set(result.stdout.toString('utf8').split('\0').filter((p) => p.startsWith('./')).map((p) => p.slice(2)));
}
