// Which sessions the editor chats show, kept in the workspace state as it changes. A restored tab gets the
// state its webview saved (chat-panels.ts), but the web workbench may have saved the editor layout before a
// new tab's webview saved anything (a tab opened shortly before a reload comes back without a state). Such
// a tab takes a remembered session that no chat shows and no other restored tab named. The Conversation
// Tree tabs keep their own list the same way.
//
// What the last window remembered is read once, when this window starts: the tabs being restored save the
// list too (a restored tab is bound before its session is open), and VS Code revives a hidden tab only when
// it is shown, so a session stays remembered until a restored tab takes it. Sessions whose tabs the
// workbench did not restore at all are reopened in new tabs (`lost`).
import type * as vscode from 'vscode';

/** how long a tab without a state lets the tabs restored with it name their sessions first */
const CLAIM_WAIT_MS = 200;
/** at most this many sessions of the last window wait for their tabs (tabs closed unrevived never claim theirs) */
const MAX_WAITING = 20;

export class EditorChatMemory {
  /** sessions of the last window's tabs that no restored tab took yet, oldest tab first */
  private readonly waiting: string[];
  private closing = false;

  /** `key`: the chat tabs' list, or another kind of tab's (the Conversation Tree's, tree-tabs.ts) */
  constructor(
    private readonly state: vscode.Memento,
    private readonly key = 'arbor.editorChats',
  ) {
    this.waiting = this.remembered().slice(0, MAX_WAITING);
  }

  remembered(): string[] {
    const value = this.state.get<unknown>(this.key);
    return Array.isArray(value) ? value.filter((file): file is string => typeof file === 'string' && file !== '') : [];
  }

  /** The sessions the open editor chats show, oldest tab first, then those still waiting for their tabs (not while the window closes). */
  save(files: readonly string[]): void {
    if (this.closing) return;
    const waiting = this.waiting.filter((file) => !files.includes(file));
    void Promise.resolve(this.state.update(this.key, [...files, ...waiting])).catch(() => undefined);
  }

  /** A restored tab named `file` in its state: no tab without a state takes it. */
  claim(file: string): void {
    const index = this.waiting.indexOf(file);
    if (index >= 0) this.waiting.splice(index, 1);
  }

  /** For a tab restored without a state: a session of the last window no chat shows and no restored tab named. */
  async unclaimed(isOpen: (file: string) => boolean): Promise<string | undefined> {
    await new Promise((resolve) => setTimeout(resolve, CLAIM_WAIT_MS));
    const file = this.waiting.find((candidate) => !isOpen(candidate));
    if (file) this.claim(file);
    return file;
  }

  /**
   * The sessions of the last window's tabs that did not come back: the web workbench may restore an editor
   * layout saved before the newest tabs opened, so beyond the `tabs` chat tabs it restored, the newest
   * remembered sessions have no tab. They are taken (no restored tab gets them).
   */
  lost(tabs: number): string[] {
    const lost = this.waiting.slice(Math.max(0, tabs));
    for (const file of lost) this.claim(file);
    return lost;
  }

  /** The window closes: its tabs are disposed but come back after the reload, so they stay remembered. */
  shutdown(): void {
    this.closing = true;
  }
}
