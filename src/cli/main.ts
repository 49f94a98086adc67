// `arbor-session`: inspect pi/Arbor session files from a terminal. Plain Node, no VS Code.
import { CliError, type CliIO } from './command';
import { commands } from './commands/index';
import { escapeControls } from './terminal-text';

function usage(): string {
  const lines = ['usage: arbor-session <command> [options]', '', 'commands:'];
  for (const [name, command] of Object.entries(commands)) lines.push(`  ${command.usage.padEnd(44)} ${command.summary}`);
  return lines.join('\n');
}

/** Everything a command prints goes through here: session content never reaches the terminal raw. */
function terminalSafe(io: CliIO): CliIO {
  return { out: (text) => io.out(escapeControls(text)), err: (text) => io.err(escapeControls(text)) };
}

export async function runCli(argv: string[], rawIO: CliIO): Promise<number> {
  const io = terminalSafe(rawIO);
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(usage());
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.err(`arbor-session: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(`usage: arbor-session ${command.usage}\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`arbor-session ${name}: ${error.message}`);
      return 2;
    }
    io.err(`arbor-session ${name}: internal error: ${(error as Error)?.message ?? String(error)}`);
    if (process.env.ARBOR_DEBUG) io.err(String((error as Error)?.stack));
    return 70;
  }
}

const stdio: CliIO = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

const isMain = typeof require !== 'undefined' ? require.main === module : true;
if (isMain) {
  runCli(process.argv.slice(2), stdio).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`arbor-session: ${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
