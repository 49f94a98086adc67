// The handoff strategy's second half (issue 25): the new session the handoff document starts. Everything
// is written to the new file (model, thinking level, a name from the document's goal, the document as a
// visible custom message) before the chat is told to follow it, so the session the chat opens from disk
// is whole: never an "(empty session)" while the log says the handoff was done.
import { dirname } from 'node:path';
import { HANDOFF_CUSTOM_TYPE } from '../compaction';
import { summaryTitle } from '../core/summary-title';
import { SessionStore } from '../session/store';
import type { MaintainerHost } from './context-maintainer';

type HandoffHost = Pick<MaintainerHost, 'store' | 'model' | 'emit' | 'replaceStore' | 'createHandoffSession'>;

/** "Handoff: <goal>", or undefined for a document that states none. */
export function handoffSessionName(document: string): string | undefined {
  const goal = summaryTitle(document);
  return goal ? `Handoff: ${goal}` : undefined;
}

/** Writes the new session whole, makes it the host's, then tells the UI (which opens it from disk). */
export async function startHandoffSession(host: HandoffHost, document: string, content: string): Promise<SessionStore> {
  const previous = host.store();
  const next = host.createHandoffSession
    ? await host.createHandoffSession(previous)
    : await SessionStore.create({ dir: dirname(previous.file), cwd: previous.header.cwd, parentSession: previous.file });
  const thinkingLevel = previous.buildContext().thinkingLevel;
  await next.appendModelChange(host.model().provider, host.model().id);
  if (thinkingLevel !== 'off') await next.appendThinkingLevelChange(thinkingLevel);
  const name = handoffSessionName(document);
  if (name) await next.appendSessionInfo(name);
  await next.appendCustomMessage(HANDOFF_CUSTOM_TYPE, content, true);
  host.replaceStore(next);
  host.emit({ type: 'session_replaced', previousFile: previous.file, file: next.file });
  return next;
}
