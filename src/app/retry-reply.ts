// Retry on a failed turn: the leaf goes back to the entry before the failed reply and the model is asked
// again from there, with no new message. The failed reply stays in the tree as an alternative (the chat's
// branch switcher shows it), so nothing is lost and the retry is an ordinary branch.
import type { AgentSession } from '../agent';
import type { SessionStore } from '../session/store';

/** What a retry needs of the app (ArborApp has it). */
export interface RetryApp {
  readonly currentStore: SessionStore | undefined;
  readonly currentAgent: AgentSession | undefined;
  branchAt(entryId: string): Promise<void>;
}

export type RetryOutcome = { kind: 'retried' } | { kind: 'refused'; message: string };

/** Asks the model again in place of the failed reply `entryId`; refused when it is not a failed reply. */
export async function retryReply(app: RetryApp, entryId: string): Promise<RetryOutcome> {
  const entry = app.currentStore?.getEntry(entryId);
  const agent = app.currentAgent;
  if (!entry || entry.type !== 'message' || entry.message.role !== 'assistant') return { kind: 'refused', message: 'That reply is not in this session.' };
  if (entry.message.stopReason !== 'error') return { kind: 'refused', message: 'Only a failed reply can be retried.' };
  if (!entry.parentId || !agent) return { kind: 'refused', message: 'There is nothing to retry from.' };
  await app.branchAt(entry.parentId);
  await agent.retryFromLeaf();
  return { kind: 'retried' };
}
