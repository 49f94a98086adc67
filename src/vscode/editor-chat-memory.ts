// Which sessions the editor chats show, kept in the workspace state as it changes. A restored tab gets the
// state its webview saved (chat-panels.ts), but the web workbench may have saved the editor layout before a
// new tab's webview saved anything (a tab opened shortly before a reload comes back without a state). Such
// a tab takes a remembered session that no chat shows and no other restored tab named.
import type * as vscode from 'vscode';

const KEY = 'arbor.editorChats';
/** how long a tab without a state lets the tabs restored with it name their sessions first */
const CLAIM_WAIT_MS = 200;

export class EditorChatMemory {
  private readonly claimed = new Set<string>();
  private closing = false;

  constructor(private readonly state: vscode.Memento) {}

  remembered(): string[] {
    const value = this.state.get<unknown>(KEY);
    return Array.isArray(value) ? value.filter((file): file is string => typeof file === 'string' && file !== '') : [];
  }

  /** The sessions the open editor chats show, oldest tab first (not while the window closes). */
  save(files: readonly string[]): void {
    if (this.closing) return;
    void Promise.resolve(this.state.update(KEY, [...files])).catch(() => undefined);
  }

  /** A restored tab named `file` in its state: no tab without a state takes it. */
  claim(file: string): void {
    this.claimed.add(file);
  }

  /** For a tab restored without a state: a remembered session no chat shows and no restored tab named. */
  async unclaimed(isOpen: (file: string) => boolean): Promise<string | undefined> {
    await new Promise((resolve) => setTimeout(resolve, CLAIM_WAIT_MS));
    const file = this.remembered().find((candidate) => !this.claimed.has(candidate) && !isOpen(candidate));
    if (file) this.claimed.add(file);
    return file;
  }

  /** The window closes: its tabs are disposed but come back after the reload, so they stay remembered. */
  shutdown(): void {
    this.closing = true;
  }
}
