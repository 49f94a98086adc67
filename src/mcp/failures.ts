// Why an MCP server is not available, as a typed outcome the status view, the log and the chat show.
// A server that fails never blocks the chat: its tools are simply not offered and the status says why.

export type ServerFailure =
  | { kind: 'config'; message: string }
  | { kind: 'commandNotFound'; command: string }
  | { kind: 'exited'; code: number | null; signal: string | null; stderr: string[] }
  | { kind: 'timeout'; seconds: number; stderr: string[] }
  | { kind: 'http'; status?: number; message: string }
  | { kind: 'protocol'; message: string; stderr: string[] };

function tail(stderr: readonly string[]): string {
  return stderr.length > 0 ? `\nLast lines of its stderr:\n${stderr.slice(-5).join('\n')}` : '';
}

/** One message for the user (and the log), naming what to check. */
export function describeFailure(failure: ServerFailure): string {
  switch (failure.kind) {
    case 'config':
      return `Its configuration is not usable: ${failure.message}`;
    case 'commandNotFound':
      return `The command "${failure.command}" was not found. Check that it is installed and on the PATH VS Code sees.`;
    case 'exited': {
      const how = failure.signal ? `was killed by ${failure.signal}` : `exited with code ${failure.code ?? 'unknown'}`;
      return `The server ${how}.${tail(failure.stderr)}`;
    }
    case 'timeout':
      return `The server did not answer within ${failure.seconds} s.${tail(failure.stderr)}`;
    case 'http':
      return `The server could not be reached${failure.status ? ` (HTTP ${failure.status})` : ''}: ${failure.message}`;
    case 'protocol':
      return `The server failed: ${failure.message}${tail(failure.stderr)}`;
  }
}

/** Error codes of a process that could not be spawned because its program is missing. */
export function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR';
}
