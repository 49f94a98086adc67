// The chat's inline notices as a small pure model, so their rules are unit-tested without a DOM: notices
// belong to the session they were raised in (another session starts with none), a progress notice (a
// compaction running, a retry waiting) sits in a slot and is replaced by the next one or by its result,
// a notice already shown is not shown a second time, and a finished thing's result ("Conversation
// compacted.") goes when the next turn starts (it stayed at the bottom of the chat for good, issue #28).

import type { AgentUiEvent, ErrorAction } from '../src/protocol';
import { t } from './l10n';

export type NoticeLevel = 'info' | 'warning' | 'error';

/** A notice that stands for something still going on; the next notice in the same slot replaces it. */
export type NoticeSlot = 'compaction' | 'retry';

/** What a notice offers beside dismissing it: an error's fix (the host's choice) or Continue after a cut-off reply. */
export type NoticeAction = ErrorAction | { kind: 'continueReply' };

export interface InlineNotice {
  id: number;
  level: NoticeLevel;
  text: string;
  slot?: NoticeSlot;
  actions?: readonly NoticeAction[];
  /** a result the conversation itself now shows (its marker): it goes when the next turn starts */
  untilNextTurn?: boolean;
}

export type NoticeInput = Omit<InlineNotice, 'id'>;

const MAX_NOTICES = 20;

export class NoticeBoard {
  private list: InlineNotice[] = [];
  private nextId = 1;
  /** the session the notices were raised in; undefined until the first state arrives */
  private session: string | null | undefined;

  get notices(): readonly InlineNotice[] {
    return this.list;
  }

  /** Adds a notice (replacing its slot's notice); false when an identical one is already shown. */
  add(input: NoticeInput): boolean {
    if (!input.slot && this.list.some((n) => !n.slot && n.level === input.level && n.text === input.text)) return false;
    if (input.slot) this.list = this.list.filter((n) => n.slot !== input.slot);
    this.list.push({ id: this.nextId++, ...input });
    if (this.list.length > MAX_NOTICES) this.list.shift();
    return true;
  }

  /** Ends a progress notice: its slot's notice goes; `result`, if given, takes its place. */
  settle(slot: NoticeSlot, result?: Omit<NoticeInput, 'slot'>): void {
    this.list = this.list.filter((n) => n.slot !== slot);
    if (result) this.add(result);
  }

  /** A turn starts: results told until then go. Returns whether any went. */
  nextTurn(): boolean {
    const kept = this.list.filter((n) => !n.untilNextTurn);
    const changed = kept.length !== this.list.length;
    this.list = kept;
    return changed;
  }

  dismiss(id: number): void {
    this.list = this.list.filter((n) => n.id !== id);
  }

  /** Notices follow their session: when another one is shown they go. Returns whether it is another one. */
  enterSession(session: string | null): boolean {
    const switched = this.session !== undefined && this.session !== session;
    this.session = session;
    if (switched) this.list = [];
    return switched;
  }
}

export type NoticeEvent = Extract<AgentUiEvent, { type: 'busy' | 'idle' | 'error' | 'retry' | 'compaction_start' | 'compaction_end' | 'notice' }>;

/** Puts what an agent event has to say on the board: progress in its slot, a result in its place. */
export function eventNotice(board: NoticeBoard, event: NoticeEvent): void {
  switch (event.type) {
    case 'busy':
      board.nextTurn();
      return;
    case 'idle':
      // a retry still announced is over: the turn ended with a reply or with an error notice
      board.settle('retry');
      return;
    case 'error':
      board.settle('retry');
      board.add({ level: 'error', text: event.message, ...(event.actions?.length ? { actions: event.actions } : {}) });
      return;
    case 'retry':
      board.add({ level: 'warning', slot: 'retry', text: t('Retrying ({0}/{1}) in {2} s: {3}', event.attempt, event.maxAttempts, Math.round(event.delayMs / 100) / 10, event.errorMessage) });
      return;
    case 'compaction_start':
      board.add({ level: 'info', slot: 'compaction', text: t('Compacting the conversation ({0})…', event.reason) });
      return;
    case 'compaction_end':
      board.settle('compaction', compactionResult(event));
      return;
    case 'notice':
      board.add({ level: event.level, text: event.message });
      return;
  }
}

function compactionResult(event: Extract<AgentUiEvent, { type: 'compaction_end' }>): Omit<NoticeInput, 'slot'> {
  if (event.aborted) return { level: 'warning', text: t('Compaction cancelled.'), untilNextTurn: true };
  if (!event.ok) return { level: 'error', text: event.errorMessage ? t('Compaction failed: {0}.', event.errorMessage) : t('Compaction failed.') };
  return { level: 'info', text: t('Conversation compacted.'), untilNextTurn: true };
}
