// What a brand-new session looks like before anything is written: pi's file name and a version 3 header.
// Its own module because the store and branch sessions (branch-session.ts) both start sessions this way.
import { CURRENT_SESSION_VERSION, type SessionHeader } from './entries';
import { generateSessionId } from './ids';

/** pi's session file name: `<ISO timestamp with : and . → ->_<session id>.jsonl`. */
export function sessionFileName(timestamp: string, id: string): string {
  return `${timestamp.replace(/[:.]/g, '-')}_${id}.jsonl`;
}

/** The header of a new session (version 3, a fresh id unless given, now, `cwd`, `parentSession` when given). */
export function newSessionHeader(options: { cwd: string; id?: string; parentSession?: string }): SessionHeader {
  const header: SessionHeader = { type: 'session', version: CURRENT_SESSION_VERSION, id: options.id ?? generateSessionId(), timestamp: new Date().toISOString(), cwd: options.cwd };
  if (options.parentSession !== undefined) header.parentSession = options.parentSession;
  return header;
}
