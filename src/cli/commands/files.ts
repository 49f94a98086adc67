// `files FILE [--leaf ID]`: the file state at a node (replay of the `arbor.files` manifests on its path);
// `files FILE --diff A B`: the files that differ between two nodes. Reads the session file only (the
// manifests name contents by hash; the blob store is not needed to list or compare).
import { diffNodeStates, stateAtPath, type FileState } from '../../checkpoints';
import { CliError, openForCli, parseCommandArgs, resolveLeafOption, type CliCommand } from '../command';

/** A path as printed: control and bidi characters written as escapes so they cannot steer a terminal. */
function printable(key: string): string {
  return /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(key) ? JSON.stringify(key) : key;
}

function describeState(state: FileState): string {
  switch (state.kind) {
    case 'file':
      return `file     ${String(state.size).padStart(10)}  ${state.hash.slice(0, 12)}${state.exec ? ' x' : '  '}`;
    case 'absent':
      return `deleted  ${''.padStart(10)}  ${''.padEnd(12)}  `;
    case 'skipped':
      return `skipped  ${String(state.size).padStart(10)}  ${(state.reason === 'too-large' ? 'over cap' : 'not a file').padEnd(12)}  `;
  }
}

const CHANGE_LETTER = { added: 'A', modified: 'M', deleted: 'D' } as const;

export const filesCommand: CliCommand = {
  usage: 'files FILE [--leaf ID | --diff A B]',
  summary: 'list the checkpointed file state at a node, or the files that differ between two nodes',
  async run(args, io) {
    const diffing = args.includes('--diff');
    const { positionals, values } = parseCommandArgs(args, { leaf: { type: 'string' }, diff: { type: 'string' } }, diffing ? ['FILE', 'B'] : ['FILE']);
    if (diffing && values.leaf !== undefined) throw new CliError('--leaf and --diff cannot be combined');
    const store = await openForCli(positionals[0]!, io);
    if (diffing) {
      const a = stateAtPath(store.getBranch(resolveLeafOption(store, values.diff)));
      const b = stateAtPath(store.getBranch(resolveLeafOption(store, positionals[1])));
      for (const change of diffNodeStates(a, b)) io.out(`${CHANGE_LETTER[change.change]} ${printable(change.key)}`);
      return 0;
    }
    const state = stateAtPath(store.getBranch(resolveLeafOption(store, values.leaf)));
    for (const id of state.invalidIds) io.err(`warning: entry ${id}: unreadable arbor.files manifest, skipped`);
    for (const [key, fileState] of [...state.files].sort(([x], [y]) => (x < y ? -1 : 1))) io.out(`${describeState(fileState)}  ${printable(key)}`);
    return 0;
  },
};
