// Which paths a `bash` command touched, from the kernel (docs/architecture.md, "file checkpoints"). The
// scan after a command runs `git status`, which stats every tracked file: 20,000 stats in a 20,000-file
// repository, whatever the command did. With a watch on every folder git does not ignore (one inotify
// watch each, not recursive), the scan asks git about the touched paths only: git still compares them with
// the index and lists what is untracked below them, the watcher only narrows where it looks.
// A window (one command) is trusted only when nothing could have been missed:
//  - the watcher was complete (built, nothing unwatched appeared) before the command started;
//  - no watch failed, and the command caused at most MAX_WINDOW_EVENTS events (a flood could overflow
//    the kernel's queue, whose overflow Node does not report);
//  - nothing changed git's own ignore file (.git/info/exclude).
// Otherwise the scan is the full `git status`, as without a watcher. New folders are covered in the
// window that made them (a pathspec takes everything below it) and watched from the next rebuild on; a
// watch is added before its folder is listed, so a folder made meanwhile shows as an event. Linux only:
// inotify queues an event while the writing call runs, so one turn of the event loop after the command
// has them all; macOS and Windows deliver later and keep the full scan.
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { runGit, type GitRepo } from './git';

/** More folders are not watched: inotify watches are a per-user budget shared with the editor's own watcher. */
export const MAX_WATCHED_FOLDERS = 5000;
/** More events in one window make it untrusted (and rebuild the watcher: a lost event may have been a new folder). */
export const MAX_WINDOW_EVENTS = 2048;
/** git matches every index entry against every pathspec: more paths are narrowed to their folders, more folders scan it all. */
export const MAX_PATHSPECS = 16;

/** More paths changed between two commands are not read before the next one (see WatchWindow.outside). */
export const MAX_OUTSIDE_PATHS = 64;

/** A command's window, opened before it runs. */
export interface WatchWindow {
  readonly generation: number;
  readonly ready: boolean;
  /**
   * Paths changed since the last window, outside any command (the user's editor, a build): read before
   * the command, so a file the command then changes again keeps the outside content as its state before
   * (without them it would be taken for HEAD's). Empty when there were more than MAX_OUTSIDE_PATHS.
   */
  readonly outside: readonly string[];
}

/** `paths`: git pathspecs (`:(literal)` paths relative to the top) covering every change; empty: nothing was touched. */
export type WindowScan = { kind: 'paths'; pathspecs: string[] } | { kind: 'full' };

type WatcherState = 'building' | 'ready' | 'broken' | 'closed';

/** Lets the event loop read every inotify event already queued (an immediate, a poll, an immediate). */
export function drainEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

export class TreeWatcher {
  /** watched folder → its watch and the inode it was added on (a folder removed and made again is another) */
  private readonly watchers = new Map<string, { watch: FSWatcher; ino: bigint }>();
  private ignored = new Set<string>();
  private touched = new Set<string>();
  /**
   * Folders whose watch may be gone: the kernel drops a watch when its folder is removed, and a folder
   * made again may get the same inode, so only the removal's own event (named like the folder) tells.
   */
  private suspect = new Set<string>();
  private events = 0;
  private generation = 0;
  private state: WatcherState = 'building';
  private building: Promise<void> = Promise.resolve();
  private checking: Promise<void> = Promise.resolve();

  /**
   * `root`: the folder watched with everything below it (the work tree's top or a folder inside it; git
   * runs there, so pathspecs are relative to it); `skip`: a folder never watched, nor anything below it
   * (the checkpoint store)
   */
  constructor(
    private readonly repo: GitRepo,
    private readonly root: string,
    private readonly skip: string,
  ) {
    this.rebuild();
  }

  /** set by an event in a rule folder: an ignore rule may have changed, so a folder nobody watches may count now */
  private rulesEdited = false;

  /** git's own ignore file lives here (info/exclude) */
  private get infoDir(): string {
    return join(this.repo.commonDir, 'info');
  }

  /** Folders watched for their ignore rules only: git's info folder and, for a root below the top, the folders above it. */
  private ruleFolders(): string[] {
    const out = [this.infoDir];
    for (let at = dirname(this.root); at.length >= this.repo.top.length && at !== dirname(at); at = dirname(at)) out.push(at);
    return out;
  }

