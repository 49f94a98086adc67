// Errors the session layer throws on bad input; the CLI and the UI show their message as-is.

/** The file cannot be used as a session (missing, empty, no valid header). The file is never touched. */
export class SessionFileError extends Error {
  override readonly name = 'SessionFileError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** Another writer holds the session lock for too long. Nothing was written. */
export class SessionLockError extends Error {
  override readonly name = 'SessionLockError';
  constructor(readonly file: string) {
    super(`${file}: the session is locked by another writer (lock file ${file}.lock); nothing was written`);
  }
}

/** A tree operation referred to an entry that does not exist. */
export class UnknownEntryError extends Error {
  override readonly name = 'UnknownEntryError';
  constructor(readonly entryId: string) {
    super(`entry ${entryId} not found in the session`);
  }
}
