// A private copy of the user's git index for the `bash` capture scans (docs/architecture.md, "file
// checkpoints"). On the user's index `git status` runs read-only (it must never take the user's index
// lock), so it forgets what it learned and every scan reads every folder again to find untracked files:
// half the cost of a scan in a large tree. On a copy in the checkpoint store git may write what it
// learned: refreshed stat data and the untracked cache (a folder whose mtime did not change is not read
// again). Nothing is written into the user's repository or its config.
//  - The copy is taken from the user's index at a root's first full scan in this process (so staged
//    files count as they do in the user's `git status`).
//  - When HEAD moves, the copy follows it (`git read-tree --reset`, which keeps the stat data and the
//    untracked cache) in the background; until then files the commits changed are listed too, which
//    only makes the list longer, never shorter.
//  - The copy keeps the user index's modification time (to the second, never later): git trusts an entry's
//    stat data only for files older than the index, so a copy stamped later would take a file changed at
//    its size in the second the index was written for clean ("racy git").
//  - A copy git cannot read is dropped and the scan runs on the user's index, as before.
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { gitStatus, runGit, type GitRepo, type GitStatus } from './git';

/** A lock on the private index older than this was left by a git that died: no status runs this long. */
const STALE_LOCK_MS = 60_000;

interface PrivateIndex {
  file: string;
  /** the HEAD the copy was last aligned with (undefined: as the user's index had it) */
  head: string | undefined;
  /** the running `read-tree` that aligns it, if any */
  following: Promise<unknown>;
}

export class GitScanIndexes {
  private readonly byRoot = new Map<string, PrivateIndex>();

  /** `storeDir`: the checkpoint store (one per workspace) */
  constructor(private readonly storeDir: string) {}

  /**
   * `git status` of the root at `dir`; `fresh`: a first full scan, which takes a new copy of the user's
   * index; `pathspecs`: only these paths (a watched root, tree-watcher.ts). Falls back to the user's index
   * (read only, the whole root) when no copy can be made or read.
   */
  async status(dir: string, repo: GitRepo, fresh: boolean, pathspecs?: readonly string[]): Promise<GitStatus | undefined> {
    const index = fresh || !this.byRoot.has(dir) ? await this.copy(dir, repo) : this.byRoot.get(dir);
    if (index) {
      await index.following;
      const status = await gitStatus(dir, { file: index.file, wholeTree: dir === repo.top, pathspecs });
      if (status) {
        this.follow(index, repo, status.head);
        return status;
      }
      this.byRoot.delete(dir);
      await unlink(index.file).catch(() => undefined);
    }
    return gitStatus(dir);
  }

  private fileOf(dir: string): string {
    return join(this.storeDir, 'git-index', createHash('sha256').update(dir).digest('hex').slice(0, 16));
  }

  /** A fresh copy of the user's index (temp + rename, so a git reading the old copy is undisturbed). */
  private async copy(dir: string, repo: GitRepo): Promise<PrivateIndex | undefined> {
    const file = this.fileOf(dir);
    const temp = `${file}.tmp-${randomBytes(4).toString('hex')}`;
    try {
      await mkdir(join(this.storeDir, 'git-index'), { recursive: true });
      await removeStaleLock(`${file}.lock`);
      const original = join(repo.gitDir, 'index');
      // stat before the copy: should git rewrite the index in between, the copy is only older (safe)
      const { mtimeMs } = await stat(original);
      await copyFile(original, temp);
      await utimes(temp, new Date(), Math.floor(mtimeMs / 1000));
      await rename(temp, file);
    } catch {
      await unlink(temp).catch(() => undefined);
      this.byRoot.delete(dir);
      return undefined;
    }
    const index: PrivateIndex = { file, head: undefined, following: Promise.resolve() };
    this.byRoot.set(dir, index);
    return index;
  }

  /** Aligns the copy with a HEAD that moved since the last scan, without waiting for it. */
  private follow(index: PrivateIndex, repo: GitRepo, head: string | undefined): void {
    const previous = index.head;
    index.head = head;
    if (previous === undefined || head === undefined || previous === head) return;
    index.following = runGit(repo.top, ['-c', 'core.splitIndex=false', 'read-tree', '--reset', head], undefined, index.file);
  }
}

async function removeStaleLock(lock: string): Promise<void> {
  const info = await stat(lock).catch(() => undefined);
  if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
}
