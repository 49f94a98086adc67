// The SDK's stdio transport, observed: the SDK does not report how its child process ended, and a user
// whose server fails at start needs the exit code beside the last stderr lines (failures.ts). The
// child is reached once, right after it spawned, through the transport's own (untyped) field.
import type { ChildProcess } from 'node:child_process';
import type { StdioClientTransport, StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export interface ObservedStdio {
  transport: StdioClientTransport;
  /** how the process ended, once it did */
  exit(): ProcessExit | undefined;
  onExit(listener: (exit: ProcessExit) => void): void;
}

export function observedStdio(Transport: typeof StdioClientTransport, params: StdioServerParameters): ObservedStdio {
  const transport = new Transport(params);
  let exit: ProcessExit | undefined;
  const listeners: ((exit: ProcessExit) => void)[] = [];
  const exited = (value: ProcessExit) => {
    exit = value;
    for (const listener of listeners.splice(0)) listener(value);
  };
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const child = (transport as unknown as { _process?: ChildProcess })._process;
    if (!child) return;
    if (child.exitCode !== null || child.signalCode !== null) exited({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => exited({ code, signal }));
  };
  return {
    transport,
    exit: () => exit,
    onExit: (listener) => (exit ? listener(exit) : void listeners.push(listener)),
  };
}