  /** Resolves once the current build is over (tests and benchmarks wait for a steady state). */
  async settled(): Promise<void> {
    await this.checking;
    await this.building;
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Opens a command's window; what changed since the last window (outside edits) may call for a rebuild first. */
  async begin(): Promise<WatchWindow> {
    await drainEvents();
    const outside = this.take();
    if (outside.overflow || outside.rulesEdited) this.rebuild();
    else {
      // A watcher still building cannot trust this window anyway: its check need not hold the command up.
      const ready = this.state === 'ready';
      this.checking = this.checkStructure(outside.paths);
      if (ready) await this.checking;
    }
    const paths = [...outside.paths];
    return { generation: this.generation, ready: this.state === 'ready', outside: outside.overflow || paths.length > MAX_OUTSIDE_PATHS ? [] : paths };
  }

  /** Closes the window: the paths to ask git about, or `full` when the window cannot be trusted. */
  async end(window: WatchWindow): Promise<WindowScan> {
    await drainEvents();
    const taken = this.take();
    if (taken.overflow || taken.rulesEdited) this.rebuild();
    const trusted = window.ready && window.generation === this.generation && this.state === 'ready';
    if (!taken.overflow) this.checking = this.checkStructure(taken.paths);
    if (!trusted) return { kind: 'full' };
    const pathspecs = pathspecsFor(this.root, taken.paths);
    return pathspecs ? { kind: 'paths', pathspecs } : { kind: 'full' };
  }

  close(): void {
    this.state = 'closed';
    for (const folder of [...this.watchers.keys()]) this.unwatch(folder);
  }

  private take(): { paths: Set<string>; overflow: boolean; rulesEdited: boolean } {
    const taken = { paths: this.touched, overflow: this.events > MAX_WINDOW_EVENTS, rulesEdited: this.rulesEdited };
    this.touched = new Set();
    this.events = 0;
    this.rulesEdited = false;
    return taken;
  }

  private onEvent(folder: string, name: Buffer | null, rulesOnly: boolean): void {
    if (rulesOnly) {
      if (folder === this.infoDir || name === null || name.toString('utf8') === '.gitignore') this.rulesEdited = true;
      return;
    }
    this.events++;
    if (this.touched.size >= MAX_WINDOW_EVENTS) return;
    // A name that is not valid UTF-8 cannot be passed to git as text: its folder covers it.
    const text = name?.toString('utf8');
    if (text === basename(folder)) this.suspect.add(folder);
    this.touched.add(text !== undefined && Buffer.from(text, 'utf8').equals(name!) ? join(folder, text) : folder);
  }

  /**
   * Rebuilds when a touched path is a folder nobody watches (made or moved in), a watched folder's own
   * entry (removed, moved, or made again: a new folder may get the old inode, and its removal event may
   * be named after another path watching that inode) or an ignore file.
   */
  private async checkStructure(paths: Set<string>): Promise<void> {
    // Paths touched while a build ran are checked once it is over (it may have listed their folder before).
    while (this.state === 'building') await this.building;
    if (this.state !== 'ready') return;
    if (this.suspect.size > 0) return this.rebuild();
    for (const p of paths) {
      if (basename(p) === '.gitignore') return this.rebuild();
      if (this.watchers.has(p)) {
        this.suspect.add(p);
        return this.rebuild();
      }
      if (this.isIgnored(p)) continue;
      if (await isFolder(p)) return this.rebuild();
    }
  }

  private unwatch(folder: string): void {
    this.watchers.get(folder)?.watch.close();
    this.watchers.delete(folder);
  }

  private isIgnored(p: string): boolean {
    for (let at = p; at.length > this.root.length; at = at.slice(0, at.lastIndexOf('/'))) if (this.ignored.has(at)) return true;
    return false;
  }

  private rebuild(): void {
    if (this.state === 'closed' || this.state === 'broken') return;
    this.generation++;
    this.state = 'building';
    const generation = this.generation;
    this.building = this.building.then(async () => {
      const ok = await this.build().catch(() => false);
      if (this.state === 'closed' || generation !== this.generation) return;
      if (ok) this.state = 'ready';
      else this.fail();
    });
  }

  private fail(): void {
    if (this.state === 'closed') return;
    this.close();
    this.state = 'broken';
  }

  private async build(): Promise<boolean> {
    const layout = await ignoredLayout(this.root);
    if (!layout) return false;
    this.ignored = layout.ignored;
    await this.dropStale();
    const listed = new Set<string>();
    for (const folder of this.ruleFolders()) {
      if ((await isFolder(folder)) && (await this.watchFolder(folder, true)) === 'watched') listed.add(folder);
    }
    const stack = [this.root];
    while (stack.length > 0) {
      const folder = stack.pop()!;
      if (listed.size >= MAX_WATCHED_FOLDERS || this.state === 'closed') return false;
      const watched = await this.watchFolder(folder, false);
      if (watched === 'failed') return false;
      if (watched === 'gone') continue;
      listed.add(folder);
      stack.push(...(await this.subfolders(folder, layout)));
    }
    for (const folder of [...this.watchers.keys()]) if (!listed.has(folder)) this.unwatch(folder);
    return true;
  }

  /**
   * Closes the watches of folders removed, moved or replaced, before anything is watched anew: a watch
   * added on an inode that is still watched under its old path would share that watch, whose events the
   * runtime then names after the old path (a removal would no longer read as the folder's own).
   */
  private async dropStale(): Promise<void> {
    for (const folder of this.suspect) this.unwatch(folder);
    this.suspect.clear();
    for (const [folder, { ino }] of [...this.watchers]) {
      const info = await lstat(folder, { bigint: true }).catch(() => undefined);
      if (!info?.isDirectory() || info.ino !== ino) this.unwatch(folder);
    }
  }

  /** The subfolders to watch: not ignored (unless holding tracked files), not .git, not another repository. */
  private async subfolders(folder: string, layout: IgnoredLayout): Promise<string[]> {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    const insideIgnored = this.isIgnored(folder);
    const out: string[] = [];
    for (const entry of entries) {
      const child = join(folder, entry.name);
      if (!entry.isDirectory() || entry.name === '.git' || child === this.skip) continue;
      if (insideIgnored || layout.ignored.has(child)) {
        if (layout.holdsTracked.has(child)) out.push(child);
      } else if (!(await lstat(join(child, '.git')).then(() => true, () => false))) out.push(child);
    }
    return out;
  }

  /**
   * Watches a folder (anew when it was removed and made again since). `gone`: it no longer exists (its
   * parent's event covers that); `failed`: no watch could be added (no watches left). The inode is read
   * after the watch is added, so a folder swapped in between shows as an event of its parent.
   */
  private async watchFolder(folder: string, rulesOnly: boolean): Promise<'watched' | 'gone' | 'failed'> {
    const known = this.watchers.get(folder);
    if (known) {
      const info = await lstat(folder, { bigint: true }).catch(() => undefined);
      if (info?.ino === known.ino) return 'watched';
      this.unwatch(folder);
    }
    let w: FSWatcher;
    try {
      w = watch(folder, { persistent: false, encoding: 'buffer' }, (_type, name) => this.onEvent(folder, name as Buffer | null, rulesOnly));
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'gone' : 'failed';
    }
    w.on('error', () => this.fail());
    const info = await lstat(folder, { bigint: true }).catch(() => undefined);
    if (!info?.isDirectory()) {
      w.close();
      return 'gone';
    }
    this.watchers.set(folder, { watch: w, ino: info.ino });
    return 'watched';
  }

}

interface IgnoredLayout {
  /** absolute folders git ignores as a whole */
  ignored: Set<string>;
  /** absolute folders on the way to a tracked file that an ignore rule matches (their changes still count) */
  holdsTracked: Set<string>;
}

/** What git ignores below `root` (ls-files lists paths relative to the folder it runs in). */
async function ignoredLayout(root: string): Promise<IgnoredLayout | undefined> {
  const [folders, tracked] = await Promise.all([
    runGit(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']),
    runGit(root, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard']),
  ]);
  if (folders.code !== 0 || tracked.code !== 0) return undefined;
  const ignored = new Set(records(folders.stdout).filter((p) => p.endsWith('/')).map((p) => join(root, p)));
  const holdsTracked = new Set<string>();
  for (const file of records(tracked.stdout)) {
    for (let at = file.lastIndexOf('/'); at > 0; at = file.lastIndexOf('/', at - 1)) holdsTracked.add(join(root, file.slice(0, at)));
  }
  return { ignored, holdsTracked };
}

function records(stdout: Buffer): string[] {
  return stdout.toString('utf8').split('\0').filter((r) => r !== '');
}

function isFolder(p: string): Promise<boolean> {
  return lstat(p).then((info) => info.isDirectory(), () => false);
}

/**
 * Pathspecs covering `paths` (absolute): the paths themselves, or their folders when there are many;
 * undefined (scan everything) when even the folders are too many or a path is the top folder itself.
 * An ignore file stands for its whole folder: a rule it dropped shows files the command may have made
 * in a folder nobody watched.
 */
export function pathspecsFor(top: string, paths: Iterable<string>): string[] | undefined {
  const rels = new Set<string>();
  for (const p of paths) {
    const rel = relative(top, basename(p) === '.gitignore' ? dirname(p) : p);
    if (rel === '' || rel.startsWith('..')) return undefined;
    rels.add(rel);
  }
  let chosen = [...rels];
  if (chosen.length > MAX_PATHSPECS) {
    const folders = new Set(chosen.map((rel) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '')));
    if (folders.has('') || folders.size > MAX_PATHSPECS) return undefined;
    chosen = [...folders];
  }
  return chosen.sort().map((rel) => `:(literal)${rel}`);
}
