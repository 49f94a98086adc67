// The session's approval mode (src/core/approval-modes.ts): it applies at once, to the next tool call and
// the next request's tool list, and is written to the session as an `arbor.approvalMode` custom entry so
// reopening the session restores it. Written when nothing runs (between requests while a turn runs, like
// model changes: an entry never lands between a reply and its tool results), and only once the session
// has an entry: a mode picked in an empty chat is written before its first message.
import { recordedApprovalMode, APPROVAL_MODE_CUSTOM_TYPE, type ApprovalMode } from '../core/approval-modes';
import type { SessionStore } from '../session/store';
import type { AgentEvent } from './events';

export interface ApprovalModeHost {
  store(): SessionStore;
  busy(): boolean;
  emit(event: AgentEvent): void;
}

export class SessionApprovalMode {
  private current: ApprovalMode;
  /** the mode the store at hand records (cached per store: a handoff moves to a new one) */
  private saved: { store: SessionStore; mode: ApprovalMode } | undefined;

  constructor(
    private readonly host: ApprovalModeHost,
    fallback: ApprovalMode = 'ask',
  ) {
    this.current = recordedApprovalMode(host.store().getEntries()) ?? fallback;
  }

  get mode(): ApprovalMode {
    return this.current;
  }

  /** The user picked a mode: it applies now; written now when nothing runs, else between requests. */
  async set(mode: ApprovalMode): Promise<void> {
    if (mode === this.current) return;
    this.current = mode;
    this.host.emit({ type: 'approval_mode_changed', mode });
    if (!this.host.busy()) await this.apply();
  }

  /** Writes the mode when the session records another one (or none, and the mode is not Ask). */
  async apply(): Promise<void> {
    const store = this.host.store();
    if (store.getEntries().length === 0) return;
    if (this.savedMode(store) === this.current) return;
    const mode = this.current;
    await store.appendCustomEntry(APPROVAL_MODE_CUSTOM_TYPE, { mode });
    this.saved = { store, mode };
  }

  private savedMode(store: SessionStore): ApprovalMode {
    if (this.saved?.store !== store) this.saved = { store, mode: recordedApprovalMode(store.getEntries()) ?? 'ask' };
    return this.saved.mode;
  }
}
