// Retry (regenerate) on any reply, optionally with another model (docs/architecture.md, "Retry"). A failed
// reply is asked again from the entry before it, with no new message, so the work of its turn so far is kept.
// Any other reply is asked again from the user message that started its turn: the whole turn runs again. The
// earlier reply stays in the tree as an alternative (the chat's ‹ 1/2 › switcher shows it), so nothing is lost
// and a retry is an ordinary branch. With another model, the model change is recorded on the new branch.
import type { AppOutcome } from './app-outcome';
import type { AgentSession } from '../agent';
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';

/** What a retry needs of the app (ArborApp has it). */
export interface RetryApp {
  readonly currentStore: SessionStore | undefined;
  readonly currentAgent: AgentSession | undefined;
  readonly busy: boolean;
  /** the model new requests use, as `provider/id` */
  readonly currentModelKey: string;
  readonly tree: { branchAt(entryId: string): Promise<AppOutcome> };
  setModel(key: string): Promise<AppOutcome<unknown>>;
}

export type RetryOutcome = { kind: 'retried'; from: string } | { kind: 'refused'; message: string };

/** The user message that started the turn `entry` belongs to (walking up its path), or undefined. */
function turnStart(store: SessionStore, entry: SessionEntry): string | undefined {
  for (let at: SessionEntry | undefined = entry; at; at = at.parentId ? store.getEntry(at.parentId) : undefined) {
    if (at.type === 'message' && at.message.role === 'user') return at.id;
  }
  return undefined;
}

/** Where a retry of `entry` starts: before a failed reply, else at its turn's user message. */
function retryPoint(store: SessionStore, entry: SessionEntry & { type: 'message' }): string | undefined {
  if (entry.message.role === 'assistant' && entry.message.stopReason === 'error') return entry.parentId ?? undefined;
  return turnStart(store, entry);
}

/** Asks the model again in place of the reply `entryId` (with `model`, as "provider/id", when given). */
export async function retryReply(app: RetryApp, entryId: string, options: { model?: string } = {}): Promise<RetryOutcome> {
  const store = app.currentStore;
  const entry = store?.getEntry(entryId);
  const agent = app.currentAgent;
  if (!store || !entry || entry.type !== 'message' || entry.message.role !== 'assistant') return { kind: 'refused', message: 'That reply is not in this session.' };
  if (app.busy) return { kind: 'refused', message: 'Arbor is still working: stop it or wait before retrying.' };
  const from = retryPoint(store, entry);
  if (!from || !agent) return { kind: 'refused', message: 'There is nothing to retry from.' };
  const branched = await app.tree.branchAt(from);
  if (branched.kind === 'refused') return branched;
  // another model is recorded on the new branch (a model change entry before the new reply); the same one is not
  if (options.model && options.model !== app.currentModelKey) {
    const changed = await app.setModel(options.model);
    if (changed.kind === 'refused') return changed;
  }
  await agent.retryFromLeaf();
  return { kind: 'retried', from };
}
