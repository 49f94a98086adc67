// One file-write policy for every writer (docs/reliability.md, threat model, "one rule for every
// writer"): the tools' write/edit, a restore (branch switch, Restore Files Only), the recovery of a cut
// restore at start, and export. For a path it answers: is it inside the workspace, which protected rule
// does it fall under (the names of protected-paths.ts, for the path as written and for its real path;
// the targets of protected symbolic links, protected-links.ts; Arbor's own folders; the folders git decides, git-folders.ts), and how many hard links does the file
// have. What a writer does with the answer is its own: the tools ask, a restore lists the file apart
// and unticked, recovery leaves it alone, export asks. Make one instance per operation (a tool call, a
// restore plan): it caches what it looked up, and the hooks folder may change between operations.
import { relative } from 'node:path';
import { GitFolders, PlannedFiles } from './git-folders';
import { protectedLinkTargets, type ProtectedTarget } from './protected-links';
import { protectedPathMatch, type ProtectedMatch } from './protected-paths';
import { hardLinkCount, isInside, realpathDeep, workspaceRootInfos, type RootInfo } from './paths';
import type { WorkspaceRoots } from './types';

export type { ProtectedMatch } from './protected-paths';

export interface WritePolicyOptions {
  /** more absolute folders whose files are protected (Arbor's sessions folder) */
  protectedDirectories?: readonly string[];
  /**
   * real paths of every file the operation writes (a restore plan's): files that together would make a
   * folder git takes for a git folder (HEAD, objects/, refs/) are protected before any of them exists.
   * The judged path itself always counts.
   */
  planned?: readonly string[];
}

export interface WriteVerdict {
  /** the real path (symbolic links resolved, also through missing tails) */
  real: string;
  /** false: outside every workspace folder (the tools and a restore refuse it) */
  inside: boolean;
  /** the protected rule the path falls under; undefined for an ordinary file */
  protected?: ProtectedMatch;
  /** links of an existing regular file (1 for a new file): writing through one changes the others */
  hardLinks: number;
}

export class WritePolicy {
  private readonly git = new GitFolders();
  private readonly planned: PlannedFiles;
  private roots: Promise<readonly RootInfo[]> | undefined;
  private own: Promise<string[]> | undefined;
  private linkTargets: Promise<ProtectedTarget[]> | undefined;

  constructor(
    private readonly workspace: WorkspaceRoots,
    private readonly options: WritePolicyOptions = {},
  ) {
    this.planned = new PlannedFiles(options.planned ?? []);
  }

  /** Everything a writer must know before writing `absolute`; `asWritten`: the path as the caller got it. Throws only when the path cannot be examined. */
  async judge(absolute: string, asWritten?: string): Promise<WriteVerdict> {
    const real = await realpathDeep(absolute);
    const inside = (await this.rootsOf()).some((root) => isInside(root.real, real));
    const match = await this.protectedMatchOfReal(real, asWritten);
    return { real, inside, ...(match ? { protected: match } : {}), hardLinks: await hardLinkCount(real) };
  }

  /**
   * The protected rule `absolute` falls under (as written, or as its real path), or undefined.
   * `isReal`: the caller already resolved every symbolic link of `absolute` (a restore plan has).
   */
  async protectedMatch(absolute: string, asWritten?: string, isReal = false): Promise<ProtectedMatch | undefined> {
    return this.protectedMatchOfReal(isReal ? absolute : await realpathDeep(absolute), asWritten);
  }

  private async protectedMatchOfReal(real: string, asWritten: string | undefined): Promise<ProtectedMatch | undefined> {
    const spelled = asWritten === undefined ? undefined : protectedPathMatch(asWritten);
    return spelled ?? (await this.ownMatch(real)) ?? (await this.rootMatch(real)) ?? (await this.linkTargetMatch(real)) ?? (await this.gitMatch(real));
  }

  /** The real target of a protected symbolic link (`AGENTS.md -> docs/guide.md`) is the protected file. */
  private async linkTargetMatch(real: string): Promise<ProtectedMatch | undefined> {
    this.linkTargets ??= this.rootsOf().then((roots) => protectedLinkTargets(roots.map((r) => r.real)));
    const target = (await this.linkTargets).find((t) => isInside(t.real, real));
    return target ? { kind: target.match.kind, rule: `${target.match.rule} (the target of the symbolic link ${target.link})` } : undefined;
  }

  private async ownMatch(real: string): Promise<ProtectedMatch | undefined> {
    this.own ??= Promise.all((this.options.protectedDirectories ?? []).filter((d) => d).map((d) => realpathDeep(d)));
    return (await this.own).some((directory) => isInside(directory, real)) ? { kind: 'agent', rule: "Arbor's sessions directory" } : undefined;
  }

  /** Judged against every workspace folder that contains the path: a folder may itself be `.vscode` (a `.code-workspace` can list it). */
  private async rootMatch(real: string): Promise<ProtectedMatch | undefined> {
    for (const root of await this.rootsOf()) {
      const match = isInside(root.real, real) ? protectedPathMatch(relative(root.real, real)) : undefined;
      if (match) return match;
    }
    return undefined;
  }

  private async gitMatch(real: string): Promise<ProtectedMatch | undefined> {
    const folder = (await this.git.above(real)).find((f) => isInside(f.dir, real));
    if (folder) return { kind: 'git', rule: folder.rule };
    const made = await this.git.madeBy(this.planned.with(real), real);
    return made ? { kind: 'git', rule: `a git folder these writes would make (${made})` } : undefined;
  }

  private rootsOf(): Promise<readonly RootInfo[]> {
    return (this.roots ??= workspaceRootInfos(this.workspace));
  }
}
