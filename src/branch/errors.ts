// Errors of branch navigation and summarization. Callers tell them apart by class, not message text.

/** The user cancelled (Esc) while the branch was being summarized; nothing was written. */
export class BranchSummaryCancelled extends Error {
  constructor(message = 'Branch summarization cancelled') {
    super(message);
    this.name = 'BranchSummaryCancelled';
  }
}

/** The summarizer model failed; nothing was written and the leaf did not move. */
export class BranchSummaryFailed extends Error {
  constructor(detail: string) {
    super(`Branch summarization failed: ${detail}`);
    this.name = 'BranchSummaryFailed';
  }
}

/** The navigation target is not an entry of this session. */
export class UnknownNavigationTarget extends Error {
  constructor(readonly targetId: string) {
    super(`Cannot navigate: no entry with id ${targetId} in this session`);
    this.name = 'UnknownNavigationTarget';
  }
}

/** The leaf moved (another action appended) while a summary was generated; nothing was written. */
export class LeafMovedDuringSummary extends Error {
  constructor(expected: string | null, actual: string | null) {
    super(`The conversation moved on while the branch was being summarized (leaf ${expected ?? 'none'} → ${actual ?? 'none'}); nothing was written`);
    this.name = 'LeafMovedDuringSummary';
  }
}

/** A summary was asked for but no summarizer model is configured. */
export class NoSummarizerModel extends Error {
  constructor() {
    super('Branch summarization needs a model, and none is configured');
    this.name = 'NoSummarizerModel';
  }
}
