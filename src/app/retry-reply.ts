// Retry (regenerate) on any reply, optionally with another model (docs/architecture.md, "Retry"). A failed
// reply is asked again from the entry before it, with no new message, so the work of its turn so far is kept.
// Any other reply is asked again from the user message that started its turn: the whole turn runs again. The
// earlier reply stays in the tree as an alternative (the chat's ‹ 1/2 › switcher shows it), so nothing is lost
// and a retry is an ordinary branch. With another model, the model change is recorded on the new branch.
import { done, refused, unknownEntry, type AppOutcome } from './app-outcome';
import type { AgentSession } from '../agent';
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';

/** What a retry needs of the app (ArborApp has it). */
export interface RetryApp {
  readonly currentStore: SessionStore | undefined;
  readonly currentAgent: AgentSession | undefined;
  readonly busy: boolean;
  /** the model new requests use (`currentKey`, as `provider/id`) and the switch to another */
  readonly models: { readonly currentKey: string; set(key: string): Promise<AppOutcome<unknown>> };
  readonly tree: { branchAt(entryId: string): Promise<AppOutcome> };
}

/** Done with the entry the retry started from; or why it was refused (told like any refusal). */
export type RetryOutcome = AppOutcome<{ from: string }>;

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
  if (!store) return refused('no-session');
  if (!entry) return unknownEntry(entryId);
  if (entry.type !== 'message' || entry.message.role !== 'assistant') return refused('not-a-reply');
  if (app.busy) return refused('busy', 'Arbor is still working: stop it or wait before retrying.');
  const from = retryPoint(store, entry);
  if (!from || !agent) return refused('nothing-to-retry');
  const branched = await app.tree.branchAt(from);
  if (branched.kind === 'refused') return branched;
  // another model is recorded on the new branch (a model change entry before the new reply); the same one is not
  if (options.model && options.model !== app.models.currentKey) {
    const changed = await app.models.set(options.model);
    if (changed.kind === 'refused') return changed;
  }
  await agent.retryFromLeaf();
  return done({ from });
}
