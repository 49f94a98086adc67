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

/** Another writer holds the session lock for too long, or the lock cannot be used. Nothing was written. */
export class SessionLockError extends Error {
  override readonly name = 'SessionLockError';
  constructor(
    readonly file: string,
    /** why the lock could not be taken (who holds it, or what is wrong with the lock path) */
    readonly reason = 'held by another writer',
  ) {
    super(`${file}: the session is locked (lock file ${file}.lock: ${reason}); nothing was written`);
  }
}

/** The session kept changing under a rewrite (pruning, migration); the file was left as it was. */
export class SessionChangedError extends Error {
  override readonly name = 'SessionChangedError';
  constructor(readonly file: string) {
    super(`${file}: another writer kept changing the session during the rewrite; nothing was rewritten`);
  }
}

/** The session was written by a newer version; Arbor shows it but never writes to it. */
export class SessionReadOnlyError extends Error {
  override readonly name = 'SessionReadOnlyError';
  constructor(
    readonly file: string,
    readonly version: number,
  ) {
    super(`${file}: this session was written by a newer version (v${version}); Arbor opened it read-only and wrote nothing`);
  }
}

/** A tree operation referred to an entry that does not exist. */
export class UnknownEntryError extends Error {
  override readonly name = 'UnknownEntryError';
  constructor(readonly entryId: string) {
    super(`entry ${entryId} not found in the session`);
  }
}
