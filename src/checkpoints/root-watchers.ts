// One folder watcher per git root (tree-watcher.ts, docs/architecture.md "file checkpoints"): started
// after a root's first full `git status` (the work tree's top or a folder inside it), and only where the
// kernel queues events as they happen (Linux).
// Counts which scan each command got, for tests and the benchmark.
import type { GitRepo } from './git';
import { TreeWatcher, type WatchWindow, type WindowScan } from './tree-watcher';

export interface ScanCounts {
  /** the whole root (no watcher, or a window that could not be trusted) */
  full: number;
  /** only the paths the command touched */
  narrowed: number;
  /** no git call: the command touched nothing */
  untouched: number;
}

export class RootWatchers {
  private readonly byRoot = new Map<string, TreeWatcher>();
  private closed = false;
  readonly counts: ScanCounts = { full: 0, narrowed: 0, untouched: 0 };

  /** `storeDir`: the checkpoint store, never watched (its writes are Arbor's, should it lie in the workspace) */
  constructor(
    private readonly enabled: boolean,
    private readonly storeDir: string,
  ) {}

  /** Starts watching `root` (a real path inside `repo`'s work tree); once per root. */
  start(root: string, repo: GitRepo): void {
    if (!this.enabled || this.closed || process.platform !== 'linux' || this.byRoot.has(root)) return;
    this.byRoot.set(root, new TreeWatcher(repo, root, this.storeDir));
  }

  /** Opens a command's window on `root`; undefined when it is not watched. */
  async begin(root: string): Promise<WatchWindow | undefined> {
    return this.byRoot.get(root)?.begin();
  }

  /** What the scan after the command must cover (`full` without a window). */
  async end(root: string, window: WatchWindow | undefined): Promise<WindowScan> {
    const watcher = this.byRoot.get(root);
    const scan: WindowScan = watcher && window ? await watcher.end(window) : { kind: 'full' };
    if (scan.kind === 'full') this.counts.full++;
    else if (scan.pathspecs.length === 0) this.counts.untouched++;
    else this.counts.narrowed++;
    return scan;
  }

  /** Resolves once every watcher's current build is over. */
  async settled(): Promise<void> {
    await Promise.all([...this.byRoot.values()].map((w) => w.settled()));
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.byRoot.values()) watcher.close();
    this.byRoot.clear();
  }
}
