// What an app action that may be refused returns: the value, or a typed refusal with the reason the user
// reads ("Nothing to fork: the session is empty."). A refusal is an expected answer, not an error: the
// chat shows it as a warning notice and a command as a warning message, and neither logs a stack. An
// exception that still escapes an action is a bug or a failure outside Arbor (disk, network) and is shown
// and logged as one (docs/architecture.md, "Refusals and errors").

/** Why an action was refused; each has its words in REFUSAL_MESSAGES unless the refusal brings its own. */
export type RefusalReason =
  | 'no-session'
  | 'unknown-entry'
  | 'unknown-compaction'
  | 'busy'
  | 'switch-running'
  | 'files-not-restored'
  | 'unknown-model'
  | 'unknown-thinking-level'
  | 'nothing-to-fork'
  | 'nothing-before-compaction'
  /** "Run this plan" with no plan to run (src/app/plan-ready.ts) */
  | 'no-plan'
  /** a pin: the message cannot be pinned, is off the current branch, or is already as asked */
  | 'not-pinnable'
  | 'off-path'
  | 'unchanged'
  /** a retry: the entry is not a reply, or there is nothing before it to ask again from */
  | 'not-a-reply'
  | 'nothing-to-retry'
  /** a slash command's compaction was skipped (its own words say why: nothing to compact, busy…) */
  | 'not-compacted';

export interface AppRefusal {
  readonly kind: 'refused';
  readonly reason: RefusalReason;
  /** what the user reads, complete */
  readonly message: string;
}

export interface AppDone<T> {
  readonly kind: 'done';
  readonly value: T;
}

export type AppOutcome<T = void> = AppDone<T> | AppRefusal;

const REFUSAL_MESSAGES: Record<RefusalReason, string> = {
  'no-session': 'No session is open.',
  'unknown-entry': 'Unknown entry: it is not in this session.',
  'unknown-compaction': 'That compaction is not in this session.',
  busy: 'Wait for the agent to finish (or stop it) first.',
  'switch-running': 'A branch switch is already running.',
  'files-not-restored': 'The files could not be restored.',
  'unknown-model': 'Unknown model.',
  'unknown-thinking-level': 'Unknown thinking level.',
  'nothing-to-fork': 'Nothing to fork: the session is empty.',
  'nothing-before-compaction': 'There is nothing before this compaction to continue from.',
  'not-pinnable': 'Only your messages and the assistant’s replies with text can be pinned.',
  'off-path': 'Only messages of the current branch can be pinned: switch to it first.',
  unchanged: 'Nothing to change.',
  'not-a-reply': 'That reply is not in this session.',
  'nothing-to-retry': 'There is nothing to retry from.',
  'not-compacted': 'Nothing to compact.',
  'no-plan': 'There is no plan to run: in Plan mode, ask the agent for a plan and let it finish first.',
};

export function refused(reason: RefusalReason, message: string = REFUSAL_MESSAGES[reason]): AppRefusal {
  return { kind: 'refused', reason, message };
}

/** The one refusal for an entry id the open session does not have (the chat, the commands, the tree). */
export function unknownEntry(entryId: string): AppRefusal {
  return refused('unknown-entry', `Unknown entry "${entryId}": it is not in this session.`);
}

export function done<T>(value: T): AppDone<T>;
export function done(): AppDone<void>;
export function done<T>(value?: T): AppDone<T | undefined> {
  return { kind: 'done', value };
}

/** An outcome's value mapped, a refusal passed on as it is. */
export function mapDone<T, U>(outcome: AppOutcome<T>, map: (value: T) => U): AppOutcome<U> {
  return outcome.kind === 'done' ? done(map(outcome.value)) : outcome;
}
