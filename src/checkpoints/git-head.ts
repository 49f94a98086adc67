// HEAD's commit read from the git folder's files instead of spawning git (docs/architecture.md, "file
// checkpoints"): the check before every `bash` command needs it, and a process start costs more than the
// rest of that check. Only the plain layouts are read (HEAD naming a loose or packed branch, or a
// detached commit); anything else (reftable, symbolic ref chains, odd content) asks git.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitHead, type GitRepo } from './git';

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

async function text(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').then((t) => t.trim(), () => undefined);
}

/** The commit `ref` names in packed-refs, or undefined. */
async function packedRef(repo: GitRepo, ref: string): Promise<string | undefined> {
  const packed = await text(join(repo.commonDir, 'packed-refs'));
  for (const line of packed?.split('\n') ?? []) {
    const [hash, name] = line.trim().split(' ');
    if (name === ref && hash && COMMIT.test(hash)) return hash;
  }
  return undefined;
}

/** HEAD's commit; undefined before the first commit. */
export async function readHead(repo: GitRepo): Promise<string | undefined> {
  const head = await text(join(repo.gitDir, 'HEAD'));
  if (head !== undefined && COMMIT.test(head)) return head;
  const ref = head?.startsWith('ref: refs/heads/') ? head.slice('ref: '.length) : undefined;
  if (ref === undefined || ref.includes('..') || ref === 'refs/heads/.invalid') return gitHead(repo.top);
  const loose = await text(join(repo.commonDir, ref));
  if (loose !== undefined) return COMMIT.test(loose) ? loose : gitHead(repo.top);
  return (await packedRef(repo, ref)) ?? gitHead(repo.top);
}
