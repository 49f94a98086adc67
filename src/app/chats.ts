// Several chats open at once (the side bar and editor tabs), each an ArborApp with its own session and
// agent, built from the same deps and sharing what is the workspace's rather than a session's: the hook
// registries, the live tool list and the file checkpoints. One of them is focused (the chat the user last worked
// in): that is "the current session" for the commands, the Session Tree and the status bar. The side
// bar's chat is the primary one; it never closes, and the focus falls back to it.
import { ProjectInstructions } from '../agent/instructions/project-instructions';
import { toolRegistryWithSkills } from '../agent/instructions/skill-tool';
import { workspaceFromPaths } from '../agent/tools';
import { TreeNavigationHookRegistry } from '../branch';
import { CompactionHookRegistry } from '../compaction';
import { ArborApp } from './arbor-app';
import type { ArborAppDeps, Disposable } from './app-types';
import { chatPartsOf, type ChatParts } from './chat-parts';

export class ArborChats implements Disposable {
  /** the side bar's chat (and the only one a host without editor chats ever has) */
  readonly primary: ArborApp;
  private readonly deps: ArborAppDeps;
  private readonly others = new Set<ArborApp>();
  private focusedApp: ArborApp;
  private readonly focusListeners = new Set<(app: ArborApp) => void>();
  /** the focused chat's parts (session, models, tree, checkpoints), following the focus: what the commands use */
  readonly focusedParts: ChatParts = chatPartsOf(() => this.focused);

  constructor(deps: ArborAppDeps) {
    const log = (message: string) => deps.log?.warn(message);
    const instructions = deps.instructions ?? new ProjectInstructions({ workspace: workspaceFromPaths(deps.workspaceRoots), log });
    this.deps = {
      ...deps,
      instructions,
      tools: deps.tools ?? toolRegistryWithSkills(instructions),
      compactionHooks: deps.compactionHooks ?? new CompactionHookRegistry(log),
      navigationHooks: deps.navigationHooks ?? new TreeNavigationHookRegistry(log),
    };
    this.primary = new ArborApp(this.deps);
    this.focusedApp = this.primary;
  }

  /** The chat the user last worked in: what the commands, the Session Tree and the status bar act on. */
  get focused(): ArborApp {
    return this.focusedApp;
  }

  /** Every open chat, the primary first. */
  get all(): ArborApp[] {
    return [this.primary, ...this.others];
  }

  /** A new chat without a session yet (an editor tab), sharing the workspace's parts with the others. */
  open(): ArborApp {
    const app = new ArborApp({ ...this.deps, checkpoints: this.primary.checkpoints });
    this.others.add(app);
    return app;
  }

  /** Closes a chat (its tab was closed): its running turn stops; the focus falls back to the primary. */
  close(app: ArborApp): void {
    if (app === this.primary || !this.others.delete(app)) return;
    if (this.focusedApp === app) this.focus(this.primary);
    app.dispose();
  }

  focus(app: ArborApp): void {
    if (app === this.focusedApp || (app !== this.primary && !this.others.has(app))) return;
    this.focusedApp = app;
    for (const listener of [...this.focusListeners]) listener(app);
  }

  onDidChangeFocus(listener: (app: ArborApp) => void): Disposable {
    this.focusListeners.add(listener);
    return { dispose: () => this.focusListeners.delete(listener) };
  }

  /** The chat that has `file` open, if any: a session is open in one chat at a time. */
  holding(file: string): ArborApp | undefined {
    return this.all.find((app) => app.session.sessionView()?.file === file);
  }

  /** Applies the configuration to every chat (a settings or key change). */
  async applySettings(): Promise<void> {
    await Promise.all(this.all.map((app) => app.applySettings()));
  }

  dispose(): void {
    for (const app of this.others) app.dispose();
    this.others.clear();
    this.primary.dispose();
    this.focusListeners.clear();
  }
}
