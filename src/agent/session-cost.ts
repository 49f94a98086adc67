// What the session has cost so far: every reply, usage entry and summary in the file when it is opened,
// then each new reply, compaction and branch summary as it is written; and the last reply's cost alone.
// Apart from agent-session.ts so the meter's money figures have one home.
import type { AssistantMessage } from '../core/messages';
import type { SessionEntry } from '../session/entries';
import { entryCost } from '../session/entry-fields';

export class SessionCost {
  private last = 0;
  private total: number;

  /** Starts from the cost of every entry already in the file. */
  constructor(entries: readonly SessionEntry[]) {
    this.total = costOfEntries(entries);
  }

  get lastCost(): number {
    return this.last;
  }

  get sessionCost(): number {
    return this.total;
  }

  /** A reply was persisted: it becomes the last cost and adds to the session's. */
  addReply(reply: AssistantMessage): void {
    this.last = reply.usage?.cost?.total ?? 0;
    this.total += this.last;
  }

  /** An entry written beside the loop (a compaction's or a branch summary's summarizer calls). */
  addEntry(entry: SessionEntry): void {
    this.total += entryCost(entry);
  }
}

function costOfEntries(entries: readonly SessionEntry[]): number {
  let total = 0;
  for (const entry of entries) total += entryCost(entry);
  return total;
}
