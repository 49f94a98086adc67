// What every `arbor-session` sub-command implements, plus the small helpers they share.
import { parseArgs } from 'node:util';
import { SessionStore } from '../session/store';
import { SessionFileError } from '../session/errors';
import { scanLines } from '../session/scan';

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

export interface CliCommand {
  /** one line for `arbor-session --help` */
  summary: string;
  /** usage line, e.g. `context FILE [--leaf ID | --leaf null]` */
  usage: string;
  /** returns the exit code */
  run(args: string[], io: CliIO): Promise<number>;
}

/** A user error: printed as-is on stderr, exit code 2, no stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

export function parseCommandArgs<T extends OptionSpec>(
  args: string[],
  options: T,
  positionalNames: string[],
): { positionals: string[]; values: { [K in keyof T]?: T[K]['type'] extends 'string' ? string : boolean } } {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  if (parsed.positionals.length < positionalNames.length) {
    throw new CliError(`missing ${positionalNames.slice(parsed.positionals.length).join(', ')}`);
  }
  if (parsed.positionals.length > positionalNames.length) {
    throw new CliError(`unexpected argument: ${parsed.positionals[positionalNames.length]}`);
  }
  return { positionals: parsed.positionals, values: parsed.values as never };
}

/** Opens a session for reading; the leaf is pi's (last entry in file order). Load problems go to stderr. */
export async function openForCli(file: string, io: CliIO): Promise<SessionStore> {
  let store: SessionStore;
  try {
    store = await SessionStore.open(file);
  } catch (error) {
    if (error instanceof SessionFileError) throw new CliError(error.message);
    throw error;
  }
  store.readAllEntries(); // every damaged line is reported up front, not when a command reaches it
  for (const problem of store.loadReport) {
    io.err(`warning: ${file}${problem.line ? `:${problem.line}` : ''}: ${problem.kind}: ${problem.message}`);
  }
  return store;
}

/** `--leaf ID` (must exist), `--leaf null` (empty conversation), absent → the store's leaf. */
export function resolveLeafOption(store: SessionStore, leaf: string | undefined): string | null {
  if (leaf === undefined) return store.getLeafId();
  if (leaf === 'null') return null;
  if (!store.getEntry(leaf)) throw new CliError(`no entry with id ${leaf} in ${store.file}`);
  return leaf;
}

/** Entry id → 1-based line number in `file` (read again: the store keeps no line numbers). */
export async function entryLines(file: string): Promise<Map<string, number>> {
  const lines = new Map<string, number>();
  for (const line of (await scanLines(file)).lines) {
    const id = (line.value as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && !lines.has(id)) lines.set(id, line.lineNo);
  }
  return lines;
}
